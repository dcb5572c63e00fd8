/// Text made safe for XML and HTML — the one rule for GPX, SVG and HTML (issue 19).
///
/// Place names and alert titles come from outside (Nominatim, weather services). In every output:
/// the five XML specials are escaped (`'` as `&#39;`, which XML, HTML and SVG all read), and what
/// XML 1.0 forbids (the C0 controls other than tab, newline and CR; U+FFFE and U+FFFF) is dropped,
/// so hostile text can never break the document. What the terminal refuses besides
/// (`TerminalText.isUnsafe`: DEL, C1, the bidi controls and the line separators) never appears raw
/// either, so `cat` of any output is safe. The outputs differ in what the text is for:
///
/// - `.data` (GPX, an exchange format): the text stays exact. Tab and newline are kept; CR and the
///   terminal-unsafe characters are written as character references (`&#xD;`, `&#x202E;`), which a
///   GPX reader turns back into the original and a terminal shows as plain letters.
/// - `.display` (SVG and HTML, pictures a person reads): the text is shown as the screen shows it.
///   Line breaks and tabs become a space (a `<text>` has one line, and an attribute value keeps none)
///   and the terminal-unsafe characters are dropped: a `&#x202E;` reference would still reverse the
///   name in a browser or an SVG viewer.
public enum XMLText {
    public enum Use: Sendable {
        case data
        case display
    }

    /// `name` escaped for display, between character references to the bidi isolates when it holds
    /// right-to-left letters (`BidiIsolate`): for a name in a line of other text (a title, a map label).
    /// References, so `cat` of the file still shows no raw bidi control.
    public static func isolated(_ name: String) -> String {
        let escaped = escape(name)
        guard BidiIsolate.holdsRightToLeft(escaped) else { return escaped }
        return "&#x2068;" + escaped + "&#x2069;"
    }

    public static func escape(_ s: String, for use: Use = .display) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            case _ where use == .data && (scalar == "\n" || scalar == "\t"): out.unicodeScalars.append(scalar)
            case _ where use == .display && TerminalText.isBreak(scalar): out += " "
            // XML 1.0 forbids the other C0 controls, even as references.
            case _ where scalar.value < 0x20 && scalar != "\r": continue
            case _ where TerminalText.isUnsafe(scalar):
                if use == .data { out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";" }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
