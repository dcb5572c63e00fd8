import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// TerminalSession against a real pseudo-terminal (posix_openpt): the same kernel tty layer a
/// terminal emulator gives fixcast, with the test holding the "screen" side.
@Suite(.serialized, .scratch) struct TerminalSessionTests {
    /// A pty pair: `screen` is what a terminal emulator would read/write, `tty` is fixcast's side.
    struct PTY {
        let screen: Int32
        let tty: Int32

        /// posix_openpt/grantpt/unlockpt/ptsname are not in Swift's Glibc module (they need
        /// _XOPEN_SOURCE), so this is what they do on Linux: open /dev/ptmx, unlock (TIOCSPTLCK),
        /// ask the number (TIOCGPTN), open /dev/pts/N. The ioctl numbers are asm-generic's, the
        /// same on x86-64 and arm64 (<asm-generic/ioctls.h>).
        init?() {
            let tiocgptn: UInt = 0x8004_5430
            let tiocsptlck: UInt = 0x4004_5431
            let m = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            guard m >= 0 else { return nil }
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard ioctl(m, tiocsptlck, &unlock) == 0, ioctl(m, tiocgptn, &number) == 0 else {
                Glibc.close(m)
                return nil
            }
            let s = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard s >= 0 else {
                Glibc.close(m)
                return nil
            }
            screen = m
            tty = s
        }

        func close() {
            Glibc.close(tty)
            Glibc.close(screen)
        }

        /// Everything the program wrote so far (waits up to 2 s for the first byte, then drains).
        func drain() -> String {
            var out: [UInt8] = []
            var pfd = pollfd(fd: screen, events: Int16(POLLIN), revents: 0)
            var timeout: Int32 = 2000
            while poll(&pfd, 1, timeout) > 0 {
                var buf = [UInt8](repeating: 0, count: 4096)
                let n = buf.withUnsafeMutableBytes { read(screen, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                out += buf.prefix(n)
                timeout = 50
            }
            return String(decoding: out, as: UTF8.self)
        }

        func type(_ text: String) {
            _ = text.utf8CString.withUnsafeBufferPointer { write(screen, $0.baseAddress, $0.count - 1) }
        }

        var localFlags: tcflag_t {
            var t = termios()
            _ = tcgetattr(tty, &t)
            return t.c_lflag
        }
    }

    @Test func refusesSomethingThatIsNotATerminal() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let session = TerminalSession(input: fds[0], output: fds[1])
        #expect(throws: TerminalError.notATerminal) { try session.start() }
        #expect(!session.isActive)
        session.restore()  // harmless when never started
    }

    @Test func rawModeAlternateScreenKeysSizeAndRestore() throws {
        let pty = try #require(PTY())
        defer { pty.close() }
        let before = pty.localFlags
        #expect(before & tcflag_t(ECHO) != 0)
        #expect(before & tcflag_t(ICANON) != 0)

        let session = TerminalSession(input: pty.tty, output: pty.tty)
        try session.start()
        #expect(session.isActive)
        let flags = pty.localFlags
        #expect(flags & tcflag_t(ECHO) == 0)
        #expect(flags & tcflag_t(ICANON) == 0)
        #expect(flags & tcflag_t(ISIG) != 0)  // Ctrl-C still reaches the agent as SIGINT
        let entered = pty.drain()
        #expect(entered.contains("\u{1B}[?1049h"))
        #expect(entered.contains("\u{1B}[?25l"))

        // Keys arrive one at a time, without Enter, and without echo.
        #expect(session.readKeys(timeoutMs: 0).isEmpty)
        pty.type("r")
        #expect(session.readKeys(timeoutMs: 2000) == [UInt8(ascii: "r")])
        pty.type("xq")
        let keys = session.readKeys(timeoutMs: 2000)
        #expect(keys.compactMap { LiveCommand(key: $0) } == [.quit])

        // The window size the emulator set.
        var ws = winsize(ws_row: 33, ws_col: 101, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(pty.screen, UInt(TIOCSWINSZ), &ws) == 0)
        let size = session.size()
        #expect(size?.columns == 101)
        #expect(size?.rows == 33)

        // A frame is drawn over the previous one in one piece.
        session.draw(["one", "two"])
        let frame = pty.drain()
        #expect(frame.hasPrefix("\u{1B}[H"))
        // "\r\n" between lines (the tty's ONLCR may add a second CR: harmless).
        #expect(frame.replacingOccurrences(of: "\r\r", with: "\r").contains("\u{1B}[Kone\r\n\u{1B}[Jtwo"))
        #expect(frame.hasSuffix("two"))
        #expect(!frame.contains("xq"))  // nothing echoed

        session.restore()
        #expect(!session.isActive)
        let after = pty.localFlags
        #expect(after & tcflag_t(ECHO) != 0)
        #expect(after & tcflag_t(ICANON) != 0)
        let left = pty.drain()
        #expect(left.contains("\u{1B}[?25h"))
        #expect(left.contains("\u{1B}[?1049l"))

        // Idempotent: a second restore (say, SIGTERM after q) writes and changes nothing.
        session.restore()
        var pfd = pollfd(fd: pty.screen, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 100) == 0)
        #expect(pty.localFlags == after)
    }

    /// Draws frames of about 4 kB, each unlike the last, `count` times (far more than a pty holds).
    static func drawMany(_ session: TerminalSession, count: Int) {
        let lines = (0..<40).map { String(repeating: "x", count: 99) + String($0) }
        for i in 0..<count { session.draw(i % 2 == 0 ? lines : lines.reversed()) }
    }

    @Test func aTerminalThatStopsReadingRefusesFramesInsteadOfBlocking() throws {
        let pty = try #require(PTY())
        defer { pty.close() }
        let session = TerminalSession(input: pty.tty, output: pty.tty)
        try session.start()
        _ = pty.drain()

        // Nobody reads the screen's side: every draw still returns.
        let drawn = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Self.drawMany(session, count: 500)
            drawn.signal()
        }
        guard drawn.wait(timeout: .now() + 20) == .success else {
            Issue.record("a draw blocked on a terminal that does not read")
            return  // closing the pty lets it go
        }

        // Read again: the next frame is drawn whole, whatever part of the last one the terminal took.
        _ = pty.drain()
        session.draw(["after", "the", "stall"])
        let frame = pty.drain()
        #expect(frame.hasPrefix("\u{1B}[H") && frame.hasSuffix("\u{1B}[Jstall"), "\(frame.debugDescription)")
        #expect(frame.contains("after") && frame.contains("stall"), "\(frame.debugDescription)")

        // Full again, the terminal is still given back: line mode at once, the main screen once it reads.
        let restored = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Self.drawMany(session, count: 200)
            session.restore()
            restored.signal()
        }
        #expect(restored.wait(timeout: .now() + 10) == .success, "restore blocked on a terminal that does not read")
        #expect(pty.localFlags & tcflag_t(ECHO) != 0)
        #expect(pty.localFlags & tcflag_t(ICANON) != 0)
    }
}
