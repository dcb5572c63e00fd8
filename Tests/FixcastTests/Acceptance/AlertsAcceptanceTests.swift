import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Issue 12's acceptance through the binary, against the loopback fixture server serving the
/// recorded NWS and MetAlerts responses with every timestamp moved so that the response reads as
/// fetched just now (AlertFixtures.shifted; the recordings themselves are long expired).
@Suite(.serialized, .scratch) struct AlertsAcceptanceTests {
    static let phoenix = "33.25,-112.30"
    static let vestland = "61.5,4.7"
    static let tokyo = "35.68,139.69"
    static let nwsPath = "/alerts/active"
    static let metPath = "/weatherapi/metalerts/2.0/current.json"

    /// The environment with alerts on and both services at `server`.
    static func env(_ server: FixtureServer, _ extra: [String: String] = [:]) -> [String: String] {
        var e = Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true",
                "FIXCAST_ALERTS_NWS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_METALERTS_BASE_URL": server.baseURL,
            ])
        e.merge(extra) { _, new in new }
        return e
    }

    static func shiftedNWS(_ home: AcceptanceHome) throws -> String {
        try AlertFixtures.shifted(AlertFixtures.nwsPhoenix, reference: AlertFixtures.nwsPhoenixUpdated, in: home.dir)
    }

    static func active(_ obj: [String: Any]) -> [[String: Any]] { obj["active"] as? [[String: Any]] ?? [] }

    @Test(
        "alerts --at a Phoenix point --json lists the two NWS alerts; a second call within 10 minutes makes no request")
    func nwsPoint() throws {
        let home = AcceptanceHome("alerts-nws")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            Self.nwsPath: [.file(try Self.shiftedNWS(home), headers: ["Content-Type": "application/geo+json"])]
        ])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let obj = try Acceptance.object(r)
        #expect(obj.string("source") == "nws")
        #expect(obj.bool("covered") == true)
        #expect(obj.bool("stale") == false)
        let alerts = Self.active(obj)
        #expect(alerts.map { $0.string("event") } == ["Excessive Heat Warning", "Air Quality Alert"])
        #expect(alerts.map { $0.string("severity") } == ["severe", "unknown"])
        // The recorded expires, moved by the same offset as everything else: 14 h 10 min and 32 h 10 min after `updated`.
        let fetched = try #require(obj.string("fetched_at").flatMap(UTCTime.parse))
        let expires = alerts.compactMap { $0.string("expires").flatMap(UTCTime.parse) }
        #expect(expires.count == 2)
        if expires.count == 2 {
            #expect(abs(expires[0].timeIntervalSince(fetched) - (14 * 3600 + 9 * 60 + 54)) < 120)
            #expect(abs(expires[1].timeIntervalSince(fetched) - (32 * 3600 + 9 * 60 + 54)) < 120)
        }
        #expect(alerts.first?.string("instruction")?.contains("Call 9 1 1.") == true)
        let request = try #require(server.requests().first)
        #expect(request.query == "point=33.25,-112.3")
        #expect(request.headers["accept"] == "application/geo+json")
        #expect(request.headers["user-agent"]?.hasPrefix("fixcast/") == true)

        let again = try home.run(["alerts", "--at", "33.26,-112.30", "--json"], env: Self.env(server))
        #expect(again.status == 0)
        #expect(Self.active(try Acceptance.object(again)).count == 2)
        #expect(server.requestCount(path: Self.nwsPath) == 1, "within check_min and 5 km: no request")

        // Human: each alert with its description and instruction.
        let human = try home.run(["alerts", "--at", Self.phoenix], env: Self.env(server))
        #expect(human.status == 0)
        #expect(human.stdout.contains("2 active alerts here (NWS"))
        #expect(human.stdout.contains("[SEVERE] Excessive Heat Warning"))
        #expect(human.stdout.contains("* WHAT...Dangerously hot conditions."))
        #expect(human.stdout.contains("Heat stroke is an"))
        #expect(!human.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    @Test("a point off western Norway lists the MetAlerts alert whose area covers it")
    func metAlertsPoint() throws {
        let home = AcceptanceHome("alerts-met")
        defer { home.remove() }
        let body = try AlertFixtures.shifted(
            AlertFixtures.metAlertsVestland, reference: AlertFixtures.metAlertsLastChange, in: home.dir)
        let server = try FixtureServer.started(routes: [Self.metPath: [.file(body)]])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.vestland, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let obj = try Acceptance.object(r)
        #expect(obj.string("source") == "metalerts")
        let alerts = Self.active(obj)
        #expect(alerts.map { $0.string("area") } == ["Bulandet - Måløy"])
        #expect(alerts.first?.string("severity") == "moderate")
        #expect(alerts.first?.string("event") == "Kuling")
        #expect(server.requests().first?.query == "lat=61.5&lon=4.7")
    }

    @Test("--at Tokyo says not covered, exit 0, without a request")
    func notCovered() throws {
        let home = AcceptanceHome("alerts-tokyo-nws")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [:])
        defer { server.stop() }
        let human = try home.run(["alerts", "--at", Self.tokyo], env: Self.env(server))
        #expect(human.status == 0, "stderr: \(human.stderr)")
        #expect(human.stdout.contains("not covered"))
        let json = try home.run(["alerts", "--at", Self.tokyo, "--json"], env: Self.env(server))
        #expect(json.status == 0)
        #expect(
            json.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"covered":false,"source":null,"active":[]}"#)
        #expect(server.requestCount() == 0)
    }

    @Test(
        "now --json carries the alerts object; the reading is stored with it and exported with its count and severity")
    func nowCarriesAlerts() throws {
        let home = AcceptanceHome("alerts-now")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            Self.nwsPath: [.file(try Self.shiftedNWS(home))],
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
        ])
        defer { server.stop() }
        let env = Self.env(server, ["FIXCAST_PLACES_PROVIDER": "offline"])
        let r = try home.run(["now", "--at", Self.phoenix, "--json"], env: env)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let reading = try Acceptance.object(r)
        let alerts = try #require(reading.dict("alerts"))
        #expect(alerts.string("source") == "nws")
        #expect(Self.active(alerts).count == 2)
        #expect((reading["errors"] as? [Any])?.isEmpty == true)
        #expect(reading.dict("weather") != nil)

        let human = try home.run(["now", "--at", Self.phoenix], env: env)
        #expect(human.stdout.contains("Alerts (NWS):"))
        #expect(human.stdout.contains("  [SEVERE] Excessive Heat Warning"))
        #expect(server.requestCount(path: Self.nwsPath) == 1)

        let csv = try home.run(["export", "--format", "csv"], env: env)
        let rows = csv.stdout.split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        // The alert columns by name (the ahead columns follow them).
        let count = try #require(rows.first?.firstIndex(of: "alerts_count"))
        #expect(rows.first?[count + 1] == "alerts_max_severity")
        #expect(rows.dropFirst().allSatisfy { $0[count...].prefix(2) == ["2", "severe"] }, "\(csv.stdout)")
        let columns = try Acceptance.runProgram(
            "/usr/bin/sqlite3", [home.db, "SELECT alerts_count, alerts_max_severity FROM readings"])
        #expect(columns.0 == 0)
        #expect(columns.1 == "2|severe\n2|severe\n", "the store's own columns")
        let gpx = try home.run(["export", "--format", "gpx", "-o", home.path("out.gpx")], env: env)
        #expect(gpx.status == 0)
        #expect(
            try Acceptance.runProgram("/usr/bin/xmllint", ["--noout", home.path("out.gpx")]).0 == 0, "well-formed GPX")
        let gpxText = try String(contentsOfFile: home.path("out.gpx"), encoding: .utf8)
        #expect(gpxText.contains("<fixcast:alerts_max_severity>severe</fixcast:alerts_max_severity>"))
        #expect(gpxText.contains(#"<fixcast:alert severity="severe">Excessive Heat Warning</fixcast:alert>"#))
        let geo = try home.run(["export", "--format", "geojson"], env: env)
        let features =
            (try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as? [String: Any])?["features"]
            as? [[String: Any]] ?? []
        let props = features.compactMap { $0["properties"] as? [String: Any] }.filter { $0["trigger"] != nil }
        #expect(props.count == 2)
        #expect(props.allSatisfy { ($0["alerts"] as? [String: Any])?["source"] as? String == "nws" })
    }

    // MARK: - Faults

    static let faults: [String: (response: FixtureResponse?, cause: String)] = [
        "500": (.body(#"{"title":"Unexpected Problem","status":500}"#, status: 500), "HTTP 500"),
        "429": (.body("", status: 429, headers: ["Retry-After": "120"]), "HTTP 429"),
        "garbage": (.body("\u{7}\u{1B}[2J definitely not json"), "could not read"),
        "HTML": (
            .body("<html><body><h1>502 Bad Gateway</h1></body></html>", headers: ["Content-Type": "text/html"]),
            "could not read"
        ),
        "timeout": (FixtureResponse(body: "{}", delay: 17), "did not answer within 15 s"),
        "connection refused": (nil, "refused the connection"),
    ]
    static let faultNames = faults.keys.sorted()

    @Test(
        "each fault: alerts null, one alerts error, the weather and exit code as without alerts", arguments: faultNames)
    func faultLeavesTheRestAlone(_ fault: String) throws {
        let (response, cause) = try #require(Self.faults[fault])
        let home = AcceptanceHome("alerts-fault")
        defer { home.remove() }
        var routes: [String: [FixtureResponse]] = ["/v1/forecast": [.file(Acceptance.forecastFixture)]]
        if let response { routes[Self.nwsPath] = [response] }
        let server = try FixtureServer.started(routes: routes)
        defer { server.stop() }
        var env = Self.env(server, ["FIXCAST_PLACES_PROVIDER": "offline"])
        if response == nil { env["FIXCAST_ALERTS_NWS_BASE_URL"] = "http://127.0.0.1:\(freeLoopbackPort())" }

        let r = try home.run(["now", "--at", Self.phoenix, "--json"], env: env, timeout: 60)
        #expect(!r.timedOut)
        #expect(r.status == 0, "the exit code is the weather's: \(r.stderr)")
        let reading = try Acceptance.object(r)
        #expect(reading.isNull("alerts"))
        #expect(reading.dict("weather") != nil)
        let errors = reading["errors"] as? [[String: Any]] ?? []
        #expect(errors.count == 1)
        let message = try #require(errors.first?.string("message"))
        #expect(errors.first?.string("component") == "alerts")
        #expect(message.hasPrefix("alerts: ") && message.contains(cause), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value == 0x1B })

        // `alerts` on its own: null and one sentence, exit 1 (for a timeout it is the same error after
        // another 15 s wait; the five other faults show it).
        guard fault != "timeout" else { return }
        let alone = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: env, timeout: 60)
        #expect(alone.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "null")
        #expect(alone.status == 1)
        #expect(Acceptance.stderrLines(alone).count == 1)
        #expect(Acceptance.stderrLines(alone).first?.hasPrefix("alerts: ") == true)
    }

    @Test("while the source fails, the stored alerts are shown with stale: true")
    func storedAlertsShowStale() async throws {
        let home = AcceptanceHome("alerts-stale")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            Self.nwsPath: [.file(try Self.shiftedNWS(home)), .body("down", status: 503)]
        ])
        defer { server.stop() }
        let first = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(first.status == 0)
        // Make the stored check 11 minutes old, so the next call must ask.
        let store = try SQLiteStore(path: home.db)
        let key = "alerts.last.nws"
        let text = try #require(try await store.state(key))
        var check = try #require(AlertCheck(json: try JSONValue.parse(text)))
        check.checkedAt = check.checkedAt.addingTimeInterval(-11 * 60)
        try await store.setState(key, check.json.serialized())

        let r = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stale alerts are something true to show: \(r.stderr)")
        let obj = try Acceptance.object(r)
        #expect(obj.bool("stale") == true)
        #expect(Self.active(obj).count == 2)
        #expect(Acceptance.stderrLines(r).first?.contains("HTTP 503") == true)
        #expect(server.requestCount(path: Self.nwsPath) == 2)
    }

    @Test("alerts --help and the command list name the command")
    func help() throws {
        let home = AcceptanceHome("alerts-help")
        defer { home.remove() }
        let r = try home.run(["alerts", "--help"], env: [:])
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: fixcast alerts"))
        let main = try home.run(["--help"], env: [:])
        #expect(main.stdout.contains("  alerts "))
    }
}
