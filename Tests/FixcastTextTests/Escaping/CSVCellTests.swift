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

    @Test(arguments: [
        ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
        ("crlf\r\nx", "\"crlf\r\nx\""), (" padded", "\" padded\""), ("", ""),
    ])
    func fieldsAreQuotedPerRFC4180(field: String, quoted: String) {
        #expect(CSVCell.field(field) == quoted)
    }

    /// A comma or a quote with a combining mark or a joiner after it is one Character with it.
    @Test(arguments: [
        ("Nice,\u{301} Alpes", "\"Nice,\u{301} Alpes\""),
        ("a\"\u{301},=1+1,\u{301}", "\"a\"\"\u{301},=1+1,\u{301}\""),
        ("x\"\u{200D}y", "\"x\"\"\u{200D}y\""),
        (" \u{301}lead", "\" \u{301}lead\""),
    ])
    func aCommaOrQuoteJoinedToAMarkIsStillSeen(field: String, quoted: String) {
        #expect(CSVCell.field(field) == quoted)
        #expect(Self.fields(ofRow: CSVCell.field(field) + ",next") == [field, "next"])
    }

    /// The fields of one CSV row as RFC 4180 reads it, scalar by scalar (as a spreadsheet does).
    static func fields(ofRow row: String) -> [String] {
        var fields: [String] = []
        var current = String.UnicodeScalarView()
        var quoted = false
        var scalars = row.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        while let c = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    let next = scalars.next()
                    if next == "\"" {
                        current.append("\"")
                    } else {
                        quoted = false
                        pending = next
                    }
                } else {
                    current.append(c)
                }
            } else if c == "\"" && current.isEmpty {
                quoted = true
            } else if c == "," {
                fields.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(c)
            }
        }
        fields.append(String(current))
        return fields
    }
}
