import Foundation
import Testing

@testable import FixcastTables

/// One k-d tree walk over two storages: `KDTreeIndex`'s arrays and `PlaceTableImage`'s tree section.
/// Built from the same points they must hold the same tree and give the same answers, tie-breaks included.
struct KDTreeStorageTests {
    /// Random places in 1e-4 degrees (as places.bin stores them), with a cluster of duplicates so that
    /// tie-breaks are exercised, and the image and index built from them.
    static func build(_ n: Int) throws -> (
        image: PlaceTableImage, index: KDTreeIndex, lat: [Double], lon: [Double]
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
        let image = try PlaceTableImage(storage: InMemoryTableStorage(copying: bytes))
        let lat = rows.map { Double($0.latE4) / 10_000 }
        let lon = rows.map { Double($0.lonE4) / 10_000 }
        return (image, KDTreeIndex(lat: lat, lon: lon), lat, lon)
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
            #expect(a.row == Int(b.id) && a.radians == KDTree.centralAngle(chordSquared: b.squared))
            #expect(image.nearestByScan(lat: la, lon: lo)?.row == a.row)
            // Up to ~600 km on the Earth.
            let radians = Double.random(in: 0...0.095, using: &g)
            #expect(
                Set(image.within(lat: la, lon: lo, radians: radians))
                    == Set(index.within(lat: la, lon: lo, radians: radians)))
        }
        #expect(image.nearest(lat: 10, lon: 20)?.row == 0)
        #expect(index.nearest(lat: 10, lon: 20)?.id == 0)
        // The walk over the image agrees with plain haversine over every point (central angles).
        let haversine = lat.indices.map { i in Self.haversine(48.1, 11.6, lat[i], lon[i]) }
        let walk = try #require(image.nearest(lat: 48.1, lon: 11.6))
        #expect(abs(walk.radians - (haversine.min() ?? .infinity)) < 1e-9)
        #expect(abs(haversine[walk.row] - walk.radians) < 1e-9)
    }

    @Test func anEmptyTreeHasNoAnswer() throws {
        let bytes = PlaceTableImage.encode(countries: [], regions: [], rows: [])
        let image = try PlaceTableImage(storage: InMemoryTableStorage(copying: bytes))
        #expect(image.nearest(lat: 0, lon: 0) == nil)
        #expect(image.nearestByScan(lat: 0, lon: 0) == nil)
        #expect(image.within(lat: 0, lon: 0, radians: .pi).isEmpty)
    }

    /// The central angle between two points in degrees by the haversine formula: an independent reference.
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r
        let dLon = (lon2 - lon1) * r
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * asin(min(1, h.squareRoot()))
    }
}
