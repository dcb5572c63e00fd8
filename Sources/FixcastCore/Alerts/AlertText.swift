import FoundationEssentials

/// Makes text from an alert service safe to keep and to show: no control character (an escape
/// sequence in a hostile or broken feed must never reach a terminal raw), tabs and CRs as spaces,
/// newlines kept only where a paragraph may have them, and a length cap (`TextCap`'s, in bytes).
public enum AlertText {
    public static let maxLineBytes = TextCap.alertLine
    public static let maxParagraphBytes = TextCap.alertParagraph

    /// One line: every control character (newlines too) becomes a space; runs of spaces collapse.
    public static func line(_ text: String?) -> String? {
        guard let text else { return nil }
        return cleaned(text, keepNewlines: false, limit: maxLineBytes)
    }

    /// A paragraph: newlines kept (CRLF → LF), other control characters become spaces.
    public static func paragraph(_ text: String?) -> String? {
        guard let text else { return nil }
        return cleaned(text, keepNewlines: true, limit: maxParagraphBytes)
    }

    /// `limit` in UTF-8 bytes. The scan stops a little past it (the rest would be cut anyway), so a
    /// 5 MB text costs no more than a long one; `TextCap` then cuts on a grapheme boundary.
    static func cleaned(_ text: String, keepNewlines: Bool, limit: Int) -> String? {
        var out = String.UnicodeScalarView()
        var lastWasSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            // Past the limit by more than any grapheme worth keeping: nothing after this can be shown.
            if count >= limit + 64 { break }
            let v = scalar.value
            let isControl = v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
            if scalar == "\n" && keepNewlines {
                out.append(scalar)
                lastWasSpace = false
            } else if isControl || scalar == " " {
                if scalar == "\r" && keepNewlines { continue }
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.append(scalar)
                lastWasSpace = false
            }
            count += UTF8.width(scalar)
        }
        let result = TextCap.capped(String(out).trimmingAlertSpace, maxBytes: limit)
        return result.isEmpty ? nil : result
    }
}

extension String {
    /// Without leading and trailing spaces and newlines (the control characters are gone by then).
    var trimmingAlertSpace: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\n" { s = s.dropLast() }
        return String(s)
    }
}
