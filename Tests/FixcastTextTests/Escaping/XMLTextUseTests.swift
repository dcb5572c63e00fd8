import FixcastText
import Testing

/// The one XML rule's two uses (issue 19 item 7): GPX keeps the text exact, SVG and HTML show it as
/// the screen does; in both, nothing breaks the document and nothing terminal-unsafe is raw.
@Suite struct XMLTextUseTests {
    static let hostile = "\u{202E}nilreB\u{202C} <b>&'\"\n\tX\u{1B}[2J\u{85}\u{7F}\r\u{01}\u{FFFE}"

    /// ESC and the other C0 controls but tab, newline and CR are dropped even here: XML 1.0 forbids them, as references too.
    @Test func dataKeepsTheTextExactWithUnsafeCharactersAsReferences() {
        #expect(
            XMLText.escape(Self.hostile, for: .data)
                == "&#x202E;nilreB&#x202C; &lt;b&gt;&amp;&#39;&quot;\n\tX[2J&#x85;&#x7F;&#xD;")
    }

    @Test func displayShowsTheTextAsTheScreenDoes() {
        #expect(XMLText.escape(Self.hostile, for: .display) == "nilreB &lt;b&gt;&amp;&#39;&quot;  X[2J  ")
        #expect(XMLText.escape(Self.hostile) == XMLText.escape(Self.hostile, for: .display))
    }

    @Test func neitherUseLeavesARawUnsafeScalar() {
        for use in [XMLText.Use.data, .display] {
            let out = XMLText.escape(Self.hostile, for: use)
            let raw = out.unicodeScalars.filter {
                TerminalText.isUnsafe($0) && !(use == .data && ($0 == "\n" || $0 == "\t"))
            }
            #expect(raw.isEmpty, "\(use): \(raw)")
        }
    }
}
