import Foundation
import Testing

@testable import FixcastTestSupport

/// A place name that is tmux markup, through the binary and a real tmux: `status-right` runs
/// `#(fixcast line)`, and tmux expands formats (`#{host}`) and styles (`#[…]`) in what it prints, and
/// before 3.2 ran a `#(…)` found there. The bar must show the name's text, with nothing expanded or run.
@Suite(.serialized, .scratch) struct StatusBarMarkupTests {
    typealias T = LiveScreenJobControlTests

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: T.tmux), "tmux is not installed"))
    func aPlaceNameIsNotTmuxMarkup() throws {
        let home = AcceptanceHome("bar-markup")
        defer { home.remove() }
        // tmux runs a job in the session's folder (`-c`): a `#(touch ran)` that ran leaves home/ran.
        let ran = home.path("ran")
        // Within `%l`'s 32 columns (`StatusLine.placeColumns`), so the bar shows it whole; `#[` and `%{`
        // become the same twins (StatusLineTests).
        let name = "#(touch ran)#{session_name}T"
        let reverse = """
            {"place_id": 1, "lat": "50.9373", "lon": "6.9592", "name": "\(name)", "display_name": "\(name)",
             "address": {"town": "\(name)", "country": "Germany", "country_code": "de"}}
            """
        let server = try FixtureServer.started(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)], "/reverse": [.body(reverse)],
        ])
        defer { server.stop() }
        let now = try home.run(["now", "--at", "50.9373,6.9592"], env: Acceptance.env(server))
        #expect(now.status == 0, "\(now.stderr)")

        let inner = home.path("inner.sock")
        let outer = home.path("outer.sock")
        defer {
            _ = try? T.tmux(outer, ["kill-server"])
            _ = try? T.tmux(inner, ["kill-server"])
        }
        // tmux passes status-right through strftime first: a `%` of the format is written `%%`.
        let line =
            "env -i PATH=/usr/bin:/bin HOME=\(home.dir.path) XDG_CONFIG_HOME=\(home.path("config")) "
            + "\(TestPaths.fixcastBinary) line --db \(home.db) --format '[%%l]'"
        _ = try T.tmux(
            inner,
            [
                "-f", "/dev/null", "new-session", "-d", "-s", "zq9", "-c", home.dir.path, "-x", "220", "-y", "5",
                "sleep 60",
            ])
        for option in [
            ["status-right", "#(\(line))"], ["status-right-length", "200"], ["status-interval", "1"],
            ["status-style", "default"],
        ] {
            _ = try T.tmux(inner, ["set", "-g"] + option)
        }
        // A client draws the status line: the outer tmux's pane (named fx, as T.screen reads) attaches to it.
        _ = try T.tmux(
            outer,
            [
                "-f", "/dev/null", "new-session", "-d", "-s", "fx", "-x", "220", "-y", "6",
                "\(T.tmux) -S \(inner) attach",
            ])
        let screen = try T.waitFor(outer) { $0.contains("touch ran") }
        let bar = screen.split(separator: "\n").last.map(String.init) ?? ""
        #expect(bar.contains("[＃(touch ran)＃{session_name}T]"), "\(screen)")
        #expect(bar.components(separatedBy: "zq9").count == 2, "the session's name, once (tmux's own): \(bar)")
        Thread.sleep(forTimeInterval: 1.5)  // one more status-interval: a job tmux ran would have made the file
        #expect(!FileManager.default.fileExists(atPath: ran))
    }
}
