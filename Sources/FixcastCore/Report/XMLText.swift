/// Text made safe for XML and HTML content and attribute values.
///
/// Place names and alert titles come from outside (Nominatim, weather services): the five XML
/// specials are escaped; line breaks become a space; and what the terminal refuses
/// (`TerminalText.isUnsafe`: C0 and C1 controls, and the bidi controls and separators that would
/// reorder or split the text a picture shows) is dropped, with U+FFFE/U+FFFF, which XML 1.0
/// forbids. Hostile text can neither break the document nor reach a terminal that `cat`s it raw,
/// and a report shows a name as the screen does.
public enum XMLText {
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where TerminalText.isBreak(scalar): out += " "
            case _ where TerminalText.isUnsafe(scalar): continue
            case _ where scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
