import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// A store like the demo's: the bundled 2005 drive replayed in 2026 (receive times now, fix times the
/// log's), after a first fix that came before the receiver knew the date (no fix time) and the startup
/// reading taken there. `trips` lists one trip, the startup reading in it; the report's last trip is it.
@Suite(.scratch) struct UndatedFirstFixTripTests {
    static let wall = Date(timeIntervalSince1970: 1_780_000_000)  // 2026

    /// The replayed store and its dated fixes; the undated point is 2 s before the first of them.
    static func build() async throws -> (path: String, fixes: [Fix], startup: Reading) {
        let path = StoreTestData.temporaryStorePath("undated-first")
        let store = try SQLiteStore(path: path)
        var fixes = try DriveStore.fixes()
        let first = try #require(fixes.first?.time)
        // Replayed 50× faster than driven, as the demo does.
        for i in fixes.indices {
            fixes[i].receivedAt = wall.addingTimeInterval((fixes[i].time ?? first).timeIntervalSince(first) / 50 + 2)
        }
        let undated = Fix(time: nil, receivedAt: wall, coordinate: fixes[0].coordinate, mode: .twoD)
        try await store.appendTrackPoints([undated] + fixes)
        var startup = StoreTestData.reading(
            at: 0, lat: undated.coordinate.lat, lon: undated.coordinate.lon, placeName: "Undated start")
        startup.time = wall.addingTimeInterval(1)
        startup.trigger = .startup
        startup.position = Position(fix: undated)
        startup.weather?.current.temperatureC = -5
        try await store.insertReading(startup)
        var later = StoreTestData.reading(
            at: 0, lat: fixes[3000].coordinate.lat, lon: fixes[3000].coordinate.lon, placeName: "Dated later")
        later.time = fixes[3000].receivedAt
        later.position = Position(fix: fixes[3000])
        try await store.insertReading(later)
        return (path, fixes, startup)
    }

    @Test func theFirstFixAndTheStartupReadingAreInTheReplayedTrip() async throws {
        let built = try await Self.build()
        let home = TestPaths.temporaryDirectory("undated-trips")
        let r = try CLIRunner.run(["trips", "--json", "--db", built.path], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(json.count == 1, "\(r.stdout)")
        let trip = try #require(json.first)
        #expect(trip["readings"] as? Int == 2)
        #expect(trip["start_place"] as? String == "Undated start")
        #expect(trip["end_place"] as? String == "Dated later")
        #expect(trip["min_c"] as? Double == -5)
        // The trip starts 2 s (of receive time) before the first dated fix, in 2005.
        let first = try #require(built.fixes.first?.time)
        #expect(trip["start"] as? String == UTCTime.format(first.addingTimeInterval(-2)))

        // report's last trip is that trip, with the undated point first and the startup reading in it.
        let store = try SQLiteStore(path: built.path)
        let writer = TripReportWriter(gapMinutes: 30, units: .metric, language: .en)
        let input = try await writer.input(store: store, choice: nil, since: nil, until: nil)
        #expect(input.tripNumber == 1)
        #expect(input.points.count == built.fixes.count + 1)
        #expect(input.points.first?.time == first.addingTimeInterval(-2))
        #expect(input.readings.count == 2)
        #expect(
            TripReportWriter.defaultFileName(for: input)
                == "trip-2005-09-25T\(ReportRenderTests.hourMinute(first.addingTimeInterval(-2)))Z.svg")
    }

    @Test func withoutADatedFixNearItTheUndatedPointKeepsItsOwnTrip() async throws {
        let built = try await Self.build()
        // A second undated point an hour (of receive time) after the replay ended: nothing dated within 30 min.
        let end = try #require(built.fixes.last?.receivedAt).addingTimeInterval(3600)
        let store = try SQLiteStore(path: built.path)
        try await store.appendTrackPoints([
            Fix(time: nil, receivedAt: end, coordinate: Coordinate(lat: 39.42, lon: -119.76)!, mode: .twoD)
        ])
        let trips = try await store.trips(gapMinutes: 30)
        #expect(trips.count == 2)
        #expect(trips.last?.span.start == end && trips.last?.distanceKm == 0)
        #expect(TripChoice.lastIndex(trips) == 0)
    }
}
