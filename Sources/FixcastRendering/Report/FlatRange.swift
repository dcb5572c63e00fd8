/// Widens a range that is flatter than a chart can show around its middle.
///
/// A trip in one weather (16.8 °C all along) has no range: stretched over the values themselves, a
/// colour scale would spread sensor noise over every colour, and an axis would put the line on its
/// bottom edge (`NiceTicks` widened it upwards only), where it is hard to see. Widened evenly, the
/// values sit in the middle of the colours and of the axis. One rule for both (`TemperatureColorScale`,
/// the profile's temperature axis) and for any axis given no range at all (`NiceTicks`).
public enum FlatRange {
    /// `[low, high]`, or when it is narrower than `span`, the range `span` wide around its middle.
    public static func widened(low: Double, high: Double, toAtLeast span: Double) -> (low: Double, high: Double) {
        guard high - low < span else { return (low, high) }
        let mid = (low + high) / 2
        return (mid - span / 2, mid + span / 2)
    }
}
