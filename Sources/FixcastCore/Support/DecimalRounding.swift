/// A value kept to a number of decimal places where fixcast writes it for people and programs to read
/// (0.1 °C, 0.1 km, 1e-5° ≈ 1 m), as a provider sends its own: one rule for the derived temperatures,
/// the ahead forecast's JSON, its checks against what was met, and the exports' text.
public enum DecimalRounding {
    /// `value` to `places` decimals, halves away from zero; a value that is not finite is returned as it is.
    public static func rounded(_ value: Double, places: Int) -> Double {
        guard value.isFinite else { return value }
        var scale = 1.0
        for _ in 0..<max(0, places) { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
