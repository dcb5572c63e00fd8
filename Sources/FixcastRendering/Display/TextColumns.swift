import FixcastText

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

    /// Columns one character takes. A character of several scalars (an emoji sequence, a flag, a
    /// letter with its marks) takes what its scalars add up to, as a terminal that draws them one by
    /// one shows it, and at least 2 with an emoji presentation selector (U+FE0F), as one that joins
    /// them shows it: counted high rather than low, since a line a column short leaves a space, and a
    /// line a column long wraps onto the next row of the live screen and wipes it.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x300, scalars.count == 1 { return scalarWidth(first.value) }  // most of every line
        var columns = 0
        var emoji = false
        for scalar in scalars {
            if scalar.value == 0xFE0F { emoji = true }
            columns += scalarWidth(scalar.value)
        }
        return emoji ? max(columns, 2) : columns
    }

    /// Columns one scalar takes on its own: 0 for a control, a combining or enclosing mark, a format
    /// character (the zero-width space and joiner, the bidi marks, tags), a variation selector and Hangul's
    /// medial and final jamo; 2 for the `wide` ones; else 1.
    static func scalarWidth(_ v: UInt32) -> Int {
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        if (0x300..<0x370).contains(v) || (0x1160..<0x1200).contains(v) || (0xFE00..<0xFE10).contains(v) {
            return 0
        }
        if let scalar = Unicode.Scalar(v) {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: return 0
            // Not those that stand before a number and are drawn (U+0600–0605, U+06DD, U+08E2).
            case .format where v < 0x600 || v > 0x110CD: return 0
            case .format where (0x200B...0x206F).contains(v) || v == 0xFEFF: return 0
            default: break
            }
            // Emoji newer than the table (Unicode 15 on: 🩷, 🛜, 🫨) are drawn two columns wide by a
            // terminal with current tables; the standard library knows them. Not the regional
            // indicators: a flag is two of them, 2 columns in all.
            if scalar.properties.isEmojiPresentation, !(0x1F1E6...0x1F1FF).contains(v) { return 2 }
        }
        return isWide(v) ? 2 : 1
    }

    /// Whether `v` is in `wide` (a binary search of its sorted ranges).
    static func isWide(_ v: UInt32) -> Bool {
        guard v >= wide[0].lowerBound else { return false }
        var low = 0
        var high = wide.count
        while low < high {
            let mid = (low + high) / 2
            if wide[mid].upperBound < v { low = mid + 1 } else { high = mid }
        }
        return low < wide.count && wide[low].contains(v)
    }

    /// The code points that take two columns: East Asian Wide and Fullwidth, and the emoji shown as
    /// pictures, as glibc's `wcwidth` (Debian 12) gives them, which is what tmux draws with, joined
    /// with the whole of the CJK, Hangul, pictograph and supplementary ideograph blocks (a terminal
    /// with a newer table draws more of them wide; counted high, see `width(of:)`). Sorted, apart.
    /// Each is 3 or 4 bytes of UTF-8, so no character takes more columns than it has bytes.
    static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0xA4CF, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE52,
        0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE3, 0x16FF0...0x16FF1,
        0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB,
        0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B150...0x1B152, 0x1B164...0x1B167, 0x1B170...0x1B2FB,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F202,
        0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F64F,
        0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DD...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F900...0x1F9FF,
        0x1FA70...0x1FA74, 0x1FA78...0x1FA7C, 0x1FA80...0x1FA86, 0x1FA90...0x1FAAC, 0x1FAB0...0x1FABA,
        0x1FAC0...0x1FAC5, 0x1FAD0...0x1FAD9, 0x1FAE0...0x1FAE7, 0x1FAF0...0x1FAF6, 0x20000...0x3FFFD,
    ]

    /// The most columns a name takes in a table's cell (`trips`, `search`, `ahead`): one long name (a real
    /// Welsh village of 58 letters, 30 ideographs) padded every row of its table past an 80-column
    /// terminal, so each wrapped onto two.
    public static let cellNameColumns = 24

    /// An outside name for a table's cell: cleaned (`TerminalText.name`) and cut to `cellNameColumns`.
    public static func cellName(_ name: String) -> String {
        truncate(TerminalText.name(name), to: cellNameColumns)
    }

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
        for (index, piece) in breakablePieces(text).enumerated() {
            let w = width(piece.text)
            let gap = piece.joined ? 0 : 1
            if index == 0 {
                current = piece.text
                used = w
            } else if used + gap + w <= columns || lines.count == maxLines - 1 || used <= indentWidth {
                // It fits, or this is the last line allowed (cut below), or the line holds only its
                // indent (a word wider than a line is cut rather than left alone on a line of its own).
                current += (piece.joined ? "" : " ") + piece.text
                used += gap + w
            } else {
                lines.append(current)
                current = indent + piece.text
                used = indentWidth + w
            }
        }
        lines.append(current)
        return lines.map { truncate($0, to: columns) }
    }

    /// Where `wrap` may break `text`: at every space (so runs of spaces, a leading indent, are kept as
    /// they are), and before and after each wide character, as Chinese and Japanese text breaks between
    /// ideographs (UAX #14): a sentence of them, with no space, went whole to the next line and was cut
    /// there. `joined`: no space stands before the piece (it goes on the word before it).
    static func breakablePieces(_ text: String) -> [(text: String, joined: Bool)] {
        var pieces: [(text: String, joined: Bool)] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var run = ""
            var first = true
            for ch in word {
                guard width(of: ch) == 2 else {
                    run.append(ch)
                    continue
                }
                if !run.isEmpty {
                    pieces.append((run, !first))
                    first = false
                    run = ""
                }
                pieces.append((String(ch), !first))
                first = false
            }
            if !run.isEmpty || first { pieces.append((run, !first)) }
        }
        return pieces
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
