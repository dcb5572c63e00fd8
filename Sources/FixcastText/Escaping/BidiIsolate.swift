/// Keeps a right-to-left name (Arabic, Hebrew, Persian, …) from reordering the text fixcast writes
/// around it. Browsers, SVG viewers and Pango (waybar) apply the Unicode bidirectional algorithm to a
/// whole line: "Trip 1: الإسكندرية → القاهرة · 2025-05-11" was drawn with the arrow pointing from the
/// end to the start and the date reversed, and "القاهرة 17 °C" as "17 القاهرة °C". Between U+2068
/// FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE a name is one unit in the line's own
/// direction.
///
/// Only for a name already cleaned (`TerminalText`, `XMLText`): those drop every bidi control from
/// outside text, so the pair fixcast adds is always balanced. A name without right-to-left letters is
/// left as it is, so left-to-right output is unchanged. A terminal gets no isolate (`Console`
/// drops them, as from outside text): most terminals draw no bidi at all.
public enum BidiIsolate {
    /// FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE.
    public static let open: Unicode.Scalar = "\u{2068}"
    public static let close: Unicode.Scalar = "\u{2069}"

    /// Whether `text` holds a letter of a right-to-left script (the blocks whose letters are of bidi
    /// class R or AL: Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, the Arabic and Hebrew
    /// presentation forms, and the historic scripts of the SMP's right-to-left blocks).
    public static func holdsRightToLeft(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
    }

    /// `name` between the isolates when it holds right-to-left letters, else as it is.
    public static func wrap(_ name: String) -> String {
        guard holdsRightToLeft(name) else { return name }
        var out = String(open)
        out += name
        out.unicodeScalars.append(close)
        return out
    }
}
