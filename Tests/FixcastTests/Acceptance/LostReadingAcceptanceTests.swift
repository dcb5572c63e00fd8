import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Through the binary: a reading that cannot be stored is printed and exit 1 (CONTRACT.md), a hostile
/// weather body keeps the reading with the bad values unknown, and `status` shows rejected fixes.
@Suite("Lost readings and hostile weather, through the binary", .serialized, .scratch)
struct LostReadingAcceptanceTests {
    static let here = "55.68,12.57"

    /// `now --json --at here --db db`: exit 1, the reading still on stdout, one storage sentence on stderr.
    func expectLostButPrinted(db: String, home: AcceptanceHome, server: FixtureServer, mention: String) throws {
        let r = try home.run(
            ["now", "--json", "--at", Self.here, "--db", db], env: Acceptance.env(server), timeout: 30)
        #expect(!r.timedOut)
        #expect(r.status == 1, "exit for --db \(db): stderr \(r.stderr)")
        let reading = try Acceptance.object(r)
        #expect(reading.dict("position")?.double("lat") == 55.68)
        #expect(reading.dict("weather") != nil, "the weather is still shown")
        let errors = reading["errors"] as? [[String: Any]] ?? []
        let storage = errors.first { $0.string("component") == "storage" }
        #expect(storage?.string("message")?.contains(mention) == true, "errors: \(errors)")
        let lines = Acceptance.stderrLines(r)
        #expect(lines.count == 1 && lines.first?.hasPrefix("storage: ") == true, "stderr: \(r.stderr)")
    }

    @Test("--db pointing at a folder, a device, a non-SQLite file: the reading is printed, exit 1")
    func unusablePaths() throws {
        let home = AcceptanceHome("lost-paths")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        try expectLostButPrinted(db: home.dir.path, home: home, server: server, mention: "a folder")
        try expectLostButPrinted(db: "/dev/full", home: home, server: server, mention: "a device")
        try expectLostButPrinted(db: "/dev/null", home: home, server: server, mention: "a device")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"), "nothing written beside a device")
        let text = home.path("notes.txt")
        try String(repeating: "not a database\n", count: 400).write(toFile: text, atomically: true, encoding: .utf8)
        try expectLostButPrinted(db: text, home: home, server: server, mention: text)
        #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("not a database"), "the file is left alone")
    }

    @Test("a corrupt store, a foreign SQLite file and a newer schema: the reading is printed, exit 1")
    func unusableStores() throws {
        let home = AcceptanceHome("lost-stores")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }

        // A good store first (exit 0), then its first page overwritten.
        let corrupt = home.path("corrupt.sqlite")
        let first = try home.run(["now", "--json", "--at", Self.here, "--db", corrupt], env: Acceptance.env(server))
        #expect(first.status == 0, "stderr: \(first.stderr)")
        _ = try? Acceptance.runProgram("/usr/bin/sqlite3", [corrupt, "PRAGMA wal_checkpoint(TRUNCATE);"])
        let handle = try #require(FileHandle(forUpdatingAtPath: corrupt))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 3000))
        try handle.close()
        try expectLostButPrinted(db: corrupt, home: home, server: server, mention: corrupt)

        // Another program's database: left as it was, no fixcast table added.
        let foreign = home.path("foreign.sqlite")
        try Acceptance.runProgram(
            "/usr/bin/sqlite3", [foreign, "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine');"])
        try expectLostButPrinted(db: foreign, home: home, server: server, mention: "another program")
        let (_, tables, _) = try Acceptance.runProgram("/usr/bin/sqlite3", [foreign, ".tables"])
        #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "notes")
        // Another program's id, even on an empty file.
        let claimed = home.path("claimed.sqlite")
        try Acceptance.runProgram("/usr/bin/sqlite3", [claimed, "PRAGMA application_id = 1234;"])
        try expectLostButPrinted(db: claimed, home: home, server: server, mention: "another program")

