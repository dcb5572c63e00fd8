import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `fixcast run --json` (a service: the journal is its stderr) on a real gpsd that is killed in the
/// middle of a gather window and started again: stderr says gpsd is gone within a second, once (not
/// once per reconnect attempt), and says once that it is back.
@Suite(.serialized, .scratch) struct AgentHealthNoticeTests {
    @Test func aHeadlessAgentSaysAtOnceThatGPSDIsGoneAndOnceThatItIsBack() async throws {
        let rig = try await AgentReplayTests.startRig()
        defer { rig.stop() }
        let (gpsd, agent, recorder) = (rig.gpsd, rig.agent, rig.recorder)

        // A 1 Hz receiver, stamped: after the second fix the agent leaves gpsd's reports to gather
        // for 10 s (`ReportGathering.headlessWindowS`).
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 30)
        let epochs = (0..<4).map {
            NMEAWriter.Epoch(lat: 52.52 + Double($0) * 0.0009, lon: 13.405, time: start.addingTimeInterval(Double($0)))
        }
        for (i, epoch) in epochs.enumerated() {
            if i > 0 { try await Task.sleep(for: .seconds(1)) }
            for line in NMEAWriter.log([epoch]) { gpsd.write(line) }
            #expect(await recorder.wait { $0.fix.map { abs($0.coordinate.lat - epoch.lat) < 1e-6 } ?? false } != nil)
            if i == 0 { #expect(agent.waitForLines(1, seconds: 30), "the startup reading; stderr: \(agent.stderr)") }
        }
        #expect(!agent.stderr.contains("gpsd"), "nothing said while gpsd works: \(agent.stderr)")

        // Inside the window the last fixes opened: gpsd dies.
        try await Task.sleep(for: .milliseconds(500))
        let killedAt = Date()
        gpsd.killGPSD()
        let lost = agent.waitForStderr(containing: "connection to gpsd at 127.0.0.1:\(gpsd.port) was lost", seconds: 15)
        let said = try #require(lost, "stderr says gpsd is gone; it said: \(agent.stderr)")
        let delay = said.at.timeIntervalSince(killedAt)
        print("gpsd killed → stderr line after \(String(format: "%.3f", delay)) s")
        #expect(delay < 1, "said within a second of gpsd dying, in a gather window: \(delay) s")

        // Reconnect attempts fail for a while (1 s, 2 s, …): said once, not once per attempt.
        try await Task.sleep(for: .seconds(4))
        #expect(agent.stderrLines.filter { $0.line.hasPrefix("gps:") }.count == 1, "one line: \(agent.stderr)")

        let restartedAt = Date()
        try gpsd.startGPSD()
        let back = agent.waitForStderr(
            containing: "gpsd at 127.0.0.1:\(gpsd.port) answers again", after: restartedAt, seconds: 40)
        #expect(back != nil, "stderr says gpsd is back; it said: \(agent.stderr)")
        #expect(agent.stderrLines.filter { $0.line.hasPrefix("gps:") }.count == 2, "two lines in all: \(agent.stderr)")

        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0, "stderr: \(agent.stderr)")
    }

    /// The receiver stops sending while gpsd stays up (a pulled cable): gpsd says nothing, so the rule
    /// is fixcast's (`ReceiverSilence`): said once, 15 s after the last fix read (a headless read may
    /// come up to 10 s after the fix), and once when fixes come again.
    @Test func aHeadlessAgentSaysOnceThatTheReceiverWentSilentAndOnceThatFixesCome() async throws {
        let rig = try await AgentReplayTests.startRig()
        defer { rig.stop() }
        let (gpsd, agent, recorder) = (rig.gpsd, rig.agent, rig.recorder)
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 30)
        func send(_ i: Int) async {
            let epoch = NMEAWriter.Epoch(
                lat: 52.52 + Double(i) * 0.0009, lon: 13.405, time: start.addingTimeInterval(Double(i)))
            for line in NMEAWriter.log([epoch]) { gpsd.write(line) }
            #expect(await recorder.wait { $0.fix.map { abs($0.coordinate.lat - epoch.lat) < 1e-6 } ?? false } != nil)
        }
        for i in 0..<4 {
            if i > 0 { try await Task.sleep(for: .seconds(1)) }
            await send(i)
            if i == 0 { #expect(agent.waitForLines(1, seconds: 30), "the startup reading; stderr: \(agent.stderr)") }
        }
        let lastFixAt = Date()
        let silent = agent.waitForStderr(containing: "no fix has come from the receiver", seconds: 40)
        let said = try #require(silent, "stderr says the receiver is silent; it said: \(agent.stderr)")
        let delay = said.at.timeIntervalSince(lastFixAt)
        print("receiver silent → stderr line after \(String(format: "%.1f", delay)) s")
        #expect(delay >= 14 && delay < 27, "15 s after the last fix read, which may be 10 s late: \(delay) s")
        try await Task.sleep(for: .seconds(3))
        #expect(agent.stderrLines.filter { $0.line.hasPrefix("gps:") }.count == 1, "once: \(agent.stderr)")

        let resumedAt = Date()
        await send(40)
        let back = agent.waitForStderr(containing: HealthNotice.fixesCome, after: resumedAt, seconds: 15)
        #expect(back != nil, "stderr says fixes come again; it said: \(agent.stderr)")
        #expect(agent.stderrLines.filter { $0.line.hasPrefix("gps:") }.count == 2, "two lines in all: \(agent.stderr)")
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0, "stderr: \(agent.stderr)")
    }

    @Test func aHeadlessAgentSaysOnceThatTheBrokerIsAwayAndOnceThatItIsBack() async throws {
        let home = TestPaths.temporaryDirectory("agent-mqtt-health")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        broker.stop()  // away when the agent starts
        let agent = try FixedPositionAgent.start(
            db: home.appendingPathComponent("f.sqlite").path, server: server, home: home,
            env: MQTTBinaryTests.env(port: broker.port, device: "health1"))
        let away = agent.waitForStderr(containing: "mqtt:", seconds: 20)
        #expect(away != nil, "stderr says the broker is away: \(agent.stderr)")
        try await Task.sleep(for: .seconds(4))  // reconnect attempts fail meanwhile
        #expect(
            agent.stderrLines.filter { $0.line.hasPrefix("mqtt:") }.count == 1, "once, not per attempt: \(agent.stderr)"
        )

        try broker.start()
        let back = agent.waitForStderr(containing: "mqtt: connected to the broker again", seconds: 60)
        #expect(back != nil, "stderr says it is back: \(agent.stderr)")
        #expect(agent.stderrLines.filter { $0.line.hasPrefix("mqtt:") }.count == 2, "\(agent.stderr)")
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0, "stderr: \(agent.stderr)")
    }

    /// The broker away at the start, then back refusing fixcast's password: that it refuses the login
    /// is said too (it was only ever "nothing accepts connections"), once, however often it refuses.
    @Test func aBrokerBackRefusingThePasswordIsSaidWhileMQTTIsAlreadyFailing() async throws {
        let home = TestPaths.temporaryDirectory("agent-mqtt-refused")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let broker = try MosquittoBroker(credentials: (user: "fixcast", password: "right"))
        defer { broker.stop() }
        broker.stop()
        let agent = try FixedPositionAgent.start(
            db: home.appendingPathComponent("f.sqlite").path, server: server, home: home,
            env: MQTTBinaryTests.env(
                port: broker.port, device: "refused1",
                ["FIXCAST_MQTT_USERNAME": "fixcast", "FIXCAST_MQTT_PASSWORD": "wrong"]))
        #expect(agent.waitForStderr(containing: "mqtt:", seconds: 20) != nil, "\(agent.stderr)")
        try broker.start()
        let refused = agent.waitForStderr(containing: "refused the login", seconds: 60)
        #expect(refused != nil, "stderr says the login is refused: \(agent.stderr)")
        try await Task.sleep(for: .seconds(6))  // refused again on each reconnect meanwhile
        let lines = agent.stderrLines.filter { $0.line.hasPrefix("mqtt:") }
        #expect(lines.count == 2, "\(agent.stderr)")
        #expect(!agent.stderr.contains("wrong"), "the password is never said")
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0, "stderr: \(agent.stderr)")
    }
}
