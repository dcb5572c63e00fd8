/// Decides when the official alerts are asked for again, and which active alerts are news.
///
/// - **When**: the first check goes with the first reading; then one every `intervalS`
///   (`alerts.check_min`, 10 min: the sources update about that often, and asking one source more
///   often for the same spot only spends its goodwill).
/// - **News**: an alert identity (`AlertIdentity`: the same id across its updates) that was not
///   active at the last check, wherever that was: `alerts.command` runs once per new identity
///   (CONTRACT.md "Alerts"), so driving on under one large warning, or starting `run` again, tells it
///   once. One that stopped applying (ended, or left behind) and applies again is news again. A check
///   that got no answer changes nothing: an outage is not the end of an alert. The seen set is a
///   value the loop keeps in the store (`seenIDs`, `init(seen:)`), so a restart does not tell again.
public struct AlertWatch: Sendable, Hashable {
    public var intervalS: Double
    /// When the last check was asked for (nil before the first).
    public private(set) var lastCheckAt: MonotonicInstant?
    /// The ids active at the last answered check.
    public private(set) var seenIDs: Set<String>

    /// As many ids as a check's report keeps (`AlertReport.maxAlerts`): fewer, and the alerts beyond
    /// them (a country-wide storm listed where the area table cannot place it) were news at every
    /// check; more is not a real state.
    public static let maxSeen = AlertReport.maxAlerts

    public init(intervalMin: Double, seen: Set<String> = []) {
        self.intervalS = max(0, intervalMin) * 60
        self.seenIDs = Set(seen.sorted().prefix(Self.maxSeen))
    }

    /// When the next check is due (nil before the first: the first reading starts the checks).
    public var nextCheckAt: MonotonicInstant? { lastCheckAt?.advanced(by: intervalS) }

    /// Whether a periodic check is due at `now`.
    public func isDue(at now: MonotonicInstant) -> Bool {
        guard let due = nextCheckAt else { return false }
        return now >= due
    }

    /// A check was asked for at `now`.
    public mutating func checkStarted(now: MonotonicInstant) {
        lastCheckAt = now
    }

    /// The ids among `active` not active at the last answered check (in their order, once each);
    /// `active` becomes what was seen.
    public mutating func news(in active: [String]) -> [String] {
        var fresh: [String] = []
        var now = Set<String>()
        for id in active where now.insert(id).inserted && !seenIDs.contains(id) { fresh.append(id) }
        seenIDs = Set(now.sorted().prefix(Self.maxSeen))
        return fresh
    }
}
