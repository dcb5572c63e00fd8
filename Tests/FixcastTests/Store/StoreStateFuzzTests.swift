import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The store's `state` table is data from outside too: a damaged store (or another program) can hold
/// any text under the keys fixcast reads back — counts, back-offs, validators, alert checks, the MQTT
/// link's pid. `StoreFuzzTests` fills the table with random keys; this fills fixcast's own keys with
/// what it wrote itself, every number in it replaced by an absurd one (or the whole text by junk), then
/// runs the commands that read them through the binary (`run` with MQTT on too): none crashes or hangs,
/// each exits 0 or 1.
/// (A stored count of `Int.max` under `gps.rejected_fixes`, and a pid past `pid_t` under `mqtt.link`,
/// each crashed `status`.)
@Suite(.scratch) struct StoreStateFuzzTests {
    static let phoenix = "33.4484,-112.074"
    static let bergen = "60.39,5.32"
    static let annecy = "45.8992,6.1294"
    static let toronto = "43.6532,-79.3832"

    /// A store in which fixcast has written the state it keeps: weather and alert checks in four
    /// countries' sources (MET Norway's validators too), and the counters no offline run writes.
    static func seededStore(_ home: AcceptanceHome, server: FixtureServer) throws {
        for position in [phoenix, bergen, annecy, toronto] {
            let r = try home.run(["now", "--at", position, "--json"], env: Self.env(server, at: position))
            #expect(r.status == 0, "seeding at \(position): \(r.stderr)")
        }
        // The MQTT announcer's record, as `run` with MQTT on keeps it: an alert that applies, as it was read.
        let alerts = try Acceptance.object(
            try home.run(["alerts", "--at", phoenix, "--json"], env: Self.env(server, at: phoenix)))
        let alert = try #require((alerts["active"] as? [Any])?.first, "no alert in \(alerts)")
        let alertText = String(decoding: try JSONSerialization.data(withJSONObject: alert), as: UTF8.self)
        let applying = #"[{"source":"nws","alert":\#(alertText)}]"#
        #expect(AlertAnnouncer(json: try JSONValue.parse(applying)) != nil, "\(applying)")
        let later = Int(Date().timeIntervalSince1970) + 600
        let written: [(String, String)] = [
            (RejectedFixCounts.key, #"{"jump":2,"time":1,"null_island":3}"#),
            ("mqtt.link", #"{"pid":\#(getpid()),"connected":true,"error":"down"}"#),
            ("mqtt.outbox_dropped", "4"), ("mqtt.alerts.applying", applying),
            ("alerts.command.seen", #"["a","b"]"#), ("weather.backoff.open-meteo", "2 \(later)"),
            ("ahead.backoff.open-meteo", "1 \(later)"), ("alerts.backoff.nws", "3 \(later)"),
        ]
        let sql = written.map {
            "INSERT OR REPLACE INTO state (key, value) VALUES ('\($0.0)', '\($0.1.replacing("'", with: "''"))');"
        }
        _ = try StoreTestData.sqlite3(home.db, sql.joined())
    }

    /// `env(server)` for a command at `position`: MET Norway's weather at Bergen, else Open-Meteo's; place
    /// names from Nominatim at Phoenix only (it writes and reads the shared request slot), else offline,
    /// so that processes do not wait a second for each other's slot.
    static func env(_ server: FixtureServer, at position: String) -> [String: String] {
        env(server).merging([
            "FIXCAST_WEATHER_PROVIDER": position == bergen ? "metno" : "open-meteo",
            "FIXCAST_PLACES_PROVIDER": position == phoenix ? "nominatim" : "offline",
        ]) { $1 }
    }

    static func env(_ server: FixtureServer) -> [String: String] {
        Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true", "FIXCAST_ALERTS_NWS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_METALERTS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_METEOALARM_BASE_URL": server.baseURL, "FIXCAST_ALERTS_ECCC_BASE_URL": server.baseURL,
            ])
    }

