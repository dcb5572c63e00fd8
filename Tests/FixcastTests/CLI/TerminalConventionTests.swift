import Foundation
import Testing

@testable import FixcastTestSupport

/// What fixcast writes to a real terminal (a pseudo-terminal from util-linux's `script`), as the
/// terminal's conventions ask: severity colours on it; none with `NO_COLOR` or `TERM=dumb`; and under
/// `TERM=dumb` no live screen, but JSON lines and one sentence saying why.
@Suite(.serialized, .scratch) struct TerminalConventionTests {
    static let script = "/usr/bin/script"

    /// `script`'s arguments that run `fixcast args…` on a new pseudo-terminal (stdin, stdout and
    /// stderr all on it); everything written there comes out on `script`'s stdout.
    static func scriptArguments(_ args: [String]) -> [String] {
        let words = [TestPaths.fixcastBinary] + args
        return ["-qec", "exec " + words.map { "'" + $0 + "'" }.joined(separator: " "), "/dev/null"]
    }

    /// `fixcast args…` on a terminal, to its end: what the terminal showed.
    static func onTerminal(_ args: [String], home: AcceptanceHome, env: [String: String]) throws -> String {
        var environment = fixcastEnvironment(home: home.dir, adding: env)
        environment["SHELL"] = "/bin/sh"
        let r = try ShellRun.run(Self.script, scriptArguments(args + ["--db", home.db]), env: environment)
        return r.stdout
    }

    @Test(
        "alerts on a terminal colour each severity; NO_COLOR and TERM=dumb print the same text without colour",
        .enabled(if: FileManager.default.isExecutableFile(atPath: script), "script (bsdutils) is not installed"))
    func alertColours() throws {
        let home = AcceptanceHome("terminal-colour")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            AlertsAcceptanceTests.nwsPath: [
                .file(try AlertsAcceptanceTests.shiftedNWS(home), headers: ["Content-Type": "application/geo+json"])
            ]
        ])
        defer { server.stop() }
        let args = ["alerts", "--at", AlertsAcceptanceTests.phoenix]
        let env = AlertsAcceptanceTests.env(server)
        let coloured = try Self.onTerminal(args, home: home, env: env.merging(["TERM": "xterm"]) { $1 })
        #expect(coloured.contains("\u{1B}[31m[SEVERE]\u{1B}[0m Excessive Heat Warning"), "\(coloured)")
        for plain in [["TERM": "xterm", "NO_COLOR": "1"], ["TERM": "dumb"]] {
            let text = try Self.onTerminal(args, home: home, env: env.merging(plain) { $1 })
            #expect(text.contains("[SEVERE] Excessive Heat Warning"), "\(plain): \(text)")
            #expect(!text.contains("\u{1B}"), "\(plain): \(text)")
        }
        // An empty NO_COLOR asks for nothing (no-color.org).
        let empty = try Self.onTerminal(args, home: home, env: env.merging(["TERM": "xterm", "NO_COLOR": ""]) { $1 })
        #expect(empty.contains("\u{1B}[31m[SEVERE]"), "\(empty)")
    }

    @Test(
        "run on a TERM=dumb terminal prints JSON lines and says why, without a screen's escapes",
        .enabled(if: FileManager.default.isExecutableFile(atPath: script), "script (bsdutils) is not installed"))
    func dumbTerminalRun() throws {
        let home = AcceptanceHome("terminal-dumb")
        defer { home.remove() }
        var env = Acceptance.env(nil, ["TERM": "dumb", "SHELL": "/bin/sh"])
        env["FIXCAST_PLACES_PROVIDER"] = "offline"
        let agent = try RunningFixcast(
            Self.scriptArguments(["run", "--at", "52.52,13.405", "--offline", "--db", home.db]), env: env,
            home: home.dir, executable: Self.script)
        #expect(agent.waitForLines(2, seconds: 30))
        agent.signal(SIGTERM)
        _ = agent.waitForExit()
        let shown = agent.stdoutLines.joined(separator: "\n")
        #expect(
            shown.contains(
                "fixcast run: a terminal with TERM=dumb cannot show the live screen; printing JSON lines instead."),
            "\(shown)")
        #expect(
            agent.stdoutLines.contains { $0.hasPrefix("{\"id\":") && $0.contains("\"trigger\":\"startup\"") },
            "\(shown)")
        #expect(!shown.contains("\u{1B}"), "no escape reaches a dumb terminal: \(shown)")
    }
}
