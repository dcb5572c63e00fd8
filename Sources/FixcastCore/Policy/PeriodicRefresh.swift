/// Decides when the weather is due again while the position stays put.
///
/// Every `periodic_min` (30) minutes since the last reading, whatever triggered it: a move, a
/// resume or a key press resets the period, so the API is not asked twice in a row for the same
/// place. 30 minutes is the seed's (PlaneWX) interval and the update step of the public models.
public struct PeriodicRefresh: Sendable, Hashable {
    /// `trigger.periodic_min`, in seconds.
    public var intervalS: Double
    /// When the last reading was taken (monotonic; nil before the first).
    public private(set) var lastReadingAt: MonotonicInstant?

    public init(intervalMin: Double = 30, lastReadingAt: MonotonicInstant? = nil) {
        self.intervalS = intervalMin * 60
        self.lastReadingAt = lastReadingAt
    }

    /// True when a reading was taken before and `intervalS` has passed since. Before the first
    /// reading nothing is periodic (the startup trigger owns the first one).
    public func isDue(at now: MonotonicInstant) -> Bool {
        guard let due = dueAt else { return false }
        return now >= due
    }

    /// When the next periodic reading is due (nil before the first reading).
    public var dueAt: MonotonicInstant? { lastReadingAt?.advanced(by: intervalS) }

    /// Any reading, of any trigger, restarts the period.
    public mutating func readingTaken(at time: MonotonicInstant) {
        lastReadingAt = time
    }
}
