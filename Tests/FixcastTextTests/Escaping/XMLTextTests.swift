import FixcastText
import Testing

@Suite struct XMLTextTests {
    /// A right-to-left name between references to the isolates; any bidi control of its own is dropped
    /// first, so the pair is balanced; a left-to-right name is escaped as it is.
    @Test func aRightToLeftNameIsIsolated() {
        #expect(XMLText.isolated("القاهرة") == "&#x2068;القاهرة&#x2069;")
        #expect(XMLText.isolated("ירושלים & <b>") == "&#x2068;ירושלים &amp; &lt;b&gt;&#x2069;")
        #expect(XMLText.isolated("\u{2069}\u{202E}Tel Aviv יפו\u{2066}") == "&#x2068;Tel Aviv יפו&#x2069;")
        #expect(XMLText.isolated("Berlin & Co") == "Berlin &amp; Co")
        #expect(XMLText.isolated("東京") == "東京")
        #expect(BidiIsolate.wrap("القاهرة") == "\u{2068}القاهرة\u{2069}")
        #expect(BidiIsolate.wrap("Berlin") == "Berlin")
        #expect(BidiIsolate.holdsRightToLeft("ދިވެހި") && BidiIsolate.holdsRightToLeft("𐤀"))
        #expect(!BidiIsolate.holdsRightToLeft("Москва 北京 ქუთაისი"))
    }

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
