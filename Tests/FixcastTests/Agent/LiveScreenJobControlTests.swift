import Foundation
import Testing

@testable import FixcastTestSupport

/// The live screen under a real terminal (tmux) and a real job-control shell: Ctrl-Z gives the
/// terminal back as it was (line mode, main screen), `fg` takes it again, and `q` quits without Enter.
@Suite(.serialized, .scratch) struct LiveScreenJobControlTests {
    static let tmux = "/usr/bin/tmux"

    /// Runs `tmux args…` on this test's own server socket and returns what it printed.
    static func tmux(_ socket: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tmux)
        p.arguments = ["-S", socket] + args
        // Output goes through a file, not a pipe: `new-session` starts the tmux server, which would keep
        // a pipe's write end open for as long as it runs.
        // (Beside the socket, in the test's folder: this also runs from the test's end action.)
        let outPath = URL(fileURLWithPath: socket).deletingLastPathComponent()
            .appendingPathComponent("tmux-\(UUID().uuidString).out").path
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)  // if not, the open below throws
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Foundation's Process reports the child running while a socket it handed the child is open, and
        // the tmux server that `new-session` forks keeps it (its fd 11): so the client's own state in
        // /proc (gone, or a zombie) says when it is done, not `isRunning` (which took the full 10 s).
        let deadline = Date().addingTimeInterval(10)
        while p.isRunning, Date() < deadline, !exited(p.processIdentifier) { usleep(10_000) }
        if p.isRunning, !exited(p.processIdentifier) { kill(p.processIdentifier, SIGKILL) }
        try out.close()
        return (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    }

    /// Whether process `pid` has exited (no longer in /proc, or a zombie not yet reaped).
    static func exited(_ pid: Int32) -> Bool {
        guard let stat = readProcFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    static func screen(_ socket: String) throws -> String { try tmux(socket, ["capture-pane", "-t", "fx", "-p"]) }

    /// Polls the screen until `predicate` holds (or about 15 s).
    static func waitFor(_ socket: String, _ predicate: (String) -> Bool) throws -> String {
        var text = ""
        for _ in 0..<150 {
            text = try screen(socket)
            if predicate(text) { return text }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return text
    }

    /// A tmux server of the test's own, with an interactive bash in its pane `fx` (100 × 30), killed at
    /// the test's end also when it fails; its socket.
    static func shell(in home: URL) throws -> String {
        let socket = home.appendingPathComponent("tmux.sock").path
        TestScratch.atEnd { _ = try? Self.tmux(socket, ["kill-server"]) }
        _ = try Self.tmux(
            socket, ["new-session", "-d", "-s", "fx", "-x", "100", "-y", "30", "bash --norc --noprofile -i"])
        return socket
    }

    /// `env -i …` words that run fixcast in that shell with the tests' clean environment and `adding`.
    static func cleanEnv(_ home: URL, adding: [String: String] = [:]) -> String {
        "env -i "
            + fixcastEnvironment(home: home, adding: adding).map { "\($0.key)='\($0.value)'" }.sorted()
            .joined(separator: " ")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tmux), "tmux is not installed"))
    func ctrlZRestoresTheTerminalAndFgTakesItBack() throws {
        let home = TestPaths.temporaryDirectory("jobcontrol")
        let socket = try Self.shell(in: home)
        let command =
            "\(Self.cleanEnv(home)) \(TestPaths.fixcastBinary) run --at 52.52,13.405 --offline --db \(home.path)/f.sqlite"
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", command, "Enter"])
        let live = try Self.waitFor(socket) { $0.contains("r refresh · q quit") }
        #expect(live.contains("fixcast · live weather"), "\(live)")

        // Ctrl-Z: stopped, and the shell's terminal is in line mode again (icanon, echo).
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", "C-z"])
        let stopped = try Self.waitFor(socket) { $0.contains("Stopped") }
        #expect(stopped.contains("Stopped"), "\(stopped)")
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", "stty -a | tr ' ' '\\n' | grep -x -- '-*icanon'", "Enter"])
        let modes = try Self.waitFor(socket) { $0.contains("\nicanon") || $0.contains("-icanon") }
        #expect(modes.contains("\nicanon") && !modes.contains("-icanon"), "\(modes)")

        // fg: the live screen again, and a single `q` (no Enter) quits with 0.
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", "clear; fg", "Enter"])
        let back = try Self.waitFor(socket) { $0.contains("r refresh · q quit") }
        #expect(back.contains("fixcast · live weather"), "\(back)")
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", "q"])
        // (A stopped job loses the rest of its command list, so the status is asked for after `fg`.)
        _ = try Self.waitFor(socket) { !$0.contains("r refresh · q quit") }
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", "echo EXIT=$?", "Enter"])
        // The shell's answer, a line of its own: not the typed command, which holds "EXIT=" too.
        let done = try Self.waitFor(socket) { $0.split(separator: "\n").contains { $0.hasPrefix("EXIT=") } }
        #expect(done.contains("EXIT=0"), "\(done)")
    }

    /// A stop that is not Ctrl-Z (SIGSTOP from outside: a debugger, a supervisor): fixcast never gave
    /// the terminal up, yet the shell wrote "Stopped" on it and put its own line mode back. After `fg`
    /// the live screen is drawn whole again (nothing of the shell's left on it) and a single `q`, no
    /// Enter, still quits.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: tmux), "tmux is not installed"))
    func aStopFromOutsideAndFgTakeTheTerminalAgain() throws {
        let home = TestPaths.temporaryDirectory("sigstop")
        let socket = try Self.shell(in: home)
        let db = "\(home.path)/f.sqlite"
        let command = "\(Self.cleanEnv(home)) \(TestPaths.fixcastBinary) run --at 52.52,13.405 --offline --db \(db)"
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", command, "Enter"])
        let live = try Self.waitFor(socket) { $0.contains("r refresh · q quit") }
        #expect(live.contains("fixcast · live weather"), "\(live)")
        let pids = try CLIRunner.run(executable: "/usr/bin/pgrep", arguments: ["-f", db], environment: nil, timeout: 5)
        let pid = try #require(pids.stdout.split(separator: "\n").compactMap { Int32($0) }.first, "\(pids)")
        kill(pid, SIGSTOP)
        let stopped = try Self.waitFor(socket) { $0.contains("Stopped") }
        #expect(stopped.contains("Stopped"), "\(stopped)")
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", "fg", "Enter"])
        let back = try Self.waitFor(socket) { $0.contains("r refresh · q quit") && !$0.contains("Stopped") }
        #expect(back.contains("fixcast · live weather") && !back.contains("Stopped"), "\(back)")
        _ = try Self.tmux(socket, ["send-keys", "-t", "fx", "q"])
        let done = try Self.waitFor(socket) { !$0.contains("r refresh · q quit") }
        #expect(!done.contains("r refresh · q quit"), "q without Enter quits: \(done)")
    }
}
