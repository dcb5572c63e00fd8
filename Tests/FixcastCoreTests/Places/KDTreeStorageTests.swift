import Foundation
import Testing

@testable import FixcastCore

/// One k-d tree walk over two storages: `NearestPlaceIndex`'s arrays and `PlaceTableImage`'s tree section.
/// Built from the same points they must hold the same tree and give the same answers, tie-breaks included.
struct KDTreeStorageTests {
    /// Random places in 1e-4 degrees (as places.bin stores them), with a cluster of duplicates so that
    /// tie-breaks are exercised, and the image and index built from them.
    static func build(_ n: Int) throws -> (
        image: PlaceTableImage, index: NearestPlaceIndex, lat: [Double], lon: [Double]
    ) {
        var g = SystemRandomNumberGenerator()
        var rows: [PlaceTableImage.Row] = []
        for k in 0..<n {
            let lat = k % 50 == 0 ? Int32(100_000) : Int32.random(in: -900_000...900_000, using: &g)
            let lon = k % 50 == 0 ? Int32(200_000) : Int32.random(in: -1_800_000...1_800_000, using: &g)
            rows.append(
                .init(
                    latE4: lat, lonE4: lon, name: ArraySlice(Array("P\(k)".utf8)), alt: [], population: Int32(k),
                    region: -1, country: 0))
        }
        let bytes = PlaceTableImage.encode(countries: [.init(code: "DE", name: "Germany")], regions: [], rows: rows)
        let image = try PlaceTableImage(storage: InMemoryPlaceTableStorage(copying: bytes))
        let lat = rows.map { Double($0.latE4) / 10_000 }
        let lon = rows.map { Double($0.lonE4) / 10_000 }
        return (image, NearestPlaceIndex(lat: lat, lon: lon), lat, lon)
    }

    @Test func bothStoragesHoldTheSameTree() throws {
        let (image, index, _, _) = try Self.build(2000)
        #expect(image.count == index.count)
        index.withTree { arrays in
            for position in 0..<image.count {
                let a = image.node(position)
                let b = arrays.node(position)
                #expect(a.id == b.id && a.axis == b.axis)
                #expect(a.point == b.point)
            }
        }
    }

    @Test func bothStoragesGiveTheSameAnswers() throws {
        let (image, index, lat, lon) = try Self.build(3000)
        var g = SystemRandomNumberGenerator()
        // Random points, plus the duplicate cluster (a tie between 60 rows: the lowest, row 0, must win).
        var queries = (0..<400).map { _ in
            (Double.random(in: -90...90, using: &g), Double.random(in: -180...180, using: &g))
        }
        queries += [(10, 20), (90, 0), (-90, 0), (0, 180), (0, -180)]
        for (la, lo) in queries {
            let a = try #require(image.nearest(lat: la, lon: lo))
            let b = try #require(index.nearest(lat: la, lon: lo))
            #expect(a.row == b.index && a.distanceKm == b.distanceKm)
            #expect(image.nearestByScan(lat: la, lon: lo)?.row == a.row)
            let radius = Double.random(in: 0...600, using: &g)
            #expect(
                Set(image.within(lat: la, lon: lo, radiusKm: radius))
                    == Set(index.within(lat: la, lon: lo, radiusKm: radius)))
        }
        #expect(image.nearest(lat: 10, lon: 20)?.row == 0)
        #expect(index.nearest(lat: 10, lon: 20)?.index == 0)
        // The walk over the image agrees with plain haversine over every point.
        let q = try #require(Coordinate(lat: 48.1, lon: 11.6))
        let haversine = lat.indices.compactMap { i in
            Coordinate(lat: lat[i], lon: lon[i]).map { GreatCircle.distanceKm(q, $0) }
        }
        let walk = try #require(image.nearest(lat: 48.1, lon: 11.6))
        #expect(abs(walk.distanceKm - (haversine.min() ?? .infinity)) < 1e-6)
        #expect(abs(haversine[walk.row] - walk.distanceKm) < 1e-6)
    }

    @Test func anEmptyTreeHasNoAnswer() throws {
        let bytes = PlaceTableImage.encode(countries: [], regions: [], rows: [])
        let image = try PlaceTableImage(storage: InMemoryPlaceTableStorage(copying: bytes))
        #expect(image.nearest(lat: 0, lon: 0) == nil)
        #expect(image.nearestByScan(lat: 0, lon: 0) == nil)
        #expect(image.within(lat: 0, lon: 0, radiusKm: 20_000).isEmpty)
    }
}

/// The storage port: the table reads only through it, asks for read-ahead only before a scan, and keeps
/// the storage alive as long as it lives.
struct PlaceTableStoragePortTests {
    /// A storage over a copy of an image that records the hints it gets.
    final class RecordingStorage: PlaceTableStorage, @unchecked Sendable {
        let inner: InMemoryPlaceTableStorage
        var hints: [Range<Int>] = []
        init(_ bytes: [UInt8]) { inner = InMemoryPlaceTableStorage(copying: bytes) }
        var bytes: UnsafeRawBufferPointer { inner.bytes }
        func willRead(_ range: Range<Int>) { hints.append(range) }
    }

    static func image() throws -> [UInt8] {
        try OfflinePlaceTable.encodeImage(fromText: Array(OfflinePlaceTableTests.small.utf8))
    }

    @Test func inMemoryStorageHoldsACopy() throws {
        var source = try Self.image()
        let storage = InMemoryPlaceTableStorage(copying: source)
        source[0] = 0
        #expect(Array(storage.bytes) == (try Self.image()))
        storage.willRead(0..<storage.bytes.count)  // memory: a no-op
        #expect(InMemoryPlaceTableStorage(copying: []).bytes.count == 0)
    }

    @Test func searchAsksToReadTheRecordsAndNamesAheadLookupsDoNot() throws {
        let bytes = try Self.image()
        let storage = RecordingStorage(bytes)
        let table = try OfflinePlaceTable(storage: storage)
        let q = try #require(Coordinate(lat: 52.52, lon: 13.405))
        #expect(table.settlement(at: q).map { table.name($0.row) } == "Berlin")
        #expect(storage.hints.isEmpty)
        #expect(table.search("new york", limit: 2).map { table.name($0) } == ["New York City", "New York Mills"])
        // Two hints (records, then names), inside the image, after the header and tree.
        #expect(storage.hints.count == 2)
        for hint in storage.hints {
            #expect(hint.lowerBound >= PlaceTableImage.headerSize + table.count * PlaceTableImage.nodeSize)
            #expect(hint.upperBound <= bytes.count)
        }
        #expect(storage.hints.first?.count == table.count * PlaceTableImage.recordSize)
    }

    @Test func theTableKeepsItsStorageAlive() throws {
        weak var released: RecordingStorage?
        var table: OfflinePlaceTable?
        do {
            let storage = RecordingStorage(try Self.image())
            released = storage
            table = try OfflinePlaceTable(storage: storage)
        }
        #expect(released != nil)
        #expect(table?.name(0) == "Berlin")
        table = nil
        #expect(released == nil)
    }
}
