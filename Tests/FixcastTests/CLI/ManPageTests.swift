import Foundation
import Testing

@testable import FixcastTestSupport
@testable import fixcast

/// fixcast(1): made from the help texts, committed as docs/fixcast.1, and clean for man and groff.
@Suite(.scratch) struct ManPageTests {
    static let committed = TestPaths.repoRoot.appendingPathComponent("docs/fixcast.1").path

    static func tool(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// The committed page is what the binary makes now: change a help text, or add a command or an
    /// option, and this fails until scripts/update-manpage.sh has been run.
    @Test func theCommittedPageIsWhatTheBinaryMakes() throws {
        let home = TestPaths.temporaryDirectory("manpage")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try CLIRunner.run(["--man-page"], home: home)
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout == ManPage.roff(.current))
        let committed = try String(contentsOfFile: Self.committed, encoding: .utf8)
        #expect(committed == result.stdout, "docs/fixcast.1 is out of date: run scripts/update-manpage.sh")
    }

    /// Every command has its section and every option it accepts is on the page, read from the
    /// option tables rather than from the reference the page is made from.
    @Test func everyCommandAndOptionIsOnThePage() {
        let page = ManPage.roff(.current)
        for command in CommandName.allCases {
            #expect(page.contains(".SS \"\(ManPage.text(command.helpName))\"\n"), "\(command)")
            for option in command.acceptedOptions {
                #expect(page.contains("\\fB" + ManPage.text(option.flag) + "\\fR"), "\(command) \(option.flag)")
            }
        }
        for variable in ["FIXCAST_GPS_HOST", "FIXCAST_MQTT_PASSWORD"] {
            #expect(page.contains(ManPage.text(variable)))
        }
        #expect(page.contains(".SH NAME\nfixcast \\- local weather that follows your GPS\n"))
    }

    @Test func textIsEscapedForRoff() {
        #expect(ManPage.text(".start") == "\\&.start")
        #expect(ManPage.text("'quote") == "\\&'quote")
        #expect(ManPage.text("a\\b") == "a\\eb")
        #expect(ManPage.text("--db") == "\\-\\-db")
        #expect(ManPage.text("5 °C — ok") == "5 \\[u00B0]C \\[u2014] ok")
        #expect(ManPage.text("a\u{1B}[31mb") == "a[31mb")
    }

    /// groff's own warnings (all of them, -ww) and man's, as lintian runs it
    /// (manpage-has-errors-from-man).
    @Test(.enabled(if: tool("/usr/bin/groff") && tool("/usr/bin/man"), "groff or man is not installed"))
    func manAndGroffRenderThePageWithoutAWarning() throws {
        let dir = TestPaths.temporaryDirectory("manpage-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("fixcast.1").path
        try ManPage.roff(.current).write(toFile: path, atomically: true, encoding: .utf8)
        let groff = try ShellRun.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", path])
        #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
        let man = try ShellRun.run(
            "/usr/bin/man", ["--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", path],
            env: ["LC_ALL": "C.UTF-8", "MANROFFSEQ": "", "MANWIDTH": "80"])
        #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
        let shown = try ShellRun.run("/usr/bin/man", ["-l", path], env: ["LC_ALL": "C.UTF-8", "MANPAGER": "cat"])
        #expect(shown.stdout.contains("completions"))
    }
}
