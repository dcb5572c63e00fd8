import Foundation
import Testing

@testable import FixcastTestSupport

/// The zsh completion tried as a person uses it: an interactive `zsh -f` in a real terminal (tmux), the
/// script on fpath as the package installs it, compinit, and Tab pressed (issue 22).
@Suite(.serialized, .scratch) struct ZshCompletionTmuxTests {
    static let tools = ["/usr/bin/tmux", "/usr/bin/zsh"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: tools, "tmux or zsh is not installed"))
    func tabCompletesCommandsOptionsAndValues() throws {
        let home = TestPaths.temporaryDirectory("zsh-tab")
        let fpath = home.appendingPathComponent("fpath")
        try FileManager.default.createDirectory(at: fpath, withIntermediateDirectories: true)
        let script = try CLIRunner.run(["completions", "zsh"], home: home)
        #expect(script.status == 0)
        try script.stdout.write(to: fpath.appendingPathComponent("_fixcast"), atomically: true, encoding: .utf8)
        let socket = home.appendingPathComponent("tmux.sock").path
        TestScratch.atEnd { _ = try? LiveScreenJobControlTests.tmux(socket, ["kill-server"]) }
        let bin = URL(fileURLWithPath: TestPaths.fixcastBinary).deletingLastPathComponent().path
        _ = try LiveScreenJobControlTests.tmux(
            socket,
            [
                "new-session", "-d", "-s", "fx", "-x", "160", "-y", "40",
                "env -i HOME='\(home.path)' TERM=xterm-256color PATH='\(bin):/usr/bin:/bin' zsh -f",
            ])
        // `--`: keys such as "--for" are not tmux's own flags.
        func keys(_ keys: String...) throws {
            _ = try LiveScreenJobControlTests.tmux(socket, ["send-keys", "-t", "fx", "--"] + keys)
        }
        func screen(until predicate: @escaping (String) -> Bool) throws -> String {
            try LiveScreenJobControlTests.waitFor(socket, predicate)
        }
        // Typed only once compinit is done, so nothing is typed ahead of the line editor.
        try keys(
            "PS1='zsh> '; fpath=('\(fpath.path)' $fpath); autoload -Uz compinit; compinit -u -d '\(home.path)/dump'; clear",
            "Enter")
        // (capture-pane drops the prompt's trailing space.)
        _ = try screen { $0.hasPrefix("zsh>") }

        try keys("fixcast ex", "Tab")
        var text = try screen { $0.contains("zsh> fixcast export") }
        #expect(text.contains("zsh> fixcast export"), "\(text)")
        // The command was completed whole (with its space): what follows is an option.
        try keys("--for", "Tab")
        text = try screen { $0.contains("zsh> fixcast export --format") }
        #expect(text.contains("zsh> fixcast export --format"), "\(text)")
        try keys("Tab")
        text = try screen { $0.contains("geojson") }
        #expect(
            text.split(separator: "\n").contains { $0.split(separator: " ") == ["csv", "geojson", "gpx"] }, "\(text)")

        // The options of one command, exactly: export's, never line's.
        try keys("C-u", "clear", "Enter")
        _ = try screen { !$0.contains("export") }
        try keys("fixcast export -", "Tab")
        text = try screen { $0.contains("--output") }
        #expect(text.contains("--since") && text.contains("--until") && text.contains("--format"), "\(text)")
        #expect(!text.contains("--waybar") && !text.contains("--at "), "\(text)")
    }
}
