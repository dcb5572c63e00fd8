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

        // Asked again at once: the stored forecast answers, as of when it was made; nothing is asked
        // and nothing stored again. --offline is answered the same way.
        for extra in [[], ["--offline"]] {
            let again = try CLIRunner.run(
                ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route] + extra, env: env, home: home)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.isEmpty, "\(again.stderr)")
            #expect(again.stdout.hasPrefix("Ahead as of "), "\(again.stdout)")
            #expect(again.stdout.contains("Rain in about 15 min"), "\(again.stdout)")
        }
        let againJSON = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route, "--json"], env: env, home: home)
        #expect(try JSONValue.parse(againJSON.stdout)["made_at"]?.stringValue == made)
        #expect(try StoreTestData.sqlite3(db, "SELECT count(*) FROM ahead_forecasts") == "1")
        #expect(server.requests().count == 1)
    }

    /// `--offline` with no stored forecast that answers asks nothing, stores nothing, and exits 1
    /// saying why in one sentence naming the component.
    @Test func offlineWithoutAStoredForecastExitsOne() async throws {
        let rig = try await rig(reading: false)
        defer { rig.server.stop() }
        let offline = try CLIRunner.run(
            ["ahead", "--db", rig.db, "--at", "52.52,13.41", "--route", rig.route, "--offline"], env: rig.env,
            home: rig.home)
        #expect(offline.status == 1)
        #expect(offline.stdout.isEmpty)
        #expect(offline.stderr.hasPrefix("ahead: --offline"), "\(offline.stderr)")
        #expect(offline.stderr.split(separator: "\n").count == 1)
        #expect(try StoreTestData.sqlite3(rig.db, "SELECT count(*) FROM ahead_forecasts") == "0")
        #expect(rig.server.requests().isEmpty)
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
