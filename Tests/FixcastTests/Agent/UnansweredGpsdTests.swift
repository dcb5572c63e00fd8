import Foundation
import Testing

@testable import FixcastTestSupport

/// A gpsd host that takes no connection (switched off, firewalled: the SYN is dropped). libgps
/// connects with a blocking connect(2), which the kernel keeps retrying for about two minutes: `now`
/// waited that long before saying anything, and `run`'s loop stood still (no redraw, no key, a
/// Ctrl-C handled a minute later). The connect is bounded now (`GPSDConnection.connectTimeoutMs`).
@Suite(.serialized, .scratch) struct UnansweredGpsdTests {
    @Test("now: gpsd that takes no connection is 'not answering' within seconds, exit 1")
    func nowGivesUpWithinSeconds() throws {
        let gpsd = try UnansweredPort()
        let home = TestPaths.temporaryDirectory("unanswered-now")
        defer { try? FileManager.default.removeItem(at: home) }
        let started = Date()
        let r = try CLIRunner.run(
            ["now", "--gpsd", "127.0.0.1:\(gpsd.port)", "--offline"], home: home, timeout: 60)
        let took = Date().timeIntervalSince(started)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("gpsd at 127.0.0.1:\(gpsd.port) is not answering"), "\(r.stderr)")
        // One bounded connect (4 s) and the start-up: far below the kernel's two minutes.
        #expect(took < 20, "took \(took) s")
    }

    @Test("run: a signal while gpsd takes no connection stops the agent within seconds")
    func runStopsPromptlyOnASignal() async throws {
        let gpsd = try UnansweredPort()
        let home = TestPaths.temporaryDirectory("unanswered-run")
        defer { try? FileManager.default.removeItem(at: home) }
        let agent = try Self.headlessAgent(gpsdPort: gpsd.port, home: home)
        try await Task.sleep(for: .seconds(2))
        let signalled = Date()
        agent.signal(SIGINT)
        let status = agent.waitForExit(seconds: 60)
        let took = Date().timeIntervalSince(signalled)
        #expect(status == 0, "a stop, exit 0; stderr: \(agent.stderr)")
        #expect(took < 10, "took \(took) s after SIGINT; stderr: \(agent.stderr)")
        #expect(agent.stderr.contains("is not answering"), "\(agent.stderr)")
    }

    @Test("now: a port that takes the connection and closes it is 'not answering', not 'went away'")
    func nowOnAPortThatClosesAtOnce() throws {
        let port = try StandInGPSD(.closesAtOnce)
        let home = TestPaths.temporaryDirectory("closing-now")
        defer { try? FileManager.default.removeItem(at: home) }
        let r = try CLIRunner.run(["now", "--gpsd", "127.0.0.1:\(port.port)", "--offline"], home: home, timeout: 60)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("gpsd at 127.0.0.1:\(port.port) is not answering"), "\(r.stderr)")
        #expect(!r.stderr.contains("went away"), "\(r.stderr)")
    }

    /// A connect that succeeds is not gpsd answering: before, each retry said "the connection … was
    /// lost" and "gpsd … answers again" (a pair a second in the journal), and the back-off started
    /// again from its shortest delay at every connect.
    @Test("run --json: a port that closes each connection is said once, and retried with a growing back-off")
    func runOnAPortThatClosesAtOnce() async throws {
        let port = try StandInGPSD(.closesAtOnce)
        let home = TestPaths.temporaryDirectory("closing-run")
        defer { try? FileManager.default.removeItem(at: home) }
        let agent = try Self.headlessAgent(gpsdPort: port.port, home: home)
        try await Task.sleep(for: .seconds(9))
        agent.signal(SIGINT)
        #expect(agent.waitForExit(seconds: 30) == 0, "\(agent.stderr)")
        let gpsLines = agent.stderr.split(separator: "\n").filter { $0.hasPrefix("gps:") }
        #expect(gpsLines.count == 1, "\(agent.stderr)")
        #expect(gpsLines.first?.contains("is not answering") == true, "\(agent.stderr)")
        #expect(!agent.stderr.contains("answers again"), "\(agent.stderr)")
        // Attempts at about 0, 1, 3 and 7 s (each a probe and libgps's own connect): a back-off that
        // started again at every connect would have made about eighteen pairs in 9 s.
        #expect(port.connections <= 10, "\(port.connections) connections in 9 s")
    }

    /// gpsd greets a new client late while it opens a device. A connection that is open and waits for
    /// gpsd's first word is not "not answering": with a 1 s fix timeout and a gpsd that answers after
    /// 2 s, `now` waits its three tries and says there was no fix.
    @Test("now: gpsd that answers late (busy opening a device) is waited for, then 'no fix', not 'not answering'")
    func nowWaitsForAGPSDThatAnswersLate() throws {
        let gpsd = try StandInGPSD(.greetsAfter(2))
        let home = TestPaths.temporaryDirectory("slow-now")
        defer { try? FileManager.default.removeItem(at: home) }
        let r = try CLIRunner.run(
            ["now", "--gpsd", "127.0.0.1:\(gpsd.port)", "--offline"], env: ["FIXCAST_GPS_FIX_TIMEOUT_S": "1"],
            home: home, timeout: 60)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("no fix from gpsd at 127.0.0.1:\(gpsd.port) after 3 tries of 1 s"), "\(r.stderr)")
    }

    /// Something else on gpsd's port that greets and holds the connection (an SSH server): any line
    /// counted as gpsd answering, so it read as "connected" and waited for fixes for ever, and `now`
    /// said "no fix … give the receiver a clear view of the sky". Now only gpsd's own objects count;
    /// the connection is dropped after `GPSDLink.answerTimeoutS` and said once as not answering
    /// (before the first fix wait's 8 s, which said "no fix yet").
    @Test("run --json: a banner that is not gpsd's is not answering, said once within seconds")
    func runOnAPortWithAnotherProgramsBanner() async throws {
        let port = try StandInGPSD(.sends(["SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3"]))
        let home = TestPaths.temporaryDirectory("banner-run")
        defer { try? FileManager.default.removeItem(at: home) }
        let agent = try Self.headlessAgent(gpsdPort: port.port, home: home)
        try await Task.sleep(for: .seconds(12))
        agent.signal(SIGINT)
        #expect(agent.waitForExit(seconds: 30) == 0, "\(agent.stderr)")
        let gpsLines = agent.stderr.split(separator: "\n").filter { $0.hasPrefix("gps:") }
        #expect(gpsLines.count == 1, "\(agent.stderr)")
        #expect(gpsLines.first?.contains("is not answering") == true, "\(agent.stderr)")
        #expect(port.connections >= 2, "dropped and tried again: \(port.connections)")
    }

    /// `run --json` against the gpsd at `gpsdPort`, its store in `home`, places offline.
    static func headlessAgent(gpsdPort: UInt16, home: URL) throws -> RunningFixcast {
        try RunningFixcast(
            ["run", "--json", "--gpsd", "127.0.0.1:\(gpsdPort)", "--db", home.appendingPathComponent("f.sqlite").path],
            env: ["FIXCAST_PLACES_PROVIDER": "offline"], home: home)
    }
}
