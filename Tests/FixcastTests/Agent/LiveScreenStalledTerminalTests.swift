import Foundation
import Testing

@testable import FixcastTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The live screen on a terminal that stops reading (an SSH link gone quiet: the pty fills and stays
/// full until TCP gives up, hours later), through the binary on a real pty: the agent goes on. Before,
/// its thread stopped in write(2) with the terminal: no reading taken on SIGUSR1, and SIGTERM left
/// unanswered until someone read the screen again.
@Suite(.serialized, .scratch) struct LiveScreenStalledTerminalTests {
    static func readings(_ db: String) throws -> Int {
        let (status, out, _) = try Acceptance.runProgram("/usr/bin/sqlite3", [db, "SELECT count(*) FROM readings;"])
        return status == 0 ? Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 : -1
    }

    /// The readings stored in `db` once there are `count`, or after about `seconds`.
    static func readings(_ db: String, reaching count: Int, seconds: Double = 10) throws -> Int {
        var stored = try readings(db)
        for _ in 0..<Int(seconds * 10) where stored < count {
            usleep(100_000)
            stored = try readings(db)
        }
        return stored
    }

    /// Sends SIGTERM to `p` and waits up to `seconds` for it to end; whether it did.
    static func stops(_ p: Process, within seconds: Double) -> Bool {
        kill(p.processIdentifier, SIGTERM)
        for _ in 0..<Int(seconds * 10) where p.isRunning { usleep(100_000) }
        return !p.isRunning
    }

    @Test func aTerminalThatStopsReadingDoesNotStopTheAgent() throws {
        let home = AcceptanceHome("stalled-terminal")
        defer { home.remove() }
        let pty = try #require(TerminalSessionTests.PTY())
        defer { pty.close() }
        var size = winsize(ws_row: 50, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(pty.screen, UInt(TIOCSWINSZ), &size)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.fixcastBinary)
        p.arguments = ["run", "--at", "52.52,13.405", "--offline", "--db", home.db]
        p.environment = fixcastEnvironment(home: home.dir, adding: ["TERM": "xterm"])
        let tty = FileHandle(fileDescriptor: pty.tty, closeOnDealloc: false)
        p.standardInput = tty
        p.standardOutput = tty
        p.standardError = tty
        try p.run()
        TestScratch.own(p)

        var shown = ""
        for _ in 0..<20 where !shown.contains("q quit") { shown += pty.drain() }
        #expect(shown.contains("q quit"), "the live screen: \(shown.debugDescription)")
        #expect(try Self.readings(home.db) == 1)

        // From here on nobody reads the screen. Each resize asks for a whole frame (about 5 kB at
        // 200 × 50); the pty is not fixcast's controlling terminal, so the SIGWINCH is sent by hand.
        for i in 0..<300 {
            size.ws_row = UInt16(50 + i % 2)
            _ = ioctl(pty.screen, UInt(TIOCSWINSZ), &size)
            kill(p.processIdentifier, SIGWINCH)
            usleep(10_000)
        }
        kill(p.processIdentifier, SIGUSR1)
        #expect(try Self.readings(home.db, reaching: 2, seconds: 15) == 2, "the SIGUSR1 reading is taken and stored")

        let exited = Self.stops(p, within: 10)
        #expect(exited, "SIGTERM is acted on while the terminal does not read")
        if !exited { _ = pty.drain() }  // let it go, so the test ends
    }
}
