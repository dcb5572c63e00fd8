import FixcastCore
import FixcastText
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

    /// GPX text: `XMLText`'s one rule, as data (exact; CR and terminal-unsafe characters as references).
    static func xml(_ s: String) -> String { XMLText.escape(s, for: .data) }

    /// The weather description in `language`, from the WMO code.
    static func description(_ weather: WeatherReport?, language: Language) -> String? {
        weather?.current.weatherCode.flatMap { WMOCode.description($0, language: language) }
    }

    /// Each problem's message (which starts with its component, `UserFacingError.message`), joined by "; ".
    static func errors(_ issues: [ReadingIssue]) -> String {
        issues.map(\.message).joined(separator: "; ")
    }
}
