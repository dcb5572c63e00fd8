import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 23 item 3 and its fuzz test, through the binary: the store is data from outside too. Absurd
/// numbers in the track (times of 1e300, ±inf, 9.3e18) and random values of every column's type in
/// every table (NaN and inf, huge and negative numbers, empty and 100 KB strings, blobs, wrong types),
/// written with sqlite3, then every reading command on it: no crash, no hang, exit 0 or 1, and an exit
/// 1 says one sentence.
@Suite(.serialized, .scratch) struct StoreFuzzTests {
    static let readingCommands: [[String]] = [
        ["trips"], ["trips", "--json"], ["export", "--format", "gpx"], ["export", "--format", "csv"],
        ["export", "--format", "geojson"], ["report", "-o", "-"], ["report", "-o", "REPORT.html"],
        ["status", "--gpsd", "127.0.0.1:9"], ["status", "--json", "--gpsd", "127.0.0.1:9"],
    ]

    /// Runs `command` on `db` and checks the outcome is one a user can act on.
    static func expectSane(_ command: [String], db: String, home: URL, _ label: String) throws -> CLIResult {
        // A file the command writes goes into the test's own folder, never the working directory.
        let args = command.map { $0 == "REPORT.html" ? home.appendingPathComponent("report.html").path : $0 }
        let r = try CLIRunner.run(args + ["--db", db], env: Acceptance.env(nil), home: home, timeout: 60)
        #expect(!r.timedOut, "\(label) \(command) hung")
        #expect(r.status == 0 || r.status == 1, "\(label) \(command): exit \(r.status) \(r.stderr.prefix(300))")
        if r.status == 1 {
            let lines = r.stderr.split(whereSeparator: \.isNewline).filter { !$0.isEmpty }
            #expect(lines.count == 1, "\(label) \(command): \(r.stderr.prefix(500))")
            #expect(lines.first.map { $0.contains(": ") } ?? false, "\(label) \(command): \(r.stderr.prefix(300))")
        }
        return r
    }

    /// A store with one good trip of 3 points.
    static func storeWithATrip(_ label: String) throws -> (URL, String) {
        let dir = TestPaths.temporaryDirectory(label)
        let db = dir.appendingPathComponent("fixcast.sqlite").path
        _ = try SQLiteStore(path: db)
        _ = try StoreTestData.sqlite3(
            db,
            "INSERT INTO track_points (time, lat, lon, mode, fix_time) VALUES (1800000000, 52.5, 13.4, '3d', 1800000000), (1800000010, 52.501, 13.4, '3d', 1800000010), (1800000020, 52.502, 13.4, '3d', 1800000020);"
        )
        return (dir, db)
    }

