import FixcastCore
import FixcastRendering
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The live screen's display on a real pseudo-terminal: what it writes at a fix, and when it asks the
/// terminal its size. Nested in `TerminalSessionTests` (serialized): a terminal session's state is the
/// process's (what atexit and a fatal signal give back), so two tests holding sessions at once see
/// each other's.
extension TerminalSessionTests {
    @Suite(.serialized, .scratch) struct LiveDisplayTests {
        static func position(_ i: Int) -> Position {
            Position(
                coordinate: Coordinate(lat: 52.52 + Double(i) * 3e-4, lon: 13.41)!, mode: .threeD,
                obtainedAt: DisplayFixture.fetched.addingTimeInterval(Double(i)), source: .gps, satellitesUsed: 9)
        }

        static func setSize(_ pty: TerminalSessionTests.PTY, columns: UInt16, rows: UInt16) {
            var ws = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
            #expect(ioctl(pty.screen, UInt(TIOCSWINSZ), &ws) == 0)
        }

        /// The size is asked at the first frame and after SIGWINCH (`terminalResized`), not at every fix:
        /// a fix writes its one line at the size the screen has, and a resize is drawn whole at the new one.
        @Test func aFixWritesOneLineAndAResizeRedrawsWhole() throws {
            let pty = try #require(TerminalSessionTests.PTY())
            defer { pty.close() }
            Self.setSize(pty, columns: 100, rows: 24)
            let display = try #require(
                LiveDisplay(
                    options: DisplayOptions(), demo: false, terminal: TerminalSession(input: pty.tty, output: pty.tty)))
            defer { display.close() }
            _ = pty.drain()
            var status = AgentStatus(reading: DisplayFixture.reading())
            status.position = Self.position(0)
            display.redraw(status, now: DisplayFixture.fetched)
            let first = pty.drain()
            #expect(first.hasPrefix("\u{1B}[H"))
            #expect(first.components(separatedBy: "\r\n").count == 24)

            Self.setSize(pty, columns: 80, rows: 12)  // no SIGWINCH yet: the display has not been told
            status.position = Self.position(1)
            display.redraw(status, now: DisplayFixture.fetched.addingTimeInterval(1))
            let fix = pty.drain()
            #expect(!fix.contains("\u{1B}[H"))
            #expect(fix.components(separatedBy: "\u{1B}[").count - 1 == 2)  // one line: its row, then clear to its end
            #expect(fix.contains("52.5203° N"))

            display.terminalResized()
            display.redraw(status, now: DisplayFixture.fetched.addingTimeInterval(1.5))
            let resized = pty.drain()
            #expect(resized.hasPrefix("\u{1B}[H"))
            #expect(resized.components(separatedBy: "\r\n").count == 12)
        }
    }
}
