import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Signals to `fixcast run` whenever they come: SIGHUP is a stop that loses nothing (the fixes still
/// gathering in gpsd's socket are read and kept), and a signal sent while fixcast is still starting,
/// before its loop handles signals, waits for the loop instead of taking its default action.
@Suite(.serialized, .scratch) struct AgentSignalTests {
    @Test func sighupStopsAHeadlessAgentWithEveryFixInTheTrack() async throws {
        let rig = try await AgentReplayTests.startRig()
        defer { rig.stop() }
        let (gpsd, agent, recorder, db) = (rig.gpsd, rig.agent, rig.recorder, rig.db)

        // 1 Hz, 100 m an epoch (every fix a track point): from the second fix on they gather for 10 s.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 30)
        let epochs = (0..<5).map {
            NMEAWriter.Epoch(lat: 52.52 + Double($0) * 0.0009, lon: 13.405, time: start.addingTimeInterval(Double($0)))
        }
        for (i, epoch) in epochs.enumerated() {
            if i > 0 { try await Task.sleep(for: .seconds(1)) }
            for line in NMEAWriter.log([epoch]) { gpsd.write(line) }
            #expect(await recorder.wait { $0.fix.map { abs($0.coordinate.lat - epoch.lat) < 1e-6 } ?? false } != nil)
            if i == 0 { #expect(agent.waitForLines(1, seconds: 30), "the startup reading; stderr: \(agent.stderr)") }
        }
        try await Task.sleep(for: .milliseconds(100))

        agent.signal(SIGHUP)
        #expect(agent.waitForExit(seconds: 20) == 0, "a stop, exit 0; stderr: \(agent.stderr)")
        let store = try SQLiteStore(path: db)
        var points: [Fix] = []
        try await store.forEachTrackPoint(since: nil, until: nil, by: .received) { points.append($0) }
        #expect(
            points.map { ($0.coordinate.lat * 10_000).rounded() } == epochs.map { ($0.lat * 10_000).rounded() },
            "every fix is in the track")
    }

    /// The signals main holds (SIGHUP, SIGINT, SIGUSR1, SIGTERM: bits 1, 2, 10 and 15 of the masks in
    /// /proc/PID/status).
    static let heldMask: UInt64 = 1 << 0 | 1 << 1 | 1 << 9 | 1 << 14

    /// The blocked-signal mask of `pid`'s main thread, from /proc (nil once it is gone).
    static func blockedSignals(_ pid: Int32) -> UInt64? {
        guard let status = readProcFile("/proc/\(pid)/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") })
        else { return nil }
        return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    @Test func sigusr1DuringStartUpWaitsForTheLoopAndDoesNotKill() async throws {
        let home = TestPaths.temporaryDirectory("agent-early-signal")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let agent = try FixedPositionAgent.start(
            db: home.appendingPathComponent("f.sqlite").path, server: server, home: home)
        let pid = agent.process.processIdentifier

        // The moment fixcast's own code runs (the dynamic loader before it cannot be helped): its
        // first line holds the signals. The loop routes them hundreds of milliseconds later.
        let deadline = Date().addingTimeInterval(5)
        var held = false
        while Date() < deadline, let mask = Self.blockedSignals(pid) {
            if mask & Self.heldMask == Self.heldMask {
                held = true
                break
            }
        }
        agent.signal(SIGUSR1)
        #expect(held, "main holds the signals before anything else")
        #expect(agent.waitForLines(2, seconds: 30), "alive, and its readings came; stderr: \(agent.stderr)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(agent.process.isRunning, "SIGUSR1 did not kill it")
        let readings = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        // The request is handled once the loop runs: a forced reading after the startup one.
        #expect(readings.map { $0["trigger"]?.stringValue } == ["startup", "manual"])
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0, "stderr: \(agent.stderr)")
    }

    @Test func aBurstOfSigusr1IsOneManualReading() async throws {
        let home = TestPaths.temporaryDirectory("agent-burst")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let db = home.appendingPathComponent("f.sqlite").path
        let agent = try FixedPositionAgent.start(db: db, server: server, home: home)
        #expect(agent.waitForLines(1, seconds: 30), "the startup reading; stderr: \(agent.stderr)")

        // 1,000 SIGUSR1 within about a second.
        let began = Date()
        for _ in 0..<1_000 {
            agent.signal(SIGUSR1)
            usleep(1_000)
        }
        let stormS = Date().timeIntervalSince(began)
        try await Task.sleep(for: .seconds(1))
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0, "stderr: \(agent.stderr)")
        let manual = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }.filter {
            $0["trigger"]?.stringValue == "manual"
        }
        // One per join window at most (the storm may straddle one more window's start).
        let bound = Int((stormS / ReadingScheduler.forcedJoinWindowS).rounded(.up)) + 1
        print("1,000 SIGUSR1 in \(String(format: "%.2f", stormS)) s: \(manual.count) manual readings")
        #expect(manual.count >= 1 && manual.count <= bound, "\(manual.count) readings for one burst (at most \(bound))")
        #expect(try await SQLiteStore(path: db).readingCount() == 1 + manual.count, "as many stored as printed")
    }
}