    static func server(_ home: AcceptanceHome) throws -> FixtureServer {
        func shifted(_ path: String, _ reference: String) throws -> FixtureResponse {
            .file(try AlertFixtures.shifted(path, reference: reference, in: home.dir))
        }
        let expires = ["Expires": "Thu, 01 Jan 2099 00:00:00 GMT", "Last-Modified": "Sun, 06 Dec 2026 10:00:00 GMT"]
        return try FixtureServer.started(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/reverse": [.file(Acceptance.cologneFixture)],
            MetNorwayWeather.path: [.file(TestPaths.fixture("api/metno-compact.json"), headers: expires)],
            "/alerts/active": [try shifted(AlertFixtures.nwsPhoenix, AlertFixtures.nwsPhoenixUpdated)],
            MetAlertsSource.path: [try shifted(AlertFixtures.metAlertsVestland, AlertFixtures.metAlertsLastChange)],
            "/feeds/meteoalarm-legacy-atom-france": [
                try shifted(AlertFixtures.meteoAlarmFrance, AlertFixtures.meteoAlarmFranceUpdated)
            ],
            ECCCAlertSource.path: [try shifted(AlertFixtures.ecccToronto, AlertFixtures.ecccTimeStamp)],
        ])
    }

    /// What a damaged value is made of: every number in the text fixcast wrote replaced by one, or the
    /// whole text replaced.
    enum Damage: CustomStringConvertible, CaseIterable {
        case largest, smallest, huge, negative, zero, fraction, empty, junk, wrongShape

        var description: String {
            switch self {
            case .largest: "every number Int.max"
            case .smallest: "every number Int.min"
            case .huge: "every number 1e308"
            case .negative: "every number -1"
            case .zero: "every number 0"
            case .fraction: "every number 0.5"
            case .empty: "empty text"
            case .junk: "control characters"
            case .wrongShape: "JSON of another shape"
            }
        }

        /// The number this damage puts in place of every number (nil: the damage is to the whole text).
        var number: String? {
            switch self {
            case .largest: "9223372036854775807"
            case .smallest: "-9223372036854775808"
            case .huge: "1e308"
            case .negative: "-1"
            case .zero: "0"
            case .fraction: "0.5"
            case .empty, .junk, .wrongShape: nil
            }
        }

        func apply(to text: String) -> String {
            if let number {
                return text.replacing(#/-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/#) { _ in number }
            }
            switch self {
            case .junk: return "\u{1B}[2J\u{7}"
            case .wrongShape: return text.hasPrefix("{") ? "[1, 2]" : #"{"pid": 1}"#
            default: return ""
            }
        }
    }

    /// A command's outcome on a damaged store: no hang, no crash, exit 0 or 1.
    static func expectSurvived(_ r: CLIResult, _ damage: Damage, _ command: [String]) {
        #expect(!r.timedOut, "\(damage): \(command) hung")
        #expect(r.status == 0 || r.status == 1, "\(damage): \(command) exit \(r.status): \(r.stderr.prefix(600))")
        #expect(!r.stderr.contains("runtime failure") && !r.stderr.contains("Fatal error"), "\(damage): \(command)")
    }

    /// `run` for a moment (until `lines` readings, or `seconds`), then SIGTERM: no crash, exit 0 or 1.
    static func runBriefly(
        _ args: [String], env: [String: String], home: AcceptanceHome, _ damage: Damage, lines: Int = 0,
        seconds: Double = 1.5
    ) throws {
        let run = try RunningFixcast(["run"] + args + ["--db", home.db], env: env, home: home.dir)
        if lines > 0 {
            #expect(
                run.waitForLines(lines, seconds: 30), "\(damage): run printed no reading: \(run.stderr.prefix(600))")
        } else {
            Thread.sleep(forTimeInterval: seconds)
        }
        run.signal(SIGTERM)
        let status = run.waitForExit()
        let outcome = CLIResult(status: status ?? -1, stdout: "", stderr: run.stderr, timedOut: status == nil)
        expectSurvived(outcome, damage, ["run"] + args)
    }

    @Test(
        "each of fixcast's state keys holding a damaged value: status, line, now, alerts and run exit 0 or 1",
        arguments: Damage.allCases)
    func damagedState(_ damage: Damage) throws {
        let home = AcceptanceHome("state-fuzz")
        defer { home.remove() }
        let server = try Self.server(home)
        defer { server.stop() }
        try Self.seededStore(home, server: server)
        let rows = try StoreTestData.sqlite3(home.db, "SELECT key || char(9) || value FROM state")
            .split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }
        let keys = Set(rows.map(\.0))
        // Every kind of state the seeding was meant to write is there to damage.
        for expected in [
            "gps.rejected_fixes", "mqtt.link", "alerts.last.nws", "alerts.last.metalerts", "alerts.last.eccc",
            "alerts.feed.meteoalarm.france", "weather.backoff.open-meteo", "nominatim.last_request",
        ] {
            #expect(keys.contains(expected), "\(expected) not in \(keys.sorted())")
        }
        #expect(keys.contains { $0.hasPrefix("weather.metno.validators?") }, "\(keys.sorted())")
        let sql = rows.map { key, value in
            "UPDATE state SET value = '\(damage.apply(to: value).replacing("'", with: "''"))' WHERE key = '\(key)';"
        }
        _ = try StoreTestData.sqlite3(home.db, "BEGIN;" + sql.joined() + "COMMIT;")

        let env = Self.env(server)
        let commands: [[String]] = [
            ["status", "--gpsd", "127.0.0.1:9"], ["status", "--json", "--gpsd", "127.0.0.1:9"], ["line"],
            ["line", "--waybar"],
        ]
        for command in commands {
            Self.expectSurvived(try home.run(command, env: env, timeout: 30), damage, command)
        }
        // `now` reads every source's check and back-off (its alerts are checked too); `alerts` prints them.
        for position in [Self.phoenix, Self.bergen, Self.annecy, Self.toronto] {
            for command in [["now", "--at", position, "--json"], ["alerts", "--at", position]] {
                Self.expectSurvived(
                    try home.run(command, env: Self.env(server, at: position), timeout: 30), damage, command)
            }
        }

        // `run` with MQTT on reads the announcer's record and the outbox's count (the broker is down).
        let mqtt = [
            "FIXCAST_MQTT_ENABLED": "true", "FIXCAST_MQTT_HOST": "127.0.0.1",
            "FIXCAST_MQTT_PORT": "\(freeLoopbackPort())",
        ]
        try Self.runBriefly(
            ["--at", Self.phoenix, "--json"], env: env.merging(mqtt) { $1 }, home: home, damage, lines: 1)
    }

    @Test(
        "the readings, caches and last position fixcast stored, damaged: every command that reads them exits 0 or 1",
        arguments: Damage.allCases)
    func damagedRows(_ damage: Damage) throws {
        let home = AcceptanceHome("rows-fuzz")
        defer { home.remove() }
        let server = try Self.server(home)
        defer { server.stop() }
        let env = Self.env(server)
        for position in [Self.phoenix, Self.annecy] {
            let r = try home.run(["now", "--at", position, "--json"], env: Self.env(server, at: position))
            #expect(r.status == 0, "seeding at \(position): \(r.stderr)")
        }
        var sql = "BEGIN;"
        for (table, key) in [("readings", "id"), ("weather_cache", "id")] {
            let rows = try StoreTestData.sqlite3(home.db, "SELECT \(key) || char(9) || json FROM \(table)")
                .split(separator: "\n")
            #expect(rows.count >= 2, "\(table): \(rows.count) rows")
            for row in rows {
                let parts = row.split(separator: "\t", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let damaged = damage.apply(to: String(parts[1])).replacing("'", with: "''")
                sql += "UPDATE \(table) SET json = '\(damaged)' WHERE \(key) = \(parts[0]);"
            }
        }
        if let number = damage.number {
            for table in ["readings", "weather_cache", "place_cache", "last_known_position"] {
                let columns = try StoreTestData.sqlite3(
                    home.db,
                    "SELECT name FROM pragma_table_info('\(table)') WHERE pk = 0 AND type IN ('REAL', 'INTEGER')"
                )
                .split(separator: "\n")
                #expect(!columns.isEmpty, "\(table)")
                sql += "UPDATE \(table) SET " + columns.map { "\($0) = \(number)" }.joined(separator: ", ") + ";"
            }
        }
        _ = try StoreTestData.sqlite3(home.db, sql + "COMMIT;")

        var commands: [[String]] = [
            ["status", "--gpsd", "127.0.0.1:9"], ["status", "--json", "--gpsd", "127.0.0.1:9"], ["line"],
            ["line", "--waybar"], ["line", "--i3blocks"],
            ["line", "--format", "%c %C %t %f %h %w %l %p %P %S %s %a %A %r"],
            ["trips"], ["trips", "--json"], ["export", "--format", "gpx"], ["export", "--format", "csv"],
            ["export", "--format", "geojson"], ["report", "-o", "-"],
        ]
        for position in [Self.phoenix, Self.annecy] {
            commands.append(["now", "--at", position, "--offline"])
            commands.append(["now", "--at", position, "--offline", "--json"])
            commands.append(["forecast", "--at", position, "--offline"])
            commands.append(["alerts", "--at", position, "--offline"])
        }
        for command in commands {
            Self.expectSurvived(try home.run(command, env: env, timeout: 30), damage, command)
        }
        // `run` reads the last known position and the last reading at its start.
        try Self.runBriefly(["--gpsd", "127.0.0.1:\(freeLoopbackPort())", "--json"], env: env, home: home, damage)
    }
}
