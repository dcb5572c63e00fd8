import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 24 items 2 and 8 through the binary, against crafted MetAlerts and NWS answers on a loopback
/// server: the 100-alert cap comes after the filters and says what it cut; absurd times are unknown;
/// one id is one alert, and `alerts.command` runs once, for the winning message.
@Suite(.serialized, .scratch) struct HostileAlertFeedTests {
    static let vestland = "61.5,4.7"
    static let phoenix = "33.25,-112.30"
    static let metPath = "/weatherapi/metalerts/2.0/current.json"
    static let nwsPath = "/alerts/active"

    static func time(_ offsetS: Double) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(secondsFromGMT: 0)
        return f.string(from: Date().addingTimeInterval(offsetS))
    }

    /// A square polygon (GeoJSON lon/lat ring) one degree wide from (lon, lat).
    static func square(lon: Double, lat: Double) -> [String: Any] {
        [
            "type": "Polygon",
            "coordinates": [[[lon, lat], [lon + 1, lat], [lon + 1, lat + 1], [lon, lat + 1], [lon, lat]]],
        ]
    }

    static func metFeature(id: String, colour: String, polygon: [String: Any]) -> [String: Any] {
        [
            "type": "Feature", "geometry": polygon, "when": ["interval": [time(-3600), time(6 * 3600)]],
            "properties": [
                "id": id, "event": "gale", "eventAwarenessName": "Kuling \(id)", "title": "Kuling \(id)",
                "status": "Actual",
                "type": "Alert", "awareness_level": "2; \(colour); x", "area": "Area \(id)",
            ] as [String: Any],
        ]
    }

    static func nwsFeature(id: String, severity: String, properties extra: [String: Any] = [:]) -> [String: Any] {
        var p: [String: Any] = [
            "id": id, "event": "\(severity) Warning", "headline": "\(severity) headline", "severity": severity,
            "status": "Actual",
            "messageType": "Alert", "onset": time(-3600), "expires": time(6 * 3600),
        ]
        p.merge(extra) { _, new in new }
        return ["type": "Feature", "id": "https://api.weather.gov/alerts/" + id, "geometry": NSNull(), "properties": p]
    }

    static func write(_ features: [[String: Any]], to path: String) throws -> String {
        let body: [String: Any] = ["type": "FeatureCollection", "features": features]
        try JSONSerialization.data(withJSONObject: body).write(to: URL(fileURLWithPath: path))
        return path
    }

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

    static func active(_ obj: [String: Any]) -> [[String: Any]] { obj["active"] as? [[String: Any]] ?? [] }

    @Test(
        "150 MetAlerts features elsewhere, then the one whose polygon holds the point: that one is listed, nothing omitted"
    )
    func capComesAfterThePolygonFilter() throws {
        let home = AcceptanceHome("alerts-cap-filter")
        defer { home.remove() }
        var features = (0..<150).map {
            Self.metFeature(id: "far-\($0)", colour: "orange", polygon: Self.square(lon: 10, lat: 59))
        }
        features.append(Self.metFeature(id: "here", colour: "red", polygon: Self.square(lon: 4, lat: 61)))
        let body = try Self.write(features, to: home.path("country.json"))
        let server = try FixtureServer.started(routes: [Self.metPath: [.file(body)]])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.vestland, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let obj = try Acceptance.object(r)
        #expect(Self.active(obj).map { $0.string("id") } == ["here"])
        #expect(obj["omitted"] == nil, "nothing was cut: \(obj)")
    }

    @Test("130 alerts that apply: the 100 most severe are listed, the extreme one first, and omitted says 31 were cut")
    func capKeepsTheMostSevereAndSaysSo() throws {
        let home = AcceptanceHome("alerts-cap-count")
        defer { home.remove() }
        var features = (0..<130).map {
            Self.metFeature(id: "yellow-\($0)", colour: "yellow", polygon: Self.square(lon: 4, lat: 61))
        }
        features.append(Self.metFeature(id: "red", colour: "red", polygon: Self.square(lon: 4, lat: 61)))
        let body = try Self.write(features, to: home.path("many.json"))
        let server = try FixtureServer.started(routes: [Self.metPath: [.file(body)]])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.vestland, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let obj = try Acceptance.object(r)
        let active = Self.active(obj)
        #expect(active.count == 100)
        #expect(active.first?.string("id") == "red")
        #expect(active.first?.string("severity") == "extreme")
        #expect(obj["omitted"] as? Int == 31, "\(obj["omitted"] ?? "missing")")
        let human = try home.run(["alerts", "--at", Self.vestland], env: Self.env(server))
        #expect(human.status == 0, "stderr: \(human.stderr)")
        #expect(
            human.stdout.contains("31 less severe alerts not shown (fixcast keeps the 100 most severe)."),
            "\(human.stdout.suffix(300))")
    }

    @Test("times outside 1970–2200 are unknown (null), never 10000-01-01T13:59:59Z or year 0000")
    func absurdTimesAreUnknown() throws {
        let home = AcceptanceHome("alerts-times")
        defer { home.remove() }
        let body = try Self.write(
            [
                Self.nwsFeature(
                    id: "far-future", severity: "Severe",
                    properties: [
                        "expires": "9999-12-31T23:59:59-14:00", "onset": "0000-01-01T00:00:00Z",
                        "effective": "0000-06-01T00:00:00Z",
                        "ends": "2200-01-01T00:00:00Z",
                    ])
            ], to: home.path("times.json"))
        let server = try FixtureServer.started(routes: [Self.nwsPath: [.file(body)]])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stdout.contains("10000-") && !r.stdout.contains("0000-01-01"), "\(r.stdout)")
        let alert = try #require(Self.active(try Acceptance.object(r)).first)
        #expect(alert.string("id") == "far-future")
        for key in ["expires", "onset", "ends"] {
            #expect(alert[key] is NSNull, "\(key): \(alert[key] ?? "missing")")
        }
    }

    @Test("two features with one id are one alert: the most recent sent wins, else the most severe")
    func oneIDIsOneAlert() throws {
        let home = AcceptanceHome("alerts-one-id")
        defer { home.remove() }
        let body = try Self.write(
            [
                Self.nwsFeature(id: "twice", severity: "Extreme", properties: ["sent": Self.time(-1800)]),
                Self.nwsFeature(id: "twice", severity: "Minor", properties: ["sent": Self.time(-600)]),
                Self.nwsFeature(id: "no-sent", severity: "Extreme"),
                Self.nwsFeature(id: "no-sent", severity: "Moderate"),
            ], to: home.path("dup.json"))
        let server = try FixtureServer.started(routes: [Self.nwsPath: [.file(body)]])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let active = Self.active(try Acceptance.object(r))
        #expect(active.map { $0.string("id") } == ["no-sent", "twice"], "\(active)")
        #expect(active.map { $0.string("severity") } == ["extreme", "minor"])
    }

    @Test(.timeLimit(.minutes(2)))
    func runRunsTheCommandOnceForAnIDListedTwiceWithTheMostSevere() throws {
        let home = AcceptanceHome("alerts-one-id-run")
        defer { home.remove() }
        let body = try Self.write(
            [
                Self.nwsFeature(id: "twice", severity: "Extreme"),
                Self.nwsFeature(id: "twice", severity: "Minor"),
            ], to: home.path("dup.json"))
        let server = try FixtureServer.started(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            Self.nwsPath: [.file(body, headers: ["Content-Type": "application/geo+json"])],
        ])
        defer { server.stop() }
        let events = home.path("events.log")
        let command = "cat > /dev/null; echo \"$FIXCAST_ALERT_SEVERITY\" >> '\(events)'"
        let agent = try RunningFixcast(
            ["run", "--json", "--at", Self.phoenix, "--db", home.path("f.sqlite")],
            env: Self.env(server, ["FIXCAST_ALERTS_COMMAND": command, "FIXCAST_PLACES_PROVIDER": "offline"]),
            home: home.dir)
        defer {
            agent.signal(SIGKILL)
            _ = agent.waitForExit(seconds: 10)
        }
        #expect(agent.waitForLines(1, seconds: 30), "stderr: \(agent.stderr)")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").isEmpty {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 1)  // a second run of the command would have come by now
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0)
        let lines = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
        #expect(lines == ["extreme"], "\(lines)")
    }
}
