/// A text cell of fixcast's CSV export, made safe for the spreadsheet it is opened in.
///
/// A cell starting with `=`, `+`, `-` or `@` is a formula to Excel, LibreOffice and Google Sheets
/// (`=HYPERLINK("http://x")`, `=cmd|' /C calc'!A0`), and a leading tab or CR hides one; place names
/// and error texts come from outside, so such a cell gets a leading `'`, as OWASP's "CSV
/// injection" advice says (the spreadsheet shows the text, the quote marks it as text). Control
/// and bidi characters are dropped and tabs become spaces, so the CSV is safe to `cat` to a
/// terminal too; a line break stays a line break ("\n", RFC 4180 quotes the cell), CR LF or a lone
/// CR becoming "\n". Numbers are not text cells: `-3.5` stays a number.
public enum CSVCell {
    /// The characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as a cell's content (before RFC 4180 quoting).
    public static func text(_ text: String) -> String {
        let startsFormula = text.unicodeScalars.first.map { formulaStarts.contains($0) } ?? false
        let cleaned = clean(text)
        let cleanedStartsFormula = cleaned.unicodeScalars.first.map { formulaStarts.contains($0) } ?? false
        return startsFormula || cleanedStartsFormula ? "'" + cleaned : cleaned
    }

    static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\n": out.append(scalar)
            case "\r": if i + 1 >= scalars.count || scalars[i + 1] != "\n" { out.append("\n") }
            case _ where TerminalText.isBreak(scalar): out.append(" ")
            case _ where TerminalText.isUnsafe(scalar): continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// One field of a CSV row per RFC 4180: quoted, with its quotes doubled, when it holds a comma, a
    /// quote, CR or LF, or starts or ends with a space. Judged scalar by scalar, not by `Character`: a
    /// comma or a quote followed by a combining mark (U+0301) or a joiner is one Character with it, so
    /// a test of Characters passes it unseen, and a hostile name splits the row or ends the quotes
    /// early, letting what follows be read as a cell of its own (a formula `text` never saw).
    public static func field(_ s: String) -> String {
        let scalars = s.unicodeScalars
        let needsQuotes =
            scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || scalars.first == " " || scalars.last == " "
        guard needsQuotes else { return s }
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in scalars {
            out.append(scalar)
            if scalar == "\"" { out.append("\"") }
        }
        out.append("\"")
        return String(out)
    }
}
