import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 19 item 7 through the binary: one XML rule for GPX, SVG and HTML. A hostile place name
/// (a bidi override, markup, a quote, line breaks, ESC, NEL, DEL, CR, a C0 control) is exact in the
/// GPX (as character references), shown as the screen shows it in the SVG and the HTML (no bidi
/// control, not even as a reference), and every file stays well-formed and safe to `cat`.
@Suite(.serialized, .scratch) struct HostileXMLOutputTests {
    static let name = "\u{202E}nilreB\u{202C} <b>&'\"\n\tX\u{1B}[2J\u{85}\u{7F}\r\u{01}End"

    @Test func gpxSVGAndHTMLFollowOneRule() throws {
        let home = AcceptanceHome("hostile-xml")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)],
            "/reverse": [.file(try HostileTextSizeTests.reverse(city: Self.name, in: home))],
        ])
        defer { server.stop() }
        let env = Acceptance.env(server)
        let now = try home.run(["now", "--at", HostileTextSizeTests.cologne], env: env)
        #expect(now.status == 0, "stderr: \(now.stderr)")
        try HostileTextSizeTests.addTrack(home.db)

        let gpx = try home.run(["export", "--format", "gpx", "-o", home.path("t.gpx")], env: env)
        #expect(gpx.status == 0, "stderr: \(gpx.stderr)")
        for file in ["t.svg", "t.html"] {
            let r = try home.run(["report", "-o", home.path(file)], env: env)
            #expect(r.status == 0, "\(file) stderr: \(r.stderr)")
        }
        let gpxText = try String(contentsOfFile: home.path("t.gpx"), encoding: .utf8)
        let svgText = try String(contentsOfFile: home.path("t.svg"), encoding: .utf8)
        let htmlText = try String(contentsOfFile: home.path("t.html"), encoding: .utf8)
        for (label, text) in [("gpx", gpxText), ("svg", svgText), ("html", htmlText)] {
            #expect(
                OutputSafety.unsafeScalars(text.replacingOccurrences(of: "\t", with: " ")).isEmpty,
                "\(label) holds a raw unsafe character")
            #expect(!text.contains("<b>"), "\(label): markup from outside is escaped")
        }
        #expect(
            gpxText.contains("&#x202E;nilreB&#x202C; &lt;b&gt;&amp;&#39;&quot;\n\tX[2J&#x85;&#x7F;&#xD;End"),
            "GPX keeps the name exact")
        for (label, text) in [("svg", svgText), ("html", htmlText)] {
            #expect(
                text.contains("nilreB &lt;b&gt;&amp;&#39;&quot;  X[2J  End"),
                "\(label) shows the name as the screen does")
            #expect(!text.contains("&#x202E;") && !text.contains("&#x1B;"), "\(label): no bidi or escape reference")
        }
        for file in ["t.gpx", "t.svg"] {
            let (lint, _, lintErr) = try Acceptance.runProgram("/usr/bin/xmllint", ["--noout", home.path(file)])
            #expect(lint == 0, "\(file) stays well-formed: \(lintErr)")
        }
    }
}
