import Glibc
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

@Suite(.scratch) struct TextColumnsTests {
    @Test("where the bytes are counted, they give the width the characters add up to")
    func narrowWidthAgreesWithCharacters() {
        var disagreements: [UInt32] = []
        var counted = 0
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // the surrogates
            let text = "x" + String(Character(scalar)) + "°y—"
            let byCharacter = text.reduce(0) { $0 + TextColumns.width(of: $1) }
            guard let narrow = TextColumns.narrowWidth(text) else { continue }
            counted += 1
            if narrow != byCharacter || TextColumns.width(text) != byCharacter { disagreements.append(value) }
        }
        #expect(disagreements.isEmpty)
        // Everything below U+0300, 128 Cyrillic letters, the punctuation, arrows, signs and box lines.
        #expect(counted == 0x300 + 0x80 + 0x18 + 0x2F + 0x170 + 0x80)
        #expect(TextColumns.narrowWidth("\r\n") == 0)
        #expect(TextColumns.narrowWidth("Москва −1 … 5 °C → ≤ ─") == 22)
        // From U+0300 on (combining marks, CJK), the characters are counted.
        #expect(TextColumns.narrowWidth("e\u{301}") == nil)
        #expect(TextColumns.narrowWidth("北") == nil)
        #expect(TextColumns.width("e\u{301}北") == 3)
    }

    @Test func widths() {
        #expect(TextColumns.width("abc") == 3)
        #expect(TextColumns.width("Москва") == 6)
        #expect(TextColumns.width("北京") == 4)
        #expect(TextColumns.width("—°…") == 3)
        #expect(TextColumns.width("e\u{301}") == 1)
    }

    @Test func truncateMarksTheCut() {
        #expect(TextColumns.truncate("hello world", to: 5) == "hell…")
        #expect(TextColumns.truncate("hello", to: 5) == "hello")
        #expect(TextColumns.truncate("北京天气", to: 5) == "北京…")
        #expect(TextColumns.truncate("abc", to: 0) == "")
    }

    @Test func wrapBreaksAtSpacesIndentsAndCutsTheLastLine() {
        #expect(TextColumns.wrap("fits as it is", to: 20, indent: "  ", maxLines: 2) == ["fits as it is"])
        #expect(
            TextColumns.wrap("  Alert ahead: storm in about 30 min, near Truckee.", to: 30, indent: "    ", maxLines: 2)
                == ["  Alert ahead: storm in about", "    30 min, near Truckee."])
        // Out of lines: the rest joins the last one, which is cut.
        #expect(
            TextColumns.wrap("one two three four five six", to: 10, indent: " ", maxLines: 2)
                == ["one two", " three fo…"])
        // A word wider than a line is cut, not left on a line of its own after an empty one.
        #expect(TextColumns.wrap("Llanfairpwllgwyngyll", to: 8, indent: "  ", maxLines: 2) == ["Llanfai…"])
        #expect(TextColumns.wrap("北京 天气 很好", to: 6, indent: "", maxLines: 3) == ["北京", "天气", "很好"])
        #expect(TextColumns.wrap("no room", to: 0, indent: "", maxLines: 2).isEmpty)
        #expect(TextColumns.wrap("one line only here", to: 8, indent: "", maxLines: 1) == ["one lin…"])
        // Chinese and Japanese break between ideographs: the first line is filled, not left half empty.
        let japanese = TextColumns.wrap(
            "! weather: HTTP 400: パラメータが不正です。緯度と経度の値を確認してください。", to: 40, indent: "  ",
            maxLines: 2)
        #expect(japanese.count == 2, "\(japanese)")
        #expect(TextColumns.width(japanese[0]) >= 38, "\(japanese)")
        #expect(japanese[0].hasPrefix("! weather: HTTP 400: パラメータ"), "\(japanese)")
        #expect(japanese.joined().replacingOccurrences(of: "  ", with: "").contains("確認してください。"), "\(japanese)")
        #expect(TextColumns.wrap("北京天气很好今天", to: 6, indent: "", maxLines: 3) == ["北京天", "气很好", "今天"])
    }

    /// `truncate` keeps text of at most `columns` UTF-8 bytes without measuring it: that holds only
    /// while no character takes more columns than it has bytes.
    @Test func noCharacterIsWiderThanItsBytes() {
        for range in TextColumns.wide {
            for v in [range.lowerBound, range.upperBound] {
                let ch = Character(Unicode.Scalar(v)!)
                #expect(TextColumns.width(of: ch) <= String(ch).utf8.count, "U+\(String(v, radix: 16))")
            }
        }
        #expect(TextColumns.truncate("北京天", to: 9) == "北京天")  // 9 bytes, 6 columns: kept as it is
        #expect(TextColumns.truncate("北京天气", to: 7) == "北京天…")  // 12 bytes, 8 columns: measured and cut
        #expect(TextColumns.truncate("52.5200° N · GPS", to: 18) == "52.5200° N · GPS")  // 20 bytes, 16 columns
    }

    /// glibc's `wcwidth`, which tmux measures with, in a UTF-8 locale (set for the call, then put back).
    static func wcwidths(_ values: ClosedRange<UInt32>) throws -> [UInt32: Int] {
        typealias WCWidth = @convention(c) (Int32) -> Int32
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth"))
        let wcwidth = unsafeBitCast(symbol, to: WCWidth.self)
        let previous = String(cString: setlocale(LC_CTYPE, nil))
        defer { setlocale(LC_CTYPE, previous) }
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil)
        var widths: [UInt32: Int] = [:]
        for v in values where Unicode.Scalar(v) != nil { widths[v] = Int(wcwidth(Int32(v))) }
        return widths
    }

    @Test("no character is counted narrower than glibc's wcwidth draws it, so no line wraps in tmux")
    func neverNarrowerThanWcwidth() throws {
        let widths = try Self.wcwidths(0...0x3FFFF)
        var narrower: [String] = []
        var wideAgreed = 0
        for (v, drawn) in widths where v >= 0x20 {
            let counted = TextColumns.width(of: Character(Unicode.Scalar(v)!))
            if drawn > counted { narrower.append("U+\(String(v, radix: 16)): \(counted) < \(drawn)") }
            if drawn == 2, counted == 2 { wideAgreed += 1 }
        }
        #expect(narrower.isEmpty, "\(narrower.prefix(20)) (\(narrower.count))")
        #expect(wideAgreed > 100_000, "the CJK blocks at least")  // against a table that lost its ranges
        // Sequences: the scalars added (a terminal drawing them one by one), at least 2 with U+FE0F.
        #expect(TextColumns.width("🚗") == 2)
        #expect(TextColumns.width("🇩🇪") == 2)
        #expect(TextColumns.width("☀\u{FE0F}") == 2)
        #expect(TextColumns.width("👨\u{200D}👩\u{200D}👧") == 6)
        #expect(TextColumns.width("e\u{301}\u{200B}") == 1)
        #expect(TextColumns.width("한") == 2)
        #expect(TextColumns.width("\u{1112}\u{1161}\u{11AB}") == 2)  // 한 from its jamo
        #expect(TextColumns.truncate("🚗🚗🚗 Autobahn", to: 6) == "🚗🚗…")
    }

    /// Emoji added after glibc's table (Unicode 15 on) are drawn two columns wide by kitty, WezTerm,
    /// foot and recent VTE: counted 1, a place named with them made a live-screen row of 101 columns.
    @Test func everyEmojiShownAsAPictureIsTwoColumns() {
        #expect(TextColumns.width("🩷🩵🩶🫨🛜🪼🫎🪭🫚🪮") == 20)
        var counted = 0
        for v in UInt32(0x2000)...0x1FFFF {
            guard let scalar = Unicode.Scalar(v), scalar.properties.isEmojiPresentation,
                !(0x1F1E6...0x1F1FF).contains(v)
            else { continue }
            #expect(TextColumns.width(of: Character(scalar)) == 2, "U+\(String(v, radix: 16))")
            counted += 1
        }
        #expect(counted > 1_000)
        #expect(TextColumns.width("🇩🇪") == 2)
    }

    @Test func padding() {
        #expect(TextColumns.padRight("ab", to: 4) == "ab  ")
        #expect(TextColumns.padLeft("ab", to: 4) == "  ab")
        #expect(TextColumns.padRight("北", to: 4) == "北  ")
        #expect(TextColumns.spread("left", "right", in: 12) == "left   right")
        #expect(TextColumns.spread("a long left side", "right", in: 12) == "a lon… right")
    }

    @Test func weekdaysAndClock() {
        #expect(DisplayTime.weekdayIndex(days: 0) == 3)  // 1970-01-01, a Thursday
        #expect(DisplayTime.days(ofDate: "2026-01-30").map(DisplayTime.weekdayIndex) == 4)
        #expect(DisplayTime.days(ofDate: "not a date") == nil)
        #expect(DisplayTime.clock(DisplayFixture.fetched, utcOffsetS: -5 * 3600) == "07:00")
    }

    @Test func ages() {
        let labels = DisplayLabels(.en)
        #expect(labels.age(seconds: -5) == "just now")
        #expect(labels.age(seconds: -60) == "just now")
        // Stamped more than a minute ahead of the clock (written before the clock was set back).
        #expect(labels.age(seconds: -61) == "ahead of the clock")
        #expect(DisplayLabels(.ru).age(seconds: -3_600) == "позже системных часов")
        #expect(labels.age(seconds: 59) == "just now")
        #expect(labels.age(seconds: 60) == "1 min ago")
        #expect(labels.age(seconds: 3600) == "1 h ago")
        #expect(labels.age(seconds: 3 * 3600 + 125) == "3 h 2 min ago")
        #expect(labels.age(seconds: 3 * 86_400) == "3 d ago")
    }
}
