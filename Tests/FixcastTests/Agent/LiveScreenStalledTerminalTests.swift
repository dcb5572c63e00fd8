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
        var count = 0
        for _ in 0..<150 where count < 2 {
            count = try Self.readings(home.db)
            usleep(100_000)
        }
        #expect(count == 2, "the reading asked for with SIGUSR1 is taken and stored")

        kill(p.processIdentifier, SIGTERM)
        var exited = false
        for _ in 0..<100 where !exited {
            exited = !p.isRunning
            usleep(100_000)
        }
        #expect(exited, "SIGTERM is acted on while the terminal does not read")
        if !exited { _ = pty.drain() }  // let it go, so the test ends
    }
}
