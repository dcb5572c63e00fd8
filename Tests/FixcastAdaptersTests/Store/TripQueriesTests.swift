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

    /// A receiver that keeps its fix while parked (a service on permanent power): the store's trips
    /// follow `TripSplitter`'s stop rule, so a drive, two hours parked with a point every 45 s and the
    /// drive back are two trips of the drives' lengths, and the summaries and the report's trip agree.
    @Test func aLongStopWithTheReceiverLoggingEndsTheTrip() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("trips-parked"))
        var fixes: [Fix] = []
        for i in 0...60 {
            fixes.append(Self.fix(received: Double(i) * 10, fix: Double(i) * 10, lat: 50 + Double(i) * 0.002))
        }
        for k in 1...160 {
            let t = 600 + Double(k) * 45
            fixes.append(Self.fix(received: t, fix: t, lat: 50.12 + (k % 2 == 0 ? 0.0001 : -0.0001)))
        }
        for i in 0...60 {
            let t = 600 + 160 * 45 + 45 + Double(i) * 10
            fixes.append(Self.fix(received: t, fix: t, lat: 50.12 - Double(i) * 0.002))
        }
        try await store.appendTrackPoints(fixes)
        let trips = try await store.trips(gapMinutes: 30)
        #expect(trips.count == 2, "\(trips)")
        #expect(trips.first?.span.end == Self.logged.addingTimeInterval(600))
        #expect(trips.map { ($0.distanceKm * 10).rounded() / 10 } == [13.3, 13.1], "\(trips.map(\.distanceKm))")
        let summaries = try await store.tripSummaries(gapMinutes: 30)
        #expect(summaries.map(\.start) == trips.map(\.span.start))
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
            "EXPLAIN QUERY PLAN SELECT json FROM readings WHERE \(SQLiteStore.readingInTrip.replacingOccurrences(of: "?1", with: "1").replacingOccurrences(of: "?2", with: "2")) AND lat IS NOT NULL ORDER BY \(SQLiteStore.readingTripTime), id"
        )
        #expect(readings.contains("MULTI-INDEX OR"), "\(readings)")
        #expect(readings.contains("readings_trip_time") && readings.contains("readings_time "), "\(readings)")
        // `trips` runs this once per trip: a scan of every reading there made a year's trips take 10 s.
        let checks = try StoreTestData.sqlite3(path, "EXPLAIN QUERY PLAN " + SQLiteStore.aheadCheckReadingsSQL)
        #expect(!checks.contains("SCAN readings"), "\(checks)")
        #expect(checks.contains("readings_trip_time") && checks.contains("readings_time "), "\(checks)")
        // `line` asks for the newest forecast every few seconds: by row id, not a sort of them all.
        let newest = try StoreTestData.sqlite3(
            path,
            "EXPLAIN QUERY PLAN SELECT id FROM ahead_forecasts WHERE +made_at >= 0 AND +made_at < 1 ORDER BY id DESC")
        #expect(!newest.contains("TEMP B-TREE"), "\(newest)")
    }

    /// A reading at the last known position carries that old fix's time, while its weather is of
    /// the moment. Taken two days after a trip (gpsd gave no fix), it was counted in that trip, its
    /// temperature in the trip's range and its place as the trip's end, and the report drew it at the
    /// old fix time. It goes by its own time now; one taken in a dropout of a replayed log is dated by
    /// the fixes received around it, as a reading without a fix time is. A position given by hand
    /// (`now --at`) is in no trip: it is not where the receiver was.
    @Test func aReadingAtTheLastKnownPositionGoesByItsOwnTimeAndOneByHandIsInNoTrip() async throws {
        let path = StoreTestData.temporaryStorePath("trips-last-known")
        let store = try SQLiteStore(path: path)
        // A replayed log: received from `wall` on, fixes dated from `logged` on, 10 minutes of them.
        try await store.appendTrackPoints(
            (0..<11).map { Self.fix(received: Double($0) * 60, fix: Double($0) * 60, lat: 50 + Double($0) * 0.01) })
        func reading(received: Double, source: PositionSource, place: String, temperatureC: Double) -> Reading {
            var r = StoreTestData.reading(at: 0, lat: 50.1, lon: 8, placeName: place)
            r.time = Self.wall.addingTimeInterval(received)
            r.position?.source = source
            r.position?.fixTime = source == .manual ? nil : Self.logged.addingTimeInterval(600)
            r.weather?.current.temperatureC = temperatureC
            return r
        }
        // In a dropout 2 minutes after the last fix: the log's trip, at its end.
        try await store.insertReading(reading(received: 720, source: .lastKnown, place: "Dropout", temperatureC: 4))
        // Two days later, parked, no fix: no trip of the log's.
        try await store.insertReading(
            reading(received: 172_800, source: .lastKnown, place: "Days later", temperatureC: -5))
        // `now --at` somewhere else while the log was being received: not the trip's.
        try await store.insertReading(reading(received: 300, source: .manual, place: "By hand", temperatureC: 30))
        let trips = try await store.trips(gapMinutes: 30)
        #expect(trips.count == 1)
        let summaries = try await store.tripSummaries(gapMinutes: 30)
        #expect(summaries.map(\.readings) == [1])
        #expect(summaries.first?.endPlace == "Dropout")
        #expect(summaries.first?.minC == 4 && summaries.first?.maxC == 4)
        let span = try #require(trips.first?.span)
        let contents = try await store.tripContents(from: span.start, to: span.end, gapMinutes: 30)
        #expect(contents.readings.map { $0.reading.place?.name } == ["Dropout"])
        // Drawn at the trip's last fix, on the log's clock: neither the wall clock nor days later.
        #expect(contents.readings.map(\.tripTime) == [Self.logged.addingTimeInterval(600)])
        // The days-later one is found at its own time, the manual one at none.
        let later = try await store.tripReadings(
            from: Self.wall.addingTimeInterval(172_000), to: Self.wall.addingTimeInterval(173_000))
        #expect(later.map { $0.place?.name } == ["Days later"])
        #expect(
            try await store.tripReadings(from: Self.wall, to: Self.wall.addingTimeInterval(1000)).isEmpty)
    }
}
