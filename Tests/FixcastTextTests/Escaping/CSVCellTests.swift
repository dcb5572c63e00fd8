import Testing

@testable import FixcastText

/// Issue 11 item 3: CSV formula injection.
@Suite struct CSVCellTests {
    @Test(
        "a text cell starting with = + - @ tab or CR gets a leading quote",
        arguments: [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+1+1", "'+1+1"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1", "' =1"),
            ("\r=1", "'\n=1"),
            ("\u{1B}=cmd", "'=cmd"),
        ])
    func formulaStartsAreQuoted(_ input: String, _ expected: String) {
        #expect(CSVCell.text(input) == expected)
    }

    @Test("ordinary text is unchanged, except that control characters go, tabs become spaces and CR LF becomes LF")
    func ordinaryText() {
        #expect(CSVCell.text("Köln") == "Köln")
        #expect(CSVCell.text("Saint-Denis") == "Saint-Denis")
        #expect(CSVCell.text("") == "")
        #expect(CSVCell.text("a\nb\u{7}c\u{1B}[2J\u{9B}\u{202E}") == "a\nbc[2J")
        #expect(CSVCell.text("a\r\nb\rc\td") == "a\nb\nc d")
    }
}
