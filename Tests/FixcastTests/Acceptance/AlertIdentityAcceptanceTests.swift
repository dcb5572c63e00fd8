import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastTestSupport

/// Issue 21.4 through the binary: one alert, one identity, against the loopback server answering
/// NWS GeoJSON made with times around now, and a real mosquitto for the `alert` topic.
@Suite(.serialized, .scratch) struct AlertIdentityAcceptanceTests {
    static let phoenix = "33.25,-112.30"
    static let geo = ["Content-Type": "application/geo+json"]

    static func iso(_ minutesFromNow: Double) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date().addingTimeInterval(minutesFromNow * 60))
    }

    /// One NWS feature: `id`, its type, when it was sent (minutes from now), and the ids it references.
    static func feature(
        _ id: String, _ type: String, sent: Double, headline: String, references: [(String, Double)] = []
    ) -> String {
        let refs = references.map { #"{"identifier":"\#($0.0)","sender":"w-nws","sent":"\#(iso($0.1))"}"# }
        return #"""
            {"id":"https://nws.test/\#(id)","type":"Feature","geometry":null,"properties":{"@id":"https://nws.test/\#(id)","id":"\#(id)","areaDesc":"Maricopa","sent":"\#(iso(sent))","effective":"\#(iso(sent))","onset":"\#(iso(-30))","expires":"\#(iso(240))","ends":"\#(iso(300))","status":"Actual","messageType":"\#(type)","severity":"Severe","certainty":"Likely","urgency":"Expected","event":"Excessive Heat Warning","headline":"\#(headline)","description":"Hot.","instruction":null,"references":[\#(refs.joined(separator: ","))]}}
            """#
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    static let first = feature("urn:a", "Alert", sent: -20, headline: "Heat warning issued")
    static let update = feature(
        "urn:b", "Update", sent: -10, headline: "Heat warning extended", references: [("urn:a", -20)])
    static let cancel = feature(
        "urn:c", "Cancel", sent: -5, headline: "Heat warning cancelled",
        references: [("urn:a", -20), ("urn:b", -10)])

    static func env(_ server: FixtureServer, _ extra: [String: String] = [:]) -> [String: String] {
        var e = Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true",
                "FIXCAST_ALERTS_NWS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_METALERTS_BASE_URL": server.baseURL,
                "FIXCAST_PLACES_PROVIDER": "offline",
            ])
        e.merge(extra) { _, new in new }
        return e
    }

    @Test("alerts lists an alert and its update, listed update first, as one row with the update's text")
    func oneRowPerIdentity() throws {
        let home = AcceptanceHome("alerts-identity")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [.body(Self.collection([Self.update, Self.first]), headers: Self.geo)]
        ])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.phoenix, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let active = try Acceptance.object(r)["active"] as? [[String: Any]] ?? []
        #expect(active.count == 1)
        #expect(active.first?["id"] as? String == "urn:a", "the alert keeps its first id")
        #expect(active.first?["headline"] as? String == "Heat warning extended")
        #expect(active.first?["url"] as? String == "https://nws.test/urn:b")
    }

    /// `run` with checks every minute: nothing, then the alert, then its update alone (which names
    /// it), then its cancel. `alerts.command` runs once, one `alert` reading is made, and the `alert`
    /// topic gets the alert once and its end once.
    @Test(.timeLimit(.minutes(6)))
    func anUpdateIsNotANewAlertAndACancelEndsIt() throws {
        let home = AcceptanceHome("run-alert-identity")
        defer { home.remove() }
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/alerts/active": [
                .body(Self.collection([]), headers: Self.geo), .body(Self.collection([Self.first]), headers: Self.geo),
                .body(Self.collection([Self.update]), headers: Self.geo),
                .body(Self.collection([Self.cancel]), headers: Self.geo),
            ],
        ])
        defer { server.stop() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#"])
        defer { recorder.stop() }
        let events = home.dir.appendingPathComponent("events.log").path
        let env = Self.env(
            server,
            [
                "FIXCAST_ALERTS_CHECK_MIN": "1",
                "FIXCAST_ALERTS_COMMAND": "echo \"$FIXCAST_ALERT_EVENT\" >> '\(events)'",
                "FIXCAST_MQTT_ENABLED": "true", "FIXCAST_MQTT_HOST": "127.0.0.1",
                "FIXCAST_MQTT_PORT": String(broker.port), "FIXCAST_MQTT_DEVICE_ID": "van21",
            ])
        let db = home.dir.appendingPathComponent("f.sqlite").path
        let agent = try RunningFixcast(["run", "--json", "--at", Self.phoenix, "--db", db], env: env, home: home.dir)
        let alertTopic = "fixcast/van21/alert"
        // Four checks (startup, then one a minute); the last one's cancel ends the alert.
        let ended = recorder.wait(timeout: 280) { $0.payloads(on: alertTopic).count >= 2 }
        #expect(ended, "alert topic: \(recorder.payloads(on: alertTopic)), stderr: \(agent.stderr)")
        Thread.sleep(forTimeInterval: 1)
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0)

        #expect(server.requestCount(path: "/alerts/active") == 4)
        let readings = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        #expect(readings.map { $0["trigger"]?.stringValue } == ["startup", "alert"], "the update made no reading")
        let lines = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(lines == ["Excessive Heat Warning"], "alerts.command ran once, not per update")

        let messages = recorder.payloads(on: alertTopic).compactMap { try? JSONValue.parse($0) }
        #expect(messages.count == 2)
        #expect(messages.map { $0["id"]?.stringValue } == ["urn:a", "urn:a"])
        #expect(messages.map { $0["ended"]?.boolValue } == [false, true])
        #expect(messages.first?["headline"]?.stringValue == "Heat warning issued")
        #expect(messages.last?["headline"]?.stringValue == "Heat warning extended", "ended with its latest text")
        #expect(messages.first?["source"]?.stringValue == "nws")

        // The stored answer is the cancel's: `alerts` (no new request within check_min) lists nothing.
        let after = try home.run(["alerts", "--at", Self.phoenix, "--json", "--db", db], env: env)
        #expect(after.status == 0, "stderr: \(after.stderr)")
        #expect((try Acceptance.object(after)["active"] as? [Any])?.isEmpty == true)
        #expect(server.requestCount(path: "/alerts/active") == 4)
    }
}
