/// Decides when the weather is due again while the position stays put.
///
/// Every `periodic_min` (30) minutes since the last reading, whatever triggered it: a move, a
/// resume or a key press resets the period, so the API is not asked twice in a row for the same
/// place. 30 minutes is the seed's (PlaneWX) interval and the update step of the public models.
///
/// Sooner while the weather is missing: a reading that got no fresh weather (the network down at the
/// start, the service failing; `weatherMissed`) is followed by the next one after 1, 2, 5 and then
/// every 10 minutes (`weatherRetryDelaysS`), never later than the period: a person at a desk whose
/// laptop woke before its Wi-Fi had no weather for half an hour. The weather service's own back-off
/// (429, 5xx, Retry-After) still holds its requests back; such a reading asks nothing and says why.
public struct PeriodicRefresh: Sendable, Hashable {
    /// The waits after 1, 2, 3 and more readings in a row without fresh weather: a moment's outage
    /// (a Wi-Fi joining, a DHCP lease) is over within a minute or two; a longer one is not helped by
    /// asking more often than every 10 minutes, the weather cache's own lifetime.
    public static let weatherRetryDelaysS: [Double] = [60, 120, 300, 600]

    /// `trigger.periodic_min`, in seconds.
    public var intervalS: Double
    /// The waits used while the weather is missing (`weatherRetryDelaysS`; empty: none, as with
    /// `--offline`, which asks no service).
    public let retryDelaysS: [Double]
    /// When the last reading was taken (monotonic; nil before the first).
    public private(set) var lastReadingAt: MonotonicInstant?
    /// How many readings in a row ended without fresh weather, counted up to the last of `retryDelaysS`
    /// (the wait after it is the last delay again).
    public private(set) var weatherMissed = 0

    public init(
        intervalMin: Double = 30, lastReadingAt: MonotonicInstant? = nil,
        retryDelaysS: [Double] = PeriodicRefresh.weatherRetryDelaysS
    ) {
        self.intervalS = intervalMin * 60
        self.lastReadingAt = lastReadingAt
        self.retryDelaysS = retryDelaysS
    }

    /// True when a reading was taken before and `intervalS` has passed since. Before the first
    /// reading nothing is periodic (the startup trigger owns the first one).
    public func isDue(at now: MonotonicInstant) -> Bool {
        guard let due = dueAt else { return false }
        return now >= due
    }

    /// When the next periodic reading is due (nil before the first reading).
    public var dueAt: MonotonicInstant? { lastReadingAt?.advanced(by: waitS) }

    /// The wait after the last reading: the period, or a shorter one while the weather is missing.
    public var waitS: Double {
        guard weatherMissed > 0 else { return intervalS }
        return min(intervalS, retryDelaysS[weatherMissed - 1])
    }

    /// Any reading, of any trigger, restarts the period.
    public mutating func readingTaken(at time: MonotonicInstant) {
        lastReadingAt = time
    }

    /// A reading ended, with fresh weather or without (none, or only stored weather served stale).
    public mutating func readingEnded(withFreshWeather fresh: Bool) {
        weatherMissed = fresh ? 0 : min(weatherMissed + 1, retryDelaysS.count)
    }
}
