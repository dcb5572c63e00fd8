import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Ahead forecasts in a real SQLite file: stored with the reading that carries them, read back with
/// it, once per forecast, upgraded into an older store, and checked when the file holds nonsense.
@Suite(.scratch)
struct AheadStoreTests {
    @Test func aReadingCarryingAForecastReadsBackWithItEverywhere() async throws {
        let path = StoreTestData.temporaryStorePath("ahead-roundtrip")
        let store = try SQLiteStore(path: path)
        let reading = StoreTestData.reading(at: 0, ahead: StoreTestData.aheadForecast())
        try await store.insertReading(reading)

        #expect(try await store.lastReading() == reading)
        var exported: [Reading] = []
        try await store.forEachReading(since: nil, until: nil) { exported.append($0) }
        #expect(exported == [reading])
        let trip = try await store.tripReadings(
            from: StoreTestData.t0.addingTimeInterval(-60), to: StoreTestData.t0.addingTimeInterval(60))
        #expect(trip == [reading])
        #expect(try await store.lastAheadForecast() == reading.ahead)
        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_samples") == "4")
        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_alerts") == "1")
    }

    @Test func storeReadingWithAnIDKeepsTheForecastInTheSameTransaction() async throws {
        let path = StoreTestData.temporaryStorePath("ahead-outbox")
        let store = try SQLiteStore(path: path)
        let stored = try await store.storeReading(
            StoreTestData.reading(at: 0, ahead: StoreTestData.aheadForecast()),
            plan: ReadingStorePlan(deviceID: "van", outboxMax: 10))
        #expect(stored.id == "van:1")
        #expect(try await store.lastReading() == stored)
    }

    /// A sample or alert with a non-finite distance (bound as NULL into a NOT NULL column) is left out;
    /// the reading and the rest of its forecast are stored.
    @Test func aNonFiniteSampleDoesNotCostTheReading() async throws {
        let path = StoreTestData.temporaryStorePath("ahead-nan")
        let store = try SQLiteStore(path: path)
        var forecast = StoreTestData.aheadForecast()
        forecast.samples[1].distanceKm = .nan
        forecast.samples[2].distanceKm = .infinity
        forecast.alerts[0].atKm = .nan
        try await store.insertReading(StoreTestData.reading(at: 0, ahead: forecast))
        #expect(try await store.readingCount() == 1)
        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_samples") == "2")
        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_alerts") == "0")
        #expect(try await store.lastReading()?.ahead?.samples.count == 2)
    }

    @Test func readingsCarryingOneForecastShareItsRowEachWithItsOwnStaleMark() async throws {
        let path = StoreTestData.temporaryStorePath("ahead-shared")
        let store = try SQLiteStore(path: path)
        let first = StoreTestData.aheadForecast(at: 0)
        var kept = first
        kept.stale = true
        let second = StoreTestData.aheadForecast(at: 900, lon: 13.9)
        try await store.insertReading(StoreTestData.reading(at: 0, ahead: first))
        try await store.insertReading(StoreTestData.reading(at: 300, ahead: kept))
        try await store.insertReading(StoreTestData.reading(at: 600, ahead: nil))
        try await store.insertReading(StoreTestData.reading(at: 900, ahead: second))

        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_forecasts") == "2")
        var aheads: [AheadForecast?] = []
        try await store.forEachReading(since: nil, until: nil) { aheads.append($0.ahead) }
        #expect(aheads == [first, kept, nil, second])
        #expect(try await store.lastAheadForecast() == second)
    }

    /// A forecast made at a clock's moment, a fraction of a second past the second: `Date` counts from
    /// 2001 and the store from 1970, one bit coarser at today's times, so such a time reads back a bit
    /// off (0.1 s past is one of those). The readings carrying it still share one row, and the checks
    /// against the readings met later count each sample once.
    @Test func aForecastMadeBetweenWholeSecondsIsStoredOnceForEveryReadingCarryingIt() async throws {
        let path = StoreTestData.temporaryStorePath("ahead-fraction")
        let store = try SQLiteStore(path: path)
        let forecast = StoreTestData.aheadForecast(at: 0.1)
        #expect(Date(timeIntervalSince1970: forecast.madeAt.timeIntervalSince1970) != forecast.madeAt)
        var kept = forecast
        kept.stale = true
        try await store.insertReading(StoreTestData.reading(at: 0, ahead: forecast))
        try await store.insertReading(StoreTestData.reading(at: 300, ahead: kept))
        for s in forecast.samples.prefix(2) {
            try await store.insertReading(
                StoreTestData.reading(
                    at: s.eta.timeIntervalSince(StoreTestData.t0), lat: s.coordinate.lat, lon: s.coordinate.lon))
        }

        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_forecasts") == "1")
        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_samples") == "4")
        #expect(try StoreTestData.sqlite3(path, "SELECT count(*) FROM ahead_alerts") == "1")
        let links = try StoreTestData.sqlite3(path, "SELECT count(DISTINCT ahead_id), count(ahead_id) FROM readings")
        #expect(links == "1|2")
        var aheads: [AheadForecast] = []
        try await store.forEachReading(since: nil, until: nil) { if let a = $0.ahead { aheads.append(a) } }
        #expect(aheads.map(\.stale) == [false, true])
        #expect(aheads.map(\.samples.count) == [4, 4])
        #expect(aheads.allSatisfy { abs($0.madeAt.timeIntervalSince(forecast.madeAt)) < 1e-6 })
        let checks = try await store.tripAheadChecks(
            from: StoreTestData.t0.addingTimeInterval(-60), to: StoreTestData.t0.addingTimeInterval(7200), rainMmH: 0.5)
        #expect(checks.pairs == 2)
    }

