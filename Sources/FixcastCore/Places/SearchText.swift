/// The form in which place names are compared: case- and diacritics-insensitive, so that "São Paulo",
/// "SAO PAULO" and "sao  paulo" are the same search, and "Köln" is found by "koln".
///
/// Letters outside the fold table (Cyrillic apart from ё/й-style marks, CJK, Arabic …) are only lower-cased,
/// never dropped: "Москва" stays searchable as "москва", "北京" as itself.
public enum SearchText {
    /// The folded key of `text`: lower case, diacritics removed, typographic apostrophes made ASCII,
    /// runs of white space collapsed to one space, no leading or trailing space.
    public static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            // Combining marks typed or pasted in decomposed form ("a" + U+0303) are dropped like the
            // precomposed letters' marks.
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue
            default: break
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            if let folded = foldTable[scalar] {
                out.append(contentsOf: folded.unicodeScalars)
            } else if apostrophes.contains(scalar.value) {
                out.append("'")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// ’ ‘ ʼ ` ´ — GeoNames and people spell the same apostrophe differently.
    private static let apostrophes: Set<UInt32> = [0x2019, 0x2018, 0x02BC, 0x0060, 0x00B4, 0x02BB]

    static let foldTable: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = [:]
        for entry in foldTableSource.split(whereSeparator: { $0 == "|" || $0 == "\n" }) {
            var scalars = entry.unicodeScalars.makeIterator()
            guard let letter = scalars.next() else { continue }
            var rest = String.UnicodeScalarView()
            while let s = scalars.next() { rest.append(s) }
            table[letter] = String(rest)
        }
        return table
    }()
}