    @Test(
        "a track point's fix_time of 1e300, -1e300, inf or 9.3e18 does not crash trips; it is left out",
        arguments: ["1e300", "-1e300", "9e999", "9.3e18"])
    func absurdFixTime(value: String) throws {
        let (dir, db) = try Self.storeWithATrip("fuzz-fixtime")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try StoreTestData.sqlite3(
            db,
            "INSERT INTO track_points (time, lat, lon, mode, fix_time) VALUES (1800000030, 52.503, 13.4, '3d', \(value));"
        )
        for command in [["trips"], ["trips", "--json"]] {
            let r = try Self.expectSane(command, db: db, home: dir, value)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        let json = try CLIRunner.run(["trips", "--json", "--db", db], env: Acceptance.env(nil), home: dir)
        let trips = try Acceptance.array(json)
        #expect(trips.count == 1)
        #expect(trips.first?["start"] as? String == "2027-01-15T08:00:00Z")
    }

    @Test(
        "a track point's time of 1e308, -1e308 or 1e19 does not crash export gpx or geojson; it is left out",
        arguments: ["1e308", "-1e308", "1e19"])
    func absurdTrackTime(value: String) throws {
        let (dir, db) = try Self.storeWithATrip("fuzz-time")
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try StoreTestData.sqlite3(
            db, "INSERT INTO track_points (time, lat, lon, mode) VALUES (\(value), 52.503, 13.4, '3d');")
        for format in ["gpx", "geojson"] {
            let r = try Self.expectSane(["export", "--format", format], db: db, home: dir, value)
            #expect(r.status == 0, "\(format): \(r.stderr)")
            #expect(!r.stdout.contains("52.503"), "\(format) exported the point with no believable time")
            #expect(r.stdout.contains("52.502"))
        }
    }

    /// Values of every type a column can be handed: SQLite keeps what it is given, whatever the declared type.
    static let hostileValues: [String] = [
        "NULL", "0", "-1", "1", "1e300", "-1e300", "9e999", "-9e999", "9.3e18", "1e19", "-1e19", "1e308",
        "9223372036854775807", "-9223372036854775808", "0.5", "-0.0", "''", "' '", "'not a number'",
        "'2026-13-45T99:99:99Z'", "'{}'", "'[]'", "'{\"time\": 1e308, \"trigger\": \"once\"}'", "'null'",
        "X'00FF10'", "X''", "'\u{1B}[31mred'", "printf('%.100000c', 'x')", "'-inf'", "'NaN'", "'3d'", "'once'",
        "52.5", "13.4", "1800000000", "1800000000.5",
    ]

    @Test(
        "random values of every column's type in every table: every reading command exits 0 or 1 with one sentence",
        arguments: [1, 2, 3, 4, 5])
    func fuzzedStore(seed: UInt64) throws {
        let (dir, db) = try Self.storeWithATrip("fuzz-store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tables = try StoreTestData.sqlite3(
            db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        .split(separator: "\n").map(String.init)
        #expect(tables.contains("track_points") && tables.contains("readings"))
        var random = SeededBytes(seed: seed)
        var sql = "BEGIN;"
        for table in tables {
            let columns = try StoreTestData.sqlite3(
                db, "SELECT name FROM pragma_table_info('\(table)') WHERE pk = 0 ORDER BY cid"
            )
            .split(separator: "\n").map(String.init)
            // The integer primary key is left to SQLite: a wrong type there is refused on insert, never stored.
            for _ in 0..<40 {
                let values = columns.map { _ in
                    Self.hostileValues[Int(random.nextWord() % UInt64(Self.hostileValues.count))]
                }
                sql +=
                    "INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")));"
            }
        }
        sql += "COMMIT;"
        let script = dir.appendingPathComponent("fuzz.sql")
        try sql.write(to: script, atomically: true, encoding: .utf8)
        _ = try StoreTestData.sqlite3(db, ".read \(script.path)")
        let rows =
            Int(
                try StoreTestData.sqlite3(
                    db, "SELECT (SELECT count(*) FROM track_points) + (SELECT count(*) FROM readings)")) ?? 0
        #expect(rows > 10, "the fuzz rows were not written")
        for command in Self.readingCommands {
            _ = try Self.expectSane(command, db: db, home: dir, "seed \(seed)")
        }
        // The commands that read the caches, the last known position and the last reading: offline,
        // so what they show comes from the fuzzed rows.
        for command in Self.cacheReadingCommands {
            let r = try CLIRunner.run(command + ["--db", db], env: Acceptance.env(nil), home: dir, timeout: 60)
            #expect(!r.timedOut, "seed \(seed) \(command) hung")
            #expect(r.status == 0 || r.status == 1, "seed \(seed) \(command): exit \(r.status) \(r.stderr.prefix(300))")
            #expect(!r.stderr.contains("runtime failure"), "seed \(seed) \(command)")
        }
    }

    static let cacheReadingCommands: [[String]] = [
        ["now", "--at", "52.5,13.4", "--offline"], ["now", "--at", "52.5,13.4", "--offline", "--json"],
        ["forecast", "--at", "52.5,13.4", "--offline"], ["line"], ["line", "--waybar"], ["line", "--i3blocks"],
        ["alerts", "--at", "52.5,13.4", "--offline"],
    ]
}
