import FixcastCore
import FoundationEssentials

/// A map scale bar: a round length (1, 2 or 5 times a power of ten, in km or miles) and how many
/// pixels it spans.
public struct ScaleBar: Sendable, Hashable {
    /// The length in the display unit (km or mi).
    public let length: Double
    public let unit: String
    public let pixels: Double

    /// The longest round length that fits in `maxPixels` at `metresPerPixel`; nil for a
    /// degenerate scale (zero, negative or not finite).
    public init?(metresPerPixel: Double, maxPixels: Double, units: UnitSystem) {
        guard metresPerPixel.isFinite, metresPerPixel > 0, maxPixels > 0 else { return nil }
        let unitMetres = units == .metric ? 1000.0 : 1609.344
        let maxLength = maxPixels * metresPerPixel / unitMetres
        guard maxLength.isFinite, maxLength > 0 else { return nil }
        var power = Elementary.pow(10, Elementary.log10(maxLength).rounded(.down))
        var best = power
        for step in [1.0, 2.0, 5.0] where step * power <= maxLength { best = step * power }
        if best > maxLength {
            power /= 10
            best = 5 * power
        }
        length = best
        unit = units == .metric ? "km" : "mi"
        pixels = best * unitMetres / metresPerPixel
    }

    /// "5 km", "0.5 mi", "200 km".
    public var label: String {
        let text =
            length >= 1
            ? NumberText.fixed(length, decimals: 0) : NumberText.fixed(length, decimals: length >= 0.1 ? 1 : 2)
        return text + " " + unit
    }
}
