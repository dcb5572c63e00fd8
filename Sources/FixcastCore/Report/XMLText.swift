/// Text made safe for XML and HTML content and attribute values.
///
/// Place names and alert titles come from outside (Nominatim, weather services): the five XML
/// specials are escaped and characters XML 1.0 forbids (C0 controls but tab/LF/CR, DEL..C1
/// controls, U+FFFE/U+FFFF) are dropped, so hostile text can neither break the document nor
/// reach a terminal that `cat`s it raw.
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
            case "\t", "\n", "\r": out += " "
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): continue
            case _ where scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
