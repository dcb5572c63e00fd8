import Foundation
import Testing

@testable import FixcastTestSupport

/// The live screen gives the terminal back when fixcast dies of a signal that skips atexit(3): Ctrl-\
/// (SIGQUIT), as a crash does. Left on the alternate screen with the cursor hidden, the person had to
/// type `reset` blind.
@Suite(.serialized, .scratch) struct LiveScreenFatalSignalTests {
    typealias T = LiveScreenJobControlTests

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: T.tmux), "tmux is not installed"))
    func ctrlBackslashLeavesTheMainScreenWithACursor() throws {
        let home = TestPaths.temporaryDirectory("fatal-signal")
        let socket = try T.shell(in: home)
        // The Swift runtime's backtracer (which fixcast's handler hands the signal on to) is interactive
        // on a terminal, and would take the keys typed next: the signal's default action here. No core
        // file is left in the test's folder.
        let env = T.cleanEnv(home, adding: ["SWIFT_BACKTRACE": "enable=no"])
        let command =
            "ulimit -c 0; \(env) \(TestPaths.fixcastBinary) run --at 52.52,13.405 --offline --db \(home.path)/f.sqlite"
        _ = try T.tmux(socket, ["send-keys", "-t", "fx", command, "Enter"])
        let live = try T.waitFor(socket) { $0.contains("r refresh · q quit") }
        #expect(live.contains("fixcast · live weather"), "\(live)")
        func modes() throws -> String {
            try T.tmux(socket, ["display-message", "-p", "-t", "fx", "#{alternate_on} #{cursor_flag}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try modes() == "1 0", "the live screen: alternate screen, no cursor")

        _ = try T.tmux(socket, ["send-keys", "-t", "fx", "C-\\"])
        _ = try T.waitFor(socket) { !$0.contains("r refresh · q quit") }
        _ = try T.tmux(socket, ["send-keys", "-t", "fx", "echo EXIT=$?", "Enter"])
        let done = try T.waitFor(socket) { $0.split(separator: "\n").contains { $0.hasPrefix("EXIT=") } }
        #expect(done.contains("EXIT=131"), "died of SIGQUIT, as asked: \(done)")
        #expect(try modes() == "0 1", "the main screen and the cursor are back")
    }
}
