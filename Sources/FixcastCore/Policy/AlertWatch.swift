/// Decides when the official alerts are asked for again, and which active alerts are news.
///
/// - **When**: the first check goes with the first reading; then one every `intervalS`
///   (`alerts.check_min`, 10 min: the sources update about that often, and asking one source more
///   often for the same spot only spends its goodwill).
/// - **News**: an id not seen before at this position. The seen set is forgotten when a check is
///   more than `resetDistanceKm` (`trigger.move_km`) from where it was started: an alert already
///   known here is news again after a move, because the person is now somewhere else it applies.
public struct AlertWatch: Sendable, Hashable {
    public var intervalS: Double
    public var resetDistanceKm: Double
    /// When the last check was asked for (nil before the first).
    public private(set) var lastCheckAt: MonotonicInstant?
    /// Ids already seen at this position.
    public private(set) var seenIDs: Set<String> = []
    /// Where the seen set started.
    public private(set) var seenAround: Coordinate?

    public init(intervalMin: Double, resetDistanceKm: Double) {
        self.intervalS = max(0, intervalMin) * 60
        self.resetDistanceKm = resetDistanceKm
    }

    /// When the next check is due (nil before the first: the first reading starts the checks).
    public var nextCheckAt: MonotonicInstant? { lastCheckAt?.advanced(by: intervalS) }

    /// Whether a periodic check is due at `now`.
    public func isDue(at now: MonotonicInstant) -> Bool {
        guard let due = nextCheckAt else { return false }
        return now >= due
    }

    /// A check for `coordinate` was asked for at `now`; a check far from the seen set's start forgets it.
    public mutating func checkStarted(at coordinate: Coordinate, now: MonotonicInstant) {
        lastCheckAt = now
        if let around = seenAround, GreatCircle.distanceKm(around, coordinate) <= resetDistanceKm { return }
        seenIDs = []
        seenAround = coordinate
    }

    /// The ids among `active` not seen before at this position (in their order); all become seen.
    public mutating func news(in active: [String]) -> [String] {
        var fresh: [String] = []
        for id in active where seenIDs.insert(id).inserted { fresh.append(id) }
        return fresh
    }
}
