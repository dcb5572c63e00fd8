import FixcastText
import Testing

@Suite struct XMLTextTests {
    @Test func theFiveSpecialsAreEscaped() {
        #expect(
            XMLText.escape(#"<a href="x">Tom & Jerry's</a>"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
    }

    @Test func lineBreaksBecomeASpaceAndControlsAreDropped() {
        #expect(XMLText.escape("Bad\nKissingen\tOst\r\u{2028}X") == "Bad Kissingen Ost  X")
        #expect(XMLText.escape("\u{1B}]0;pwned\u{07}Town\u{9B}2J\u{7F}") == "]0;pwnedTown2J")
    }

    @Test func bidiControlsCannotReorderAName() {
        // U+202E (right-to-left override) would show "Berlin" reversed in a browser and in an SVG viewer.
        #expect(XMLText.escape("\u{202E}nilreB\u{202C}") == "nilreB")
        #expect(XMLText.escape("A\u{2066}B\u{2069}C\u{200F}\u{061C}") == "ABC")
    }

    @Test func charactersXMLForbidsAreDroppedAndTheRestKept() {
        #expect(XMLText.escape("a\u{FFFE}b\u{FFFF}c") == "abc")
        #expect(XMLText.escape("Zürich 東京 Москва ⛅") == "Zürich 東京 Москва ⛅")
    }
}
