import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastTestSupport

/// `fixcast run` with alerts and MQTT on, through the binary: the wiring of what is decided in virtual
/// time elsewhere (when to check and which ids are news: AgentReducerScenarioTests and AlertWatchTests;
/// one identity through updates and cancels: AlertIdentityChainTests; the `alert` topic's messages:
/// AlertAnnouncerTests). Two checks, the fewest that show it: `alerts.check_min`'s floor is a minute,
/// so this is the one test that waits for a periodic check.
@Suite(.scratch) struct RunAlertTriggerTests {
    static let geo = AlertIdentityAcceptanceTests.geo

    /// The startup check finds an alert (the startup reading answers for it: no extra reading); the
    /// check a minute later finds it cancelled, by a message naming an update this run never saw, and
    /// a new alert. So: exactly one reading with trigger `alert` (no extra weather request),
    /// `alerts.command` once per new alert with its JSON on stdin, and on the `alert` topic the first
    /// alert, its end, then the new one.
    @Test(.timeLimit(.minutes(3)))
    func aNewAlertGivesOneAlertReadingRunsTheCommandAndACancelEndsTheOldOne() async throws {
        let home = AcceptanceHome("run-alert")
        defer { home.remove() }
        let nws = AlertIdentityAcceptanceTests.self
        let dust = nws.feature(
            "urn:x", "Alert", sent: -2, headline: "Dust storm warning issued", event: "Dust Storm Warning")
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/alerts/active": [
                .body(nws.collection([nws.first]), headers: Self.geo),
                .body(nws.collection([nws.cancel, dust]), headers: Self.geo),
            ],
        ])
        defer { server.stop() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let recorder = try TopicRecorder(broker: broker, topics: ["fixcast/#"])
        defer { recorder.stop() }
        let events = home.path("events.log")
        let stdinCopy = home.path("alerts.jsonl")
        let command =
            "cat >> '\(stdinCopy)'; echo >> '\(stdinCopy)'; echo \"$FIXCAST_ALERT_EVENT|$FIXCAST_ALERT_SEVERITY\" >> '\(events)'"
        let env = nws.env(
            server,
            [
                "FIXCAST_ALERTS_CHECK_MIN": "1",
                "FIXCAST_ALERTS_COMMAND": command,
                "FIXCAST_MQTT_ENABLED": "true", "FIXCAST_MQTT_HOST": "127.0.0.1",
                "FIXCAST_MQTT_PORT": String(broker.port), "FIXCAST_MQTT_DEVICE_ID": "van21",
            ])
        let db = home.db
        let agent = try RunningFixcast(["run", "--json", "--at", nws.phoenix, "--db", db], env: env, home: home.dir)
        let alertTopic = "fixcast/van21/alert"
        #expect(agent.waitForLines(1, seconds: 30), "stderr: \(agent.stderr)")
        // The check a minute later: the alert reading, the end of the first alert and the new one.
        #expect(agent.waitForLines(2, seconds: 100), "stderr: \(agent.stderr)")
        let published = await recorder.wait(timeout: 20) { $0.payloads(on: alertTopic).count >= 3 }
        #expect(published, "alert topic: \(recorder.payloads(on: alertTopic)), stderr: \(agent.stderr)")
        // The command runs off the loop: wait for its second line (or give up after 5 s), then stop.
        for _ in 0..<50 where Self.lines(events).count < 2 { try await Task.sleep(for: .milliseconds(100)) }
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0)

        #expect(server.requestCount(path: "/alerts/active") == 2)
        let readings = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        #expect(readings.map { $0["trigger"]?.stringValue } == ["startup", "alert"])
        #expect(readings.first?["alerts"]?["active"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["urn:a"])
        #expect(readings.last?["alerts"]?["active"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["urn:x"])
        // No extra weather request: the alert reading reuses the cached weather.
        #expect(server.requestCount(path: "/v1/forecast") == 1)
        // Once per new alert, with its event and severity, and its JSON on stdin.
        #expect(Self.lines(events) == ["Excessive Heat Warning|severe", "Dust Storm Warning|severe"])
        let stdin = Self.lines(stdinCopy).compactMap { try? JSONValue.parse($0) }
        #expect(stdin.map { $0["id"]?.stringValue } == ["urn:a", "urn:x"])

        let messages = recorder.payloads(on: alertTopic).compactMap { try? JSONValue.parse($0) }
        #expect(messages.map { $0["id"]?.stringValue } == ["urn:a", "urn:a", "urn:x"])
        #expect(messages.map { $0["ended"]?.boolValue } == [false, true, false])
        #expect(messages.first?["headline"]?.stringValue == "Heat warning issued")
        #expect(messages.first?["source"]?.stringValue == "nws")

        // The stored answer is the second check's: `alerts` (no new request within check_min) lists the new one.
        let after = try home.run(["alerts", "--at", nws.phoenix, "--json", "--db", db], env: env)
        #expect(after.status == 0, "stderr: \(after.stderr)")
        let listed = try Acceptance.object(after)["active"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["id"] as? String } == ["urn:x"])
        #expect(server.requestCount(path: "/alerts/active") == 2)
    }

    /// `alerts.command` runs once per new identity: a second `run` on the same store under the same
    /// alert ran it again (the ids seen were kept only in memory), as did every move of 5 km (the
    /// scenario tests hold that part).
    @Test(.timeLimit(.minutes(2)))
    func aRestartUnderTheSameAlertDoesNotRunTheCommandAgain() throws {
        let home = AcceptanceHome("run-alert-restart")
        defer { home.remove() }
        let nws = AlertIdentityAcceptanceTests.self
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/alerts/active": [.body(nws.collection([nws.first]), headers: Self.geo)],
        ])
        defer { server.stop() }
        let events = home.path("events.log")
        let env = nws.env(server, ["FIXCAST_ALERTS_COMMAND": "echo \"$FIXCAST_ALERT_EVENT\" >> '\(events)'"])
        for run in 1...2 {
            let agent = try RunningFixcast(
                ["run", "--json", "--at", nws.phoenix, "--db", home.db], env: env, home: home.dir)
            #expect(agent.waitForLines(1, seconds: 30), "run \(run): stderr: \(agent.stderr)")
            for _ in 0..<50 where Self.lines(events).isEmpty { Thread.sleep(forTimeInterval: 0.1) }
            // Time for a command the second run would (wrongly) start.
            Thread.sleep(forTimeInterval: run == 2 ? 1.5 : 0.3)
            agent.signal(SIGTERM)
            #expect(agent.waitForExit(seconds: 20) == 0, "run \(run): stderr: \(agent.stderr)")
        }
        #expect(Self.lines(events) == ["Excessive Heat Warning"], "once, not once a run")
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
