import FixcastCore
import FoundationEssentials

/// Axis ticks at round values (1, 2 or 5 times a power of ten) covering a range, about `count` of them.
public enum NiceTicks {
    /// The tick step and the range widened outwards to whole steps.
    public static func ticks(low: Double, high: Double, count: Int = 5) -> (step: Double, low: Double, high: Double) {
        var lo = low.isFinite ? low : 0
        var hi = high.isFinite ? high : 1
        // No range (one value): a range of 1 around it, so that value is drawn mid-axis.
        if hi <= lo { (lo, hi) = FlatRange.widened(low: lo, high: lo, toAtLeast: 1) }
        let raw = (hi - lo) / Double(max(1, count))
        let power = Elementary.pow(10, Elementary.log10(raw).rounded(.down))
        var step = power
        for m in [1.0, 2.0, 5.0, 10.0] where m * power >= raw {
            step = m * power
            break
        }
        lo = (lo / step).rounded(.down) * step
        hi = (hi / step).rounded(.up) * step
        return (step, lo, hi)
    }

    /// The tick values from `low` to `high` by `step` (at most 50, so a bad range cannot explode).
    public static func values(step: Double, low: Double, high: Double) -> [Double] {
        var out: [Double] = []
        var v = low
        while v <= high + step * 1e-9 && out.count < 50 {
            out.append(abs(v) < step * 1e-9 ? 0 : v)
            v += step
        }
        return out
    }
}
