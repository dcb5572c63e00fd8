import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The store's trip queries: by fix time (a replayed log's time, not the wall clock), with the
/// receive time where the receiver gave none, over the fix-time index.
@Suite(.scratch) struct TripQueriesTests {
    static let wall = Date(timeIntervalSince1970: 1_900_000_000)
    static let logged = Date(timeIntervalSince1970: 1_100_000_000)

    /// A fix received at `received` (seconds after `wall`) whose receiver time is `fix` seconds
    /// after `logged`, or none.
    static func fix(received: Double, fix: Double?, lat: Double) -> Fix {
        Fix(
            time: fix.map { logged.addingTimeInterval($0) }, receivedAt: wall.addingTimeInterval(received),
            coordinate: Coordinate(lat: lat, lon: 8)!, mode: .threeD)
    }

    @Test func tripsFollowFixTimesNotTheWallClock() async throws {
        let path = StoreTestData.temporaryStorePath("trips")
        let store = try SQLiteStore(path: path)
        // A replay: received a second apart, but the log has a 2-hour gap after the 5th fix.
        var fixes: [Fix] = []
        for i in 0..<5 { fixes.append(Self.fix(received: Double(i), fix: Double(i * 10), lat: 50 + Double(i) * 0.01)) }
        for i in 5..<9 {
            fixes.append(Self.fix(received: Double(i), fix: 7200 + Double(i * 10), lat: 51 + Double(i) * 0.01))
        }
        try await store.appendTrackPoints(fixes)
        let trips = try await store.trips(gapMinutes: 30)
        #expect(trips.count == 2)
        #expect(trips.map(\.span.pointCount) == [5, 4])
        #expect(trips[0].span.start == Self.logged)
        #expect(abs(trips[0].distanceKm - 4 * 1.11195) < 0.01)
        // A reading taken at wall-clock time, its position from the second part of the log.
        var reading = StoreTestData.reading(at: 0, lat: 51.06, lon: 8, placeName: "Second")
        reading.time = Self.wall.addingTimeInterval(6)
        reading.position?.fixTime = Self.logged.addingTimeInterval(7260)
        try await store.insertReading(reading)
        let inSecond = try await store.tripReadings(from: trips[1].span.start, to: trips[1].span.end)
        #expect(inSecond.map { $0.place?.name } == ["Second"])
        #expect(try await store.tripReadings(from: trips[0].span.start, to: trips[0].span.end).isEmpty)
        let summaries = try await store.tripSummaries(gapMinutes: 30)
        #expect(summaries.map(\.readings) == [0, 1])
        #expect(summaries[1].startPlace == "Second" && summaries[1].endPlace == "Second")
        #expect(summaries[1].minC == 3.1 && summaries[0].minC == nil)
        // One long trip when the gap allowed is longer.
        #expect(try await store.trips(gapMinutes: 180).count == 1)
    }

    @Test func aPointWithoutFixTimeUsesItsReceiveTime() async throws {
        let path = StoreTestData.temporaryStorePath("trips-null")
        let store = try SQLiteStore(path: path)
        let t = Date(timeIntervalSince1970: 1_500_000_000)
        try await store.appendTrackPoints([
            Fix(time: nil, receivedAt: t, coordinate: Coordinate(lat: 10, lon: 10)!, mode: .twoD),
            Fix(
                time: nil, receivedAt: t.addingTimeInterval(60), coordinate: Coordinate(lat: 10.01, lon: 10)!,
                mode: .twoD),
            Fix(
                time: nil, receivedAt: t.addingTimeInterval(4000), coordinate: Coordinate(lat: 10.02, lon: 10)!,
                mode: .twoD),
        ])
        let trips = try await store.trips(gapMinutes: 30)
        #expect(trips.map(\.span.start) == [t, t.addingTimeInterval(4000)])
        let points = try await store.tripTrackPoints(from: t, to: t.addingTimeInterval(60))
        #expect(points.map(\.time) == [t, t.addingTimeInterval(60)])
        #expect(try await store.trips(gapMinutes: 30).count == 2)
        #expect(
            try await SQLiteStore(path: StoreTestData.temporaryStorePath("trips-empty")).trips(gapMinutes: 30).isEmpty)
    }

    @Test func theTripQueriesUseTheFixTimeIndex() async throws {
        let path = StoreTestData.temporaryStorePath("trips-plan")
        _ = try SQLiteStore(path: path)
        let points = try StoreTestData.sqlite3(
            path,
            "EXPLAIN QUERY PLAN SELECT coalesce(fix_time, time), lat, lon FROM track_points ORDER BY coalesce(fix_time, time), id"
        )
        #expect(points.contains("track_points_trip_time"), "\(points)")
        let readings = try StoreTestData.sqlite3(
            path,
            "EXPLAIN QUERY PLAN SELECT json FROM readings WHERE coalesce(fix_time, time) BETWEEN 1 AND 2 AND lat IS NOT NULL ORDER BY coalesce(fix_time, time), id"
        )
        #expect(readings.contains("readings_trip_time"), "\(readings)")
    }
}
