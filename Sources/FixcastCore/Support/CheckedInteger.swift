import FoundationEssentials

/// The one way fixcast turns a Double into an integer: `Int(checked:)` is nil for NaN, ±infinity and
/// any value outside the integer's range, where Swift's `Int(_:)` traps (issue 23: a stored time of
/// 1e300 crashed `trips`). Every Double that can come from outside (network, gpsd, the store, a file,
/// a setting) goes through it before it becomes an integer.
extension Int {
    /// `value` rounded by `rule`, or nil when the result would not fit an `Int`.
    public init?(checked value: Double, rounding rule: FloatingPointRoundingRule = .towardZero) {
        let r = value.rounded(rule)
        // 2^63 is exactly representable; every finite Double below it and at or above -2^63 fits.
        guard r.isFinite, r >= -9_223_372_036_854_775_808.0, r < 9_223_372_036_854_775_808.0 else { return nil }
        self.init(r)
    }

    /// `value` rounded by `rule` and clamped to `range` (NaN gives the lower bound): for a timeout or
    /// a count whose absurd values mean "as much as allowed" rather than "unknown".
    public init(
        clamping value: Double, to range: ClosedRange<Int>, rounding rule: FloatingPointRoundingRule = .towardZero
    ) {
        guard !value.isNaN else {
            self = range.lowerBound
            return
        }
        let r = value.rounded(rule)
        if r <= Double(range.lowerBound) {
            self = range.lowerBound
        } else if r >= Double(range.upperBound) {
            self = range.upperBound
        } else {
            self.init(r)
        }
    }

    /// `self + other`, held at `Int.max` (or `Int.min`) where `+` would trap: how a count kept in the
    /// store grows, since a damaged store can hand back any integer (a stored count of `Int.max` crashed
    /// `status` and `run`).
    public func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? Int.max : Int.min
    }
}

/// The times fixcast believes: 1970-01-01 up to 2200-01-01 UTC. A stored, received or parsed time outside
/// them (a receiver's week-rollover, a hand-edited row, 1e300) is unknown, never a fact (issue 23/24: "times
/// outside 1970–2200 are unknown"). Inside it every time formats as a four-digit year and converts safely.
public enum PlausibleTime {
    /// 2200-01-01T00:00:00Z in seconds since 1970.
    public static let latestSeconds = 7_258_118_400.0

    /// Whether `seconds` since 1970 is inside the window.
    public static func contains(_ seconds: Double) -> Bool { seconds >= 0 && seconds < latestSeconds }

    /// The date of `seconds` since 1970 when it is inside the window, else nil.
    public static func date(_ seconds: Double) -> Date? {
        contains(seconds) ? Date(timeIntervalSince1970: seconds) : nil
    }

    /// An ISO 8601 time or date (`UTCTime.parse`) when it is inside the window, else nil: how a time an
    /// API sends is read (a sunrise in year 0000 is a broken answer, not a sunrise).
    public static func parse(_ text: String) -> Date? {
        UTCTime.parse(text).flatMap { contains($0.timeIntervalSince1970) ? $0 : nil }
    }
}
