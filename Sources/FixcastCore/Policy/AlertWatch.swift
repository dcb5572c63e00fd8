/// Decides when the official alerts are asked for again, and which active alerts are news.
///
/// - **When**: the first check goes with the first reading; then one every `intervalS`
///   (`alerts.check_min`, 10 min: the sources update about that often, and asking one source more
///   often for the same spot only spends its goodwill).
/// - **News**: an alert identity (`AlertIdentity`: the same id across its updates) that was not
///   active at the last check, wherever that was: `alerts.command` runs once per new identity
///   (CONTRACT.md "Alerts"), so driving on under one large warning, or starting `run` again, tells it
///   once. One that stopped applying (ended, or left behind) for an hour's checks (`graceChecks`) and
///   applies again is news again; one back sooner is not: an NWS message that expires before its update
///   comes (the update keeps its identity), a source that leaves an alert out of one answer, or a
///   position wavering at an area's border told it twice. A check that got no answer changes nothing:
///   an outage is not the end of an alert. What is remembered is a value the loop keeps in the store
///   (`remembered`, `init(seen:)`), so a restart does not tell again.
public struct AlertWatch: Sendable, Hashable {
    public var intervalS: Double
    /// When the last check was asked for (nil before the first).
    public private(set) var lastCheckAt: MonotonicInstant?
    /// The ids active at the last answered check.
    public private(set) var seenIDs: Set<String>
    /// Ids active before and missing since, with how many answered checks they have been missing.
    public private(set) var lapsed: [String: Int] = [:]

    /// As many ids as a check's report keeps (`AlertReport.maxAlerts`): fewer, and the alerts beyond
    /// them (a country-wide storm listed where the area table cannot place it) were news at every
    /// check; more is not a real state.
    public static let maxSeen = AlertReport.maxAlerts

    public init(intervalMin: Double, seen: Set<String> = []) {
        self.intervalS = max(0, intervalMin) * 60
        // What `remembered` keeps: the active ids and the lapsed ones, each at most `maxSeen`.
        self.seenIDs = Set(seen.sorted().prefix(2 * Self.maxSeen))
    }

    /// How many answered checks an alert may be missing from and still not be news when it is back:
    /// an hour's worth (at least one).
    public var graceChecks: Int { max(1, Int(clamping: 3600 / max(intervalS, 1), to: 1...1000, rounding: .up)) }

    /// What the store keeps: the ids active at the last check and those lapsed within the grace.
    public var remembered: [String] { Set(seenIDs).union(lapsed.keys).sorted() }

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

    /// The ids among `active` neither active at the last answered check nor lapsed within the grace (in
    /// their order, once each); `active` becomes what was seen, and what went missing starts its grace.
    public mutating func news(in active: [String]) -> [String] {
        var fresh: [String] = []
        var now = Set<String>()
        for id in active where now.insert(id).inserted && !seenIDs.contains(id) && lapsed[id] == nil {
            fresh.append(id)
        }
        var stillLapsed: [String: Int] = [:]
        for (id, checks) in lapsed where !now.contains(id) && checks < graceChecks { stillLapsed[id] = checks + 1 }
        for id in seenIDs where !now.contains(id) { stillLapsed[id] = 1 }
        // Bounded as the seen set is: the most recently lapsed first.
        lapsed = Dictionary(
            uniqueKeysWithValues: stillLapsed.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(Self.maxSeen)
                .map { ($0.key, $0.value) })
        seenIDs = Set(now.sorted().prefix(Self.maxSeen))
        return fresh
    }
}
