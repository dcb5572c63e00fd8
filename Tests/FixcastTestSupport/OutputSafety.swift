import Foundation

/// Issue 11's rule, as tests check it: no C0 control except "\n" (and, for CSV, the "\r" of its
/// CRLF line ends), no DEL, no C1 control, no line separator and no bidi control in `text`.
enum OutputSafety {
    static func unsafeScalars(_ text: String, allowCRLF: Bool = false) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var found: [String] = []
        for (i, s) in scalars.enumerated() {
            let v = s.value
            if s == "\n" { continue }
            if allowCRLF, s == "\r", i + 1 < scalars.count, scalars[i + 1] == "\n" { continue }
            let bad =
                v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x061C || v == 0x200E || v == 0x200F || v == 0x2028
                || v == 0x2029 || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            if bad { found.append("U+" + String(v, radix: 16, uppercase: true) + " at \(i)") }
        }
        return found
    }

    static func isClean(_ text: String, allowCRLF: Bool = false) -> Bool {
        unsafeScalars(text, allowCRLF: allowCRLF).isEmpty
    }
}
