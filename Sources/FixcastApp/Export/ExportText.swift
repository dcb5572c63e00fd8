import FixcastCore
import FixcastAdapters
import FoundationEssentials

/// Text forms shared by the exporters.
enum ExportText {
    /// A number as plain decimal text (no exponent: GPX's xsd:decimal and spreadsheets want
    /// `0.00001`, not `1e-05`); whole numbers without a fraction.
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        let shortest = "\(d)"
        guard shortest.contains("e") else { return shortest }
        // Fixed point with 9 decimals (sub-millimetre for coordinates), trailing zeros dropped.
        let scale = 1_000_000_000.0
        let scaled = (abs(d) * scale).rounded()
        guard scaled < 9e18 else { return shortest }
        let n = Int(scaled)
        var frac = String(n % 1_000_000_000)
        frac = String(repeating: "0", count: 9 - frac.count) + frac
        while frac.hasSuffix("0") { frac.removeLast() }
        let sign = d < 0 ? "-" : ""
        return frac.isEmpty ? "\(sign)\(n / 1_000_000_000)" : "\(sign)\(n / 1_000_000_000).\(frac)"
    }

    static func number(_ d: Double?) -> String { d.map { number($0) } ?? "" }
    static func number(_ i: Int?) -> String { i.map { String($0) } ?? "" }

    /// Text made safe for XML content and attribute values: the five special characters escaped,
    /// characters XML 1.0 forbids (most control characters) dropped, and DEL, C1 and bidi
    /// controls written as character references.
    static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            // As a reference: kept exactly (a parser turns a raw CR into LF) and never raw on a terminal.
            case "\r": out += "&#xD;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            // DEL, C1, line separators and bidi controls are legal XML but must not reach a
            // terminal raw (`cat track.gpx`): kept as character references (TerminalText).
            case _ where TerminalText.isUnsafe(scalar): out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One CSV field per RFC 4180: quoted (with quotes doubled) when it holds a comma, a quote,
    /// CR or LF, or starts or ends with a space.
    static func csv(_ s: String) -> String {
        let needsQuotes =
            s.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || s.hasPrefix(" ") || s.hasSuffix(" ")
        guard needsQuotes else { return s }
        return "\"" + s.replacing("\"", with: "\"\"") + "\""
    }

    /// The weather description in `language`, from the WMO code.
    static func description(_ weather: WeatherReport?, language: Language) -> String? {
        weather?.current.weatherCode.flatMap { WMOCode.description($0, language: language) }
    }

    /// Each problem's message (which starts with its component, `UserFacingError.message`), joined by "; ".
    static func errors(_ issues: [ReadingIssue]) -> String {
        issues.map(\.message).joined(separator: "; ")
    }
}