    @Test func aStoreFromBeforeAheadIsUpgradedAndItsReadingsHaveNone() async throws {
        let dir = TestPaths.temporaryDirectory("ahead-upgrade")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("old.sqlite").path
        let before = try #require(StoreSchema.migrations.firstIndex { $0.contains("CREATE TABLE ahead_") })
        let old = StoreSchema.migrations.prefix(before).joined(separator: "\n")
        _ = try StoreTestData.sqlite3(path, old + "\nPRAGMA user_version = \(before);")
        _ = try StoreTestData.sqlite3(
            path,
            "INSERT INTO readings (time, trigger, json) VALUES (1800000000, 'moved', '{\"time\":\"2027-01-15T08:00:00Z\",\"trigger\":\"moved\",\"position\":null,\"errors\":[]}')"
        )
        let store = try SQLiteStore(path: path)
        #expect(try await store.schemaVersion() == StoreSchema.currentVersion)
        let r = try #require(try await store.lastReading())
        #expect(r.ahead == nil)
        try await store.insertReading(StoreTestData.reading(at: 10, ahead: StoreTestData.aheadForecast()))
        #expect(try await store.lastReading()?.ahead == StoreTestData.aheadForecast())
        #expect(try await store.integrityCheck())
    }

    /// Nonsense written into the file by hand: each value is unknown, each unbelievable sample is left
    /// out, and a forecast without a believable time or origin is no forecast.
    @Test func hostileValuesFromTheFileAreUnknownNotFacts() async throws {
        let path = StoreTestData.temporaryStorePath("ahead-hostile")
        let store = try SQLiteStore(path: path)
        try await store.insertReading(StoreTestData.reading(at: 0, ahead: StoreTestData.aheadForecast()))
        _ = try StoreTestData.sqlite3(
            path,
            """
            UPDATE ahead_samples SET temperature_c = 1e300, weather_code = 12345, precipitation_probability_pct = -3,
              wind_dir_deg = 'north', headwind_mps = 900 WHERE seq = 0;
            UPDATE ahead_samples SET minutes = 1e300 WHERE seq = 1;
            UPDATE ahead_samples SET eta = 9e99 WHERE seq = 2;
            UPDATE ahead_forecasts SET rain_in_min = -5, speed_mps = 1e308, min_temperature_c = 'cold',
              route_remaining_km = -1;
            UPDATE ahead_alerts SET in_min = 1e19;
            """)
        let ahead = try #require(try await store.lastReading()?.ahead)
        #expect(ahead.samples.map(\.minutes) == [15, 60])
        let s = ahead.samples[0]
        #expect(s.temperatureC == nil && s.weatherCode == nil && s.precipitationProbabilityPct == nil)
        #expect(s.windDirDeg == nil && s.headwindMps == nil)
        #expect(s.crosswindMps == -3.6 && s.place == "Place 0")
        #expect(ahead.rain == nil && ahead.speedMps == nil && ahead.worst.minTemperatureC == nil)
        #expect(ahead.route == AheadForecast.Route(name: "Berlin - Hamburg", remainingKm: 0))
        #expect(ahead.alerts.isEmpty)

        _ = try StoreTestData.sqlite3(path, "UPDATE ahead_forecasts SET made_at = 1e300")
        #expect(try await store.lastReading()?.ahead == nil)
        #expect(try await store.lastAheadForecast() == nil)
        _ = try StoreTestData.sqlite3(path, "UPDATE ahead_forecasts SET made_at = 1800000000, from_lat = 200")
        #expect(try await store.lastReading()?.ahead == nil)
        _ = try StoreTestData.sqlite3(path, "UPDATE ahead_forecasts SET from_lat = 52, basis = 'teleport'")
        #expect(try await store.lastReading()?.ahead == nil)
        _ = try StoreTestData.sqlite3(path, "UPDATE ahead_forecasts SET basis = 'course'")
        #expect(try await store.lastReading()?.ahead?.basis == .course)
    }
}
