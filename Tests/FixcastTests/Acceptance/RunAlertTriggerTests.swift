import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastTestSupport

/// `fixcast run` with alerts on: alerts are checked every `alerts.check_min` even standing still, an
/// alert not seen before gives exactly one reading with trigger `alert` (no extra weather request),
/// and `alerts.command` runs once for each new alert with the alert's JSON on stdin.
@Suite(.scratch) struct RunAlertTriggerTests {
    @Test(.timeLimit(.minutes(3)))
    func aNewAlertGivesOneAlertReadingAndRunsTheCommand() throws {
        let home = AcceptanceHome("run-alert")
        defer { home.remove() }
        let phoenix = try AlertFixtures.shifted(
            AlertFixtures.nwsPhoenix, reference: AlertFixtures.nwsPhoenixUpdated, in: home.dir)
        let geo = ["Content-Type": "application/geo+json"]
        // The first check finds nothing active; the next (a minute later) finds the two Phoenix alerts.
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/alerts/active": [.file(AlertFixtures.nwsEmpty, headers: geo), .file(phoenix, headers: geo)],
        ])
        defer { server.stop() }
        let events = home.dir.appendingPathComponent("events.log").path
        let stdinCopy = home.dir.appendingPathComponent("alerts.jsonl").path
        let command =
            "cat >> '\(stdinCopy)'; echo >> '\(stdinCopy)'; echo \"$FIXCAST_ALERT_EVENT|$FIXCAST_ALERT_SEVERITY\" >> '\(events)'"
        let env = Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true",
                "FIXCAST_ALERTS_NWS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_METALERTS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_CHECK_MIN": "1",
                "FIXCAST_ALERTS_COMMAND": command,
                "FIXCAST_PLACES_PROVIDER": "offline",
            ])
        let agent = try RunningFixcast(
            ["run", "--json", "--at", "33.25,-112.30", "--db", home.dir.appendingPathComponent("f.sqlite").path],
            env: env, home: home.dir)
        #expect(agent.waitForLines(1, seconds: 30), "stderr: \(agent.stderr)")
        // The check a minute later brings the alerts: one more reading.
        #expect(agent.waitForLines(2, seconds: 100), "stderr: \(agent.stderr)")
        // The command runs off the loop; give it a moment, then stop.
        for _ in 0..<50
        where ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").count < 2 {
            Thread.sleep(forTimeInterval: 0.1)
        }
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0)

        let readings = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        #expect(readings.map { $0["trigger"]?.stringValue } == ["startup", "alert"])
        let active = readings.last?["alerts"]?["active"]?.arrayValue ?? []
        #expect(active.count == 2)
        // No extra weather request: the alert reading reuses the cached weather.
        #expect(server.requestCount(path: "/v1/forecast") == 1)
        #expect(server.requestCount(path: "/alerts/active") == 2)
        // Once per new alert, with its event and severity, and its JSON on stdin.
        let lines = ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(
            Set(lines.map { $0.split(separator: "|").first.map(String.init) ?? "" })
                == Set(active.compactMap { $0["event"]?.stringValue }))
        let stdin = (try? String(contentsOfFile: stdinCopy, encoding: .utf8)) ?? ""
        #expect(stdin.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.count == 2)
    }
}