        let newer = home.path("newer.sqlite")
        try Acceptance.runProgram(
            "/usr/bin/sqlite3", [newer, "PRAGMA application_id = \(0x4669_7843); PRAGMA user_version = 999;"])
        try expectLostButPrinted(db: newer, home: home, server: server, mention: "newer fixcast")
    }

    @Test("a store made before stores were claimed is still fixcast's: it is claimed, not refused")
    func olderStoreIsClaimed() async throws {
        let home = AcceptanceHome("lost-older")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let r = try home.run(["now", "--json", "--at", Self.here], env: Acceptance.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        try Acceptance.runProgram("/usr/bin/sqlite3", [home.db, "PRAGMA application_id = 0;"])
        let again = try home.run(["now", "--json", "--at", Self.here], env: Acceptance.env(server))
        #expect(again.status == 0, "stderr: \(again.stderr)")
        let (_, id, _) = try Acceptance.runProgram("/usr/bin/sqlite3", [home.db, "PRAGMA application_id;"])
        #expect(id.trimmingCharacters(in: .whitespacesAndNewlines) == String(0x4669_7843))
        #expect(try await SQLiteStore(path: home.db).readingCount() == 2)
    }

    @Test("--db '' is a usage error (exit 2) naming --db, not the default store")
    func emptyDBPath() throws {
        let home = AcceptanceHome("lost-empty")
        defer { home.remove() }
        for args in [["now", "--at", Self.here, "--db", ""], ["now", "--at", Self.here, "--db="]] {
            let r = try home.run(args, env: Acceptance.env(nil), timeout: 30)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("--db"))
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("a hostile Open-Meteo body: exit 0, the bad values null, errors name each field, no 1e+308")
    func hostileWeatherThroughTheBinary() throws {
        let home = AcceptanceHome("hostile-weather")
        defer { home.remove() }
        let hostile = TestPaths.fixture("hostile/open-meteo-forecast-hostile.json")
        let server = try Acceptance.recordedServer(forecast: [.file(hostile)])
        defer { server.stop() }
        let r = try home.run(["now", "--json", "--at", Self.here], env: Acceptance.env(server), timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stdout.contains("e+"), "no exponent in the JSON: \(r.stdout)")
        let reading = try Acceptance.object(r)
        let current = try #require(reading.dict("weather")?.dict("current"))
        for key in [
            "temperature_c", "humidity_pct", "feels_like_c", "precipitation_mm", "weather_code", "wind_speed_mps",
            "wind_gust_mps", "pressure_hpa", "cloud_cover_pct",
        ] {
            #expect(current.isNull(key), "\(key) is \(current[key] ?? "absent")")
        }
        #expect(current.double("wind_dir_deg") == 0)
        #expect(current.double("dew_point_c") == 12.5)
        let messages = (reading["errors"] as? [[String: Any]] ?? []).filter { $0.string("component") == "weather" }
            .compactMap { $0.string("message") }
        for field in [
            "temperature_c", "humidity_pct", "feels_like_c", "weather_code", "wind_speed_mps", "pressure_hpa",
            "cloud_cover_pct", "daily[0].sunrise",
        ] {
            #expect(messages.contains { $0.contains(field) }, "no error names \(field): \(messages)")
        }
        // forecast --json: the bad day's value is null, and stderr names it (the daily array has no errors list).
        // (A fresh store: weather served from the cache has its bad values unknown but no longer says why.)
        let other = AcceptanceHome("hostile-forecast")
        defer { other.remove() }
        let forecast = try other.run(
            ["forecast", "--json", "--at", Self.here], env: Acceptance.env(server), timeout: 30)
        #expect(forecast.status == 0, "stderr: \(forecast.stderr)")
        let days = try Acceptance.array(forecast)
        #expect(days.count == 7)
        #expect(days.count > 1 && days[1].isNull("max_c") && !days[1].isNull("min_c"))
        #expect(forecast.stderr.contains("daily[1].max_c"), "\(forecast.stderr)")
        #expect(!forecast.stdout.contains("e+"))
        // The stored reading says the same (the next `status` shows it).
        let status = try home.run(
            ["status", "--json"], env: Acceptance.env(nil, ["FIXCAST_GPS_PORT": String(freeLoopbackPort())]))
        #expect(!status.stdout.contains("e+"))
        let last = try #require(try Acceptance.object(status).dict("last_reading")?.dict("weather")?.dict("current"))
        #expect(last.isNull("humidity_pct"))
    }

    @Test("status shows the stored counts of rejected fixes, in text and under gpsd in --json")
    func statusShowsRejectedFixes() async throws {
        let home = AcceptanceHome("rejected-status")
        defer { home.remove() }
        let store = try SQLiteStore(path: home.db)
        try await store.addRejectedFixes(RejectedFixCounts(nullIsland: 1, jump: 2, time: 3))
        try await store.addRejectedFixes(RejectedFixCounts(jump: 1))
        let env = Acceptance.env(nil, ["FIXCAST_GPS_PORT": String(freeLoopbackPort())])
        let json = try home.run(["status", "--json"], env: env)
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let rejected = try #require(try Acceptance.object(json).dict("gpsd")?.dict("rejected_fixes"))
        #expect(rejected.int("jump") == 3)
        #expect(rejected.int("time") == 3)
        #expect(rejected.int("null_island") == 1)
        let text = try home.run(["status"], env: env)
        #expect(
            text.stdout.contains("7 implausible fixes not used (3 jumps, 3 with a wrong time, 1 at 0,0)"),
            "\(text.stdout)")
    }
}
