import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The bundled table as fixcast loads it (places.bin, mapped) and what a damaged copy turns into.
@Suite(.scratch)
struct OfflinePlacesTests {
    @Test func namesAPlaceFromTheBundledTable() throws {
        let q = try #require(Coordinate(lat: 52.52, lon: 13.405))
        let place = try PlaceTestData.offline.nearestPlace(to: q)
        #expect(place?.name == "Berlin")
        #expect(place?.source == .offline)
    }

    @Test func aTruncatedTableIsAPlaceErrorNotACrash() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fixcast-offline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bundled = try Data(
            contentsOf: TestPaths.repoRoot.appendingPathComponent("share/fixcast/\(OfflinePlaces.fileName)"))
        try bundled.prefix(bundled.count / 3).write(to: dir.appendingPathComponent(OfflinePlaces.fileName))
        let files = DataFiles(
            environment: ["FIXCAST_DATA_DIR": dir.path, "XDG_DATA_DIRS": "/nonexistent"], executablePath: nil)
        let offline = OfflinePlaces(dataFiles: files)
        let q = try #require(Coordinate(lat: 52.52, lon: 13.405))
        #expect(throws: PlaceError.self) { try offline.nearestPlace(to: q) }
        guard case .failure(.offlineDataMissing(let detail)) = OfflinePlaces.load(files) else {
            Issue.record("a truncated table must fail to load")
            return
        }
        #expect(detail.contains(dir.path))
        #expect(detail.contains("truncated"))
    }

    /// A table whose strings were all shifted (damage the loader's checks cannot see without reading every
    /// page) names no row: no place, not a place called "".
    @Test func aRowWithoutAReadableNameIsNoPlace() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fixcast-offline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = [UInt8](
            try Data(contentsOf: TestPaths.repoRoot.appendingPathComponent("share/fixcast/\(OfflinePlaces.fileName)")))
        let strings = (0..<8).reduce(0) { $0 | Int(bytes[40 + $1]) << (8 * $1) } - 2
        for i in 0..<8 { bytes[40 + i] = UInt8((strings >> (8 * i)) & 0xFF) }
        try Data(bytes).write(to: dir.appendingPathComponent(OfflinePlaces.fileName))
        let files = DataFiles(
            environment: ["FIXCAST_DATA_DIR": dir.path, "XDG_DATA_DIRS": "/nonexistent"], executablePath: nil)
        let q = try #require(Coordinate(lat: 52.52, lon: 13.405))
        #expect(try OfflinePlaces(dataFiles: files).nearestPlace(to: q) == nil)
    }

    /// Near a border the nearest place can be across it: the place and the country come from this
    /// side (the bundled borders, basemap.bin). Before, Windsor's riverfront was Detroit (US: its alerts
    /// were asked of NWS) and the Kehl side of the Rhine was Strasbourg.
    @Test(arguments: [
        (42.3190, -83.0405, "Windsor", "CA"),  // Windsor's riverfront: Detroit's centre is nearer
        (42.3300, -83.0450, "Detroit", "US"),  // across the river
        (48.5730, 7.8150, "Kehl", "DE"),
        (48.5800, 7.7600, "Strasbourg", "FR"),
        (52.5200, 13.4050, "Berlin", "DE"),  // no border near: the nearest, as always
    ])
    func theCountryAndThePlaceAreFromThisSideOfABorder(lat: Double, lon: Double, name: String, code: String) throws {
        let q = try #require(Coordinate(lat: lat, lon: lon))
        let offline = PlaceTestData.offline
        let place = try #require(try offline.nearestPlace(to: q))
        #expect(place.name == name && place.countryCode == code)
        #expect(try offline.countryCode(at: q) == code)
        #expect(try offline.spot(at: q).country == code)
    }

    /// Without the base map, the nearest place decides, as it did before the borders were read.
    @Test func withoutTheBordersTheNearestPlaceDecides() throws {
        let dir = TestPaths.temporaryDirectory("offline-no-basemap")
        try FileManager.default.copyItem(
            at: TestPaths.repoRoot.appendingPathComponent("share/fixcast/\(OfflinePlaces.fileName)"),
            to: dir.appendingPathComponent(OfflinePlaces.fileName))
        let files = DataFiles(
            environment: ["FIXCAST_DATA_DIR": dir.path, "XDG_DATA_DIRS": "/nonexistent"], executablePath: nil)
        let q = try #require(Coordinate(lat: 42.3190, lon: -83.0405))
        let offline = OfflinePlaces(dataFiles: files)
        #expect(try offline.countryCode(at: q) == "US")
        #expect(try offline.nearestPlace(to: q)?.name == "Detroit")
    }
}
