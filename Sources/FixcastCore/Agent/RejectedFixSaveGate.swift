/// Decides when the counts of implausible fixes (`RejectedFixCounts`) are added to the store's totals,
/// which `fixcast status` shows.
///
/// At most every `intervalS` (10 s): `status` is looked at by a person, and a receiver sending
/// garbage at 10 Hz must not cost a write per fix. Nothing new since the last save is never saved;
/// what is left unsaved goes at shutdown. Driven by monotonic seconds passed in (the loop's clock
/// never jumps with the wall clock).
public struct RejectedFixSaveGate: Sendable, Hashable {
    public static let defaultIntervalS = 10.0

    public let intervalS: Double
    /// The counts the store already has (from this run).
    public private(set) var saved = RejectedFixCounts()
    /// When they were last saved (monotonic seconds); nil before the first save.
    public private(set) var savedAt: Double?

    public init(intervalS: Double = RejectedFixSaveGate.defaultIntervalS) {
        self.intervalS = intervalS
    }

    /// The counts to add to the store's totals now, or nil: nothing new, or the last save was less
    /// than `intervalS` ago (unless `force`, at shutdown). A non-nil answer counts as saved.
    public mutating func toSave(total: RejectedFixCounts, at now: Double, force: Bool = false) -> RejectedFixCounts? {
        guard total != saved else { return nil }
        if !force, let last = savedAt, now >= last, now - last < intervalS { return nil }
        let delta = RejectedFixCounts(
            nullIsland: total.nullIsland - saved.nullIsland, jump: total.jump - saved.jump,
            time: total.time - saved.time)
        saved = total
        savedAt = now
        return delta
    }
}
