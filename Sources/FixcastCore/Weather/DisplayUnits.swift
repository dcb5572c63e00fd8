/// Turns SI values into the text a person reads, in metric or imperial (`--units`).
///
/// Units change only the human display; JSON and the store stay SI/metric (CONTRACT.md). An
/// unknown value (nil or not finite) is shown as "—", never as 0: a made-up zero reads as a fact.
/// Precision follows what the sources can resolve: whole degrees and percent and hPa, a tenth of a
/// m/s or mm, whole mph, hundredths of an inch (inHg and precipitation).
public struct DisplayUnits: Sendable, Hashable {
    /// Shown for any unknown value.
    public static let unknown = "—"

    public var system: UnitSystem

    public init(_ system: UnitSystem = .metric) {
        self.system = system
    }

    public var temperatureSymbol: String { system == .metric ? "°C" : "°F" }

    /// Whole degrees: `3 °C` / `37 °F`.
    public func temperature(_ celsius: Double?) -> String {
        guard let v = celsius.finite else { return Self.unknown }
        return temperatureNumber(v) + " " + temperatureSymbol
    }

    /// Whole degrees without the unit (for `min … max °C` ranges).
    public func temperatureNumber(_ celsius: Double?) -> String {
        guard let v = celsius.finite else { return Self.unknown }
        return NumberText.fixed(system == .metric ? v : UnitConversion.fahrenheit(celsius: v), decimals: 0)
    }

    /// `4.2 m/s` / `9 mph`.
    public func speed(_ metresPerSecond: Double?) -> String {
        guard let v = metresPerSecond.finite else { return Self.unknown }
        switch system {
        case .metric: return NumberText.fixed(v, decimals: 1) + " m/s"
        case .imperial: return NumberText.fixed(UnitConversion.mph(metresPerSecond: v), decimals: 0) + " mph"
        }
    }

    /// `1013 hPa` / `29.92 inHg`.
    public func pressure(_ hectopascals: Double?) -> String {
        guard let v = hectopascals.finite else { return Self.unknown }
        switch system {
        case .metric: return NumberText.fixed(v, decimals: 0) + " hPa"
        case .imperial: return NumberText.fixed(UnitConversion.inchesOfMercury(hectopascals: v), decimals: 2) + " inHg"
        }
    }

    /// `0.2 mm` / `0.01 in`.
    public func precipitation(_ millimetres: Double?) -> String {
        guard let v = millimetres.finite else { return Self.unknown }
        switch system {
        case .metric: return NumberText.fixed(v, decimals: 1) + " mm"
        case .imperial: return NumberText.fixed(UnitConversion.inches(millimetres: v), decimals: 2) + " in"
        }
    }

    /// `81 %` (the same in both systems).
    public func percent(_ value: Double?) -> String {
        guard let v = value.finite else { return Self.unknown }
        return NumberText.fixed(v, decimals: 0) + " %"
    }

    /// `1.2 km` / `0.7 mi`.
    public func distance(km: Double?) -> String {
        guard let v = km.finite else { return Self.unknown }
        switch system {
        case .metric: return NumberText.fixed(v, decimals: 1) + " km"
        case .imperial: return NumberText.fixed(UnitConversion.miles(km: v), decimals: 1) + " mi"
        }
    }
}

/// Exact conversion factors (NIST SP 811).
public enum UnitConversion {
    public static func fahrenheit(celsius: Double) -> Double { celsius * 9 / 5 + 32 }
    /// 1 mph = 0.44704 m/s exactly.
    public static func mph(metresPerSecond: Double) -> Double { metresPerSecond / 0.44704 }
    /// 1 inHg (at 0 °C) = 33.8639 hPa.
    public static func inchesOfMercury(hectopascals: Double) -> Double { hectopascals / 33.8639 }
    /// 1 in = 25.4 mm exactly.
    public static func inches(millimetres: Double) -> Double { millimetres / 25.4 }
    /// 1 mi = 1.609344 km exactly.
    public static func miles(km: Double) -> Double { km / 1.609344 }
}

/// Fixed-point number text without `String(format:)` (which lives in full Foundation, not
/// FoundationEssentials) and without a locale: the decimal point is always ".".
public enum NumberText {
    /// `value` rounded half away from zero to `decimals` places; never "-0"; "—" if not finite
    /// or too large to be a reading.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        var text = ""
        appendFixed(value, decimals: decimals, to: &text)
        return text
    }

    /// `fixed`, appended to `text` digit by digit, with no string of its own: the live screen writes
    /// two coordinates into its position line at every fix, and each string made is an allocation.
    public static func appendFixed(_ value: Double, decimals: Int, to text: inout String) {
        let places = max(0, min(decimals, 6))
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 1e15 else {
            text += DisplayUnits.unknown
            return
        }
        let n = Int64(scaled)
        if n < 0 { text += "-" }  // a value that rounds to 0 is "0", never "-0"
        // Whole and fraction by arithmetic, not by cutting the digits' string (character indices).
        var unit: UInt64 = 1
        for _ in 0..<places { unit *= 10 }
        appendDigits(n.magnitude / unit, count: nil, to: &text)
        guard places > 0 else { return }
        text += "."
        appendDigits(n.magnitude % unit, count: places, to: &text)
    }

    /// The decimal digits of `value`: exactly `count` of them with leading zeros, or (nil) as many as
    /// it has, at least one.
    private static func appendDigits(_ value: UInt64, count: Int?, to text: inout String) {
        var divisor: UInt64 = 1
        if let count {
            for _ in 1..<max(1, count) { divisor *= 10 }
        } else {
            while value / divisor >= 10 { divisor *= 10 }
        }
        var digits = 1
        var d = divisor
        while d >= 10 {
            d /= 10
            digits += 1
        }
        // Made in one go and appended once: up to 15 bytes is a small string, no allocation.
        let run = String(unsafeUninitializedCapacity: digits) { buffer in
            var rest = value
            var place = divisor
            for i in 0..<digits {
                buffer[i] = UInt8(48 + rest / place)
                rest %= place
                place /= 10
            }
            return digits
        }
        text += run
    }
}

/// The 16-point compass rose, in the display languages.
public enum CompassPoint {
    static let en = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]
    static let ru = [
        "С", "ССВ", "СВ", "ВСВ", "В", "ВЮВ", "ЮВ", "ЮЮВ", "Ю", "ЮЮЗ", "ЮЗ", "ЗЮЗ", "З", "ЗСЗ", "СЗ", "ССЗ",
    ]
    static let zh = [
        "北", "东北偏北", "东北", "东北偏东", "东", "东南偏东", "东南", "东南偏南",
        "南", "西南偏南", "西南", "西南偏西", "西", "西北偏西", "西北", "西北偏北",
    ]

    /// The point `degrees` (meteorological: where the wind comes FROM, 0 = north, clockwise) falls
    /// in, each covering 22.5° centred on it; nil for an unknown direction.
    public static func name(degrees: Double?, language: Language = .en) -> String? {
        guard let d = degrees.finite else { return nil }
        let index = Int((CompassDegrees.folded(d) / 22.5).rounded(.toNearestOrAwayFromZero)) % 16
        return language.pick(en, ru, zh)[index]
    }
}
