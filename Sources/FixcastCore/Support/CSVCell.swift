/// A text cell of fixcast's CSV export, made safe for the spreadsheet it is opened in.
///
/// A cell starting with `=`, `+`, `-` or `@` is a formula to Excel, LibreOffice and Google Sheets
/// (`=HYPERLINK("http://x")`, `=cmd|' /C calc'!A0`), and a leading tab or CR hides one; place names
/// and error texts come from outside, so such a cell gets a leading `'`, as OWASP's "CSV
/// injection" advice says (the spreadsheet shows the text, the quote marks it as text). Control
/// and bidi characters are dropped and line breaks become spaces (`TerminalText.line`), so the
/// CSV is safe to `cat` to a terminal too. Numbers are not text cells: `-3.5` stays a number.
public enum CSVCell {
    /// The characters that make a spreadsheet read a cell as a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as a cell's content (before RFC 4180 quoting).
    public static func text(_ text: String) -> String {
        let startsFormula = text.unicodeScalars.first.map { formulaStarts.contains($0) } ?? false
        let cleaned = TerminalText.line(text)
        let cleanedStartsFormula = cleaned.unicodeScalars.first.map { formulaStarts.contains($0) } ?? false
        return startsFormula || cleanedStartsFormula ? "'" + cleaned : cleaned
    }
}
