/// Terminal column arithmetic: how wide text is on screen, cutting and padding it to a width.
///
/// CJK ideographs and full-width forms take two columns (the `--lang zh` display), combining marks
/// none; counting characters instead would overflow a line and scroll the live screen.
public enum TextColumns {
    /// Columns `text` occupies in a terminal.
    public static func width(_ text: String) -> Int {
        if let narrow = narrowWidth(text) { return narrow }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// The width of text made only of scalars that are one character each and one column wide, or
    /// none for a control: ASCII and the rest below U+0300 (°, ·, é: no combining mark is below it),
    /// Cyrillic U+0400–047F (before its combining marks), and the punctuation, arrows, mathematical
    /// signs and box lines of U+2010–2027, 2030–205E, 2190–22FF and 2500–257F (…, —, →, ≤, ─); nil for
    /// other text, whose characters are then measured one by one. Counted from the UTF-8 bytes (a
    /// Swift string is valid UTF-8: a lead byte's next bytes are its own scalar's), so the common line
    /// costs a compare a byte; the answer is `width(of:)` summed over the characters (a test holds that
    /// for every scalar of the Basic Multilingual Plane). CR LF, the one pair of these that is one
    /// character, is two controls: 0 either way.
    static func narrowWidth(_ text: String) -> Int? {
        var text = text  // `withUTF8` is mutating: it may make a bridged string native first
        return text.withUTF8 { bytes in
            var columns = 0
            var utf8 = bytes.makeIterator()
            while let byte = utf8.next() {
                switch byte {
                case 0x20..<0x7F: columns += 1
                case 0x00..<0x20, 0x7F: continue
                case 0xC2: if let second = utf8.next(), second >= 0xA0 { columns += 1 }  // C2 80–9F: C1 controls
                case 0xC3...0xCB, 0xD0, 0xD1:
                    _ = utf8.next()
                    columns += 1
                case 0xE2:
                    guard let second = utf8.next(), let third = utf8.next() else { return nil }
                    switch (second, third) {
                    case (0x80, 0x90...0xA7), (0x80, 0xB0...0xBF), (0x81, 0x80...0x9E), (0x86, 0x90...0xBF),
                        (0x87...0x8B, _), (0x94...0x95, _):
                        columns += 1
                    default: return nil
                    }
                default: return nil
                }
            }
            return columns
        }
    }

    static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }  // Latin, with ° and ·: most of every line, without the table below
        if (0x300..<0x370).contains(v) || v == 0x200B { return 0 }
        return wide.contains { $0.contains(v) } ? 2 : 1
    }

    /// The code points that take two columns (East Asian Wide and Fullwidth, the common emoji).
    /// Each is 3 or 4 bytes of UTF-8, so no character takes more columns than it has bytes.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    /// `text` cut to at most `columns` columns, ending in "…" when something was cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        // No character is wider than its UTF-8 bytes (`wide`): text of at most `columns` bytes fits,
        // and is kept without walking its characters (every line of every frame).
        guard text.utf8.count > columns, width(text) > columns else { return text }
        var out = ""
        var used = 0
        for ch in text {
            let w = width(of: ch)
            if used + w > columns - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// `text` broken at spaces into lines of at most `columns` columns, each line after the first
    /// starting with `indent`; at most `maxLines` lines, the last cut with "…" when text remains. For a
    /// sentence whose end matters (an alert's place), where cutting it to one line would lose that.
    public static func wrap(_ text: String, to columns: Int, indent: String, maxLines: Int) -> [String] {
        guard columns > 0, maxLines > 0 else { return [] }
        guard maxLines > 1, width(text) > columns else { return [truncate(text, to: columns)] }
        let indentWidth = width(indent)
        var lines: [String] = []
        var current = ""
        var used = 0
        // Split on every space, so runs of spaces (a leading indent) are kept as they are.
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            let w = width(String(word))
            if index == 0 {
                current = String(word)
                used = w
            } else if used + 1 + w <= columns || lines.count == maxLines - 1 || used <= indentWidth {
                // It fits, or this is the last line allowed (cut below), or the line holds only its
                // indent (a word wider than a line is cut rather than left alone on a line of its own).
                current += " " + word
                used += 1 + w
            } else {
                lines.append(current)
                current = indent + word
                used = indentWidth + w
            }
        }
        lines.append(current)
        return lines.map { truncate($0, to: columns) }
    }

    /// `text` padded with spaces on the right to `columns` (cut first if longer).
    public static func padRight(_ text: String, to columns: Int) -> String {
        let t = truncate(text, to: columns)
        return t + String(repeating: " ", count: max(0, columns - width(t)))
    }

    /// `text` padded with spaces on the left to `columns` (for numbers in tables).
    public static func padLeft(_ text: String, to columns: Int) -> String {
        let t = truncate(text, to: columns)
        return String(repeating: " ", count: max(0, columns - width(t))) + t
    }

    /// `left` and `right` on one line of `columns`, `right` flush right; `left` is cut to make room.
    public static func spread(_ left: String, _ right: String, in columns: Int) -> String {
        let r = width(right)
        guard r + 1 < columns else { return truncate(left, to: columns) }
        let l = truncate(left, to: columns - r - 1)
        return l + String(repeating: " ", count: columns - width(l) - r) + right
    }

    /// Aligned columns two spaces apart, columns in `rightAligned` flush right (numbers), trailing
    /// spaces trimmed; with `rule`, a line of ─ under the header. One line per element, no newlines.
    public static func table(header: [String], rows: [[String]], rightAligned: Set<Int> = [], rule: Bool = false)
        -> [String]
    {
        let widths = columnWidths([header] + rows, count: header.count)
        var out = [line(header, widths: widths, rightAligned: rightAligned)]
        if rule { out.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")) }
        return out + rows.map { line($0, widths: widths, rightAligned: rightAligned) }
    }

    /// The widest cell of each of the first `count` columns of `rows` (a short row counts as empty there).
    static func columnWidths(_ rows: [[String]], count: Int) -> [Int] {
        (0..<count).map { col in rows.map { col < $0.count ? width($0[col]) : 0 }.max() ?? 0 }
    }

    /// One row as `table` lays it out, in columns of `widths`: two spaces apart, a cell wider than its
    /// column cut with "…", columns in `rightAligned` flush right, trailing spaces trimmed.
    static func line(_ cells: [String], widths: [Int], rightAligned: Set<Int>) -> String {
        var text = cells.prefix(widths.count).enumerated().map { col, cell in
            rightAligned.contains(col) ? padLeft(cell, to: widths[col]) : padRight(cell, to: widths[col])
        }.joined(separator: "  ")
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
