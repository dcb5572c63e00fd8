import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `fixcast ahead` stores the forecast it makes (CONTRACT.md "Weather ahead": "Every ahead forecast is
/// stored"), through the binary: the loopback server answers with rain at every hour, the store holds
/// the last minutes of track (the speed) and a reading without a forecast, and `line`'s `%r` then
/// counts from the forecast `ahead` made.
@Suite(.serialized, .scratch) struct AheadCommandStoreAcceptanceTests {
    /// The recorded multi-location answer with 1.5 mm/h in every hour, written into `dir`.
    func rainyAnswer(_ dir: URL) throws -> String {
        let recorded = TestPaths.fixture("api/open-meteo-ahead-multi-location.json")
        var locations = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: recorded))) as? [[String: Any]]
        )
        for i in locations.indices {
            var hourly = try #require(locations[i]["hourly"] as? [String: Any])
            let hours = (hourly["precipitation"] as? [Any])?.count ?? 0
            hourly["precipitation"] = Array(repeating: 1.5, count: hours)
            locations[i]["hourly"] = hourly
        }
        let path = dir.appendingPathComponent("rainy-ahead.json")
        try JSONSerialization.data(withJSONObject: locations).write(to: path)
        return path.path
    }

    /// What every test here starts from: a home, the rainy server, a store with the track to time by
    /// and its route, and (`reading`) a reading without a forecast taken a minute ago.
    struct Rig {
        let home: URL
        let server: FixtureServer
        let db: String
        let route: String
        var env: [String: String] { ["FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": server.baseURL] }
    }

    func rig(reading: Bool) async throws -> Rig {
        let home = TestPaths.temporaryDirectory("ahead-store")
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.multiLocation(try rainyAnswer(home), rebaseHours: true)]
        ])
        let (db, route) = try await AheadCommandAcceptanceTests().prepare(home)
        if reading {
            let store = try SQLiteStore(path: db)
            try await store.insertReading(StoreTestData.reading(at: Date().timeIntervalSince(StoreTestData.t0) - 60))
        }
        return Rig(home: home, server: server, db: db, route: route)
    }

    @Test func theForecastIsStoredOnceAndLineCountsItsRain() async throws {
        let rig = try await rig(reading: true)
        defer { rig.server.stop() }
        let (home, server, db, route) = (rig.home, rig.server, rig.db, rig.route)
        let env = rig.env
        let before = try CLIRunner.run(["line", "--db", db, "--format", "%l: %r"], home: home)
        #expect(before.stdout == "Berlin: \n" || before.stdout == "Berlin:\n", "\(before.stdout)")

        let result = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route, "--json"], env: env, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let json = try JSONValue.parse(result.stdout)
        #expect(json["rain"]?["in_min"]?.intValue == 15)
        let made = try #require(json["made_at"]?.stringValue)
        let samples = json["samples"]?.arrayValue?.count ?? 0
        #expect(
            try StoreTestData.sqlite3(
                db, "SELECT count(*), strftime('%Y-%m-%dT%H:%M:%SZ', made_at, 'unixepoch') FROM ahead_forecasts")
                == "1|\(made)")
        #expect(try StoreTestData.sqlite3(db, "SELECT count(*) FROM ahead_samples") == "\(samples)")
        // No reading carries it: it is `ahead`'s own.
        #expect(try StoreTestData.sqlite3(db, "SELECT count(ahead_id) FROM readings") == "0")

        let line = try CLIRunner.run(["line", "--db", db, "--format", "%l: %r"], home: home)
        #expect(line.status == 0, "\(line.stderr)")
        // Rain 15 min after the forecast was made (a minute less if the clock turned meanwhile).
        #expect(["Berlin: rain in 15 min\n", "Berlin: rain in 14 min\n"].contains(line.stdout), "\(line.stdout)")

        // --offline asks nothing and stores nothing.
        let offline = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route, "--offline"], env: env, home: home)
        #expect(offline.status == 1)
        // Exit 1 says why in one sentence naming the component (it printed nothing).
        #expect(offline.stderr.hasPrefix("ahead: --offline"), "\(offline.stderr)")
        #expect(offline.stderr.split(separator: "\n").count == 1)
        #expect(try StoreTestData.sqlite3(db, "SELECT count(*) FROM ahead_forecasts") == "1")
        #expect(server.requests().count == 1)
    }

    /// `line --watch` prints again when `ahead` stores a newer forecast, though no reading was stored.
    @Test func lineWatchPrintsAgainForANewerForecast() async throws {
        let rig = try await rig(reading: true)
        defer { rig.server.stop() }
        let (home, db, route) = (rig.home, rig.db, rig.route)
        let watch = try RunningFixcast(["line", "--watch", "--db", db, "--format", "%l: %r"], env: [:], home: home)
        defer {
            watch.signal(SIGTERM)
            _ = watch.waitForExit(seconds: 5)
        }
        #expect(watch.waitForLines(1, seconds: 20), "stderr: \(watch.stderr)")
        let result = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route],
            env: rig.env, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(watch.waitForLines(2, seconds: 10), "watch: \(watch.stdoutLines)")
        #expect(watch.stdoutLines.last?.hasPrefix("Berlin: rain in 1") == true, "\(watch.stdoutLines)")
    }

    /// A store that refuses the write: the forecast is still printed, stderr says so in one
    /// `storage:` sentence, and the exit is 1 (CONTRACT.md "Exit codes": it could not be stored).
    @Test func aForecastThatCannotBeStoredIsPrintedAndTheExitIsOne() async throws {
        let rig = try await rig(reading: false)
        defer { rig.server.stop() }
        let (home, db, route) = (rig.home, rig.db, rig.route)
        _ = try StoreTestData.sqlite3(
            db, "CREATE TRIGGER refuse BEFORE INSERT ON ahead_forecasts BEGIN SELECT RAISE(ABORT, 'refused'); END;")
        let result = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route],
            env: rig.env, home: home)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("Rain in about 15 min"), "\(result.stdout)")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1 && errors.first?.hasPrefix("storage: ") == true, "\(result.stderr)")
        #expect(try StoreTestData.sqlite3(db, "SELECT count(*) FROM ahead_forecasts") == "0")
    }
}
