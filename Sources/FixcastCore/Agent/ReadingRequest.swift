import FoundationEssentials

/// A reading the agent must take now: why, where, whether it may be served from the 10-minute cache,
/// and what it must say about its position.
public struct ReadingRequest: Sendable, Hashable {
    public var trigger: Trigger
    public var position: Position
    /// Bypass the 10-minute weather cache (1-minute floor): resume and manual, and a startup reading
    /// that absorbed a forced request made before it.
    public var forced: Bool
    /// What the reading must say about its position (`lastKnownNote`).
    public var notes: [ReadingIssue]

    public init(trigger: Trigger, position: Position, forced: Bool, notes: [ReadingIssue] = []) {
        self.trigger = trigger
        self.position = position
        self.forced = forced
        self.notes = notes
    }

    /// Why a reading is for the last known position and not a live fix: the one part in which the
    /// last-known note of `now` and of `run` differ.
    public enum LastKnownReason: Sendable, Hashable {
        /// The startup wait ended without a fix (`FixWaitPolicy`); gpsd's address for the sentence.
        case fixWait(FixWaitFailure, address: String)
        /// A fix was had and lost at this time.
        case fixLostSince(Date)
        /// No fix came since the start (`run`'s readings after the startup one).
        case noFixYet
        /// The startup wait ended because `gps.host`'s name could not be looked up in time.
        case hostNotLookedUp(address: String)
    }

    /// The one last-known note, for every command: why there is no live fix, then the last known
    /// position's time and age ("gps: no fix after 3 tries of 8 s; using the last known position
    /// from 2026-01-30T09:00:00Z, 3 h old."), so a reading for where the receiver was never passes
    /// for where it is. nil for a live fix or a fixed position.
    public static func lastKnownNote(for position: Position, because reason: LastKnownReason, at now: Date)
        -> ReadingIssue?
    {
        guard position.source == .lastKnown else { return nil }
        let why: String
        switch reason {
        case .fixWait(.unreachable, let address): why = "gpsd at \(address) is not answering"
        case .fixWait(.noFix(let n, let t), _): why = "no fix after \(GPSError.tries(n, t))"
        case .fixWait(.connectionLost(let n, let t), let address):
            why = "gpsd at \(address) went away and no fix came within \(GPSError.tries(n, t))"
        case .fixLostSince(let lost): why = "no fix since \(UTCTime.format(lost))"
        case .noFixYet: why = "no fix yet"
        case .hostNotLookedUp(let address):
            why = "\(GPSError.hostNotLookedUp(address)) (set gps.host to an address)"
        }
        // Stored while the clock read ahead (`ClockStep`): its age is not known, and "0 s old" would lie.
        let age =
            ClockStep.isAhead(position.obtainedAt, of: now)
            ? "a time ahead of the system clock"
            : "\(GPSError.ageText(seconds: position.ageSeconds(at: now))) old"
        return ReadingIssue(
            component: .gps,
            message: "gps: \(why); using the last known position from \(UTCTime.format(position.obtainedAt)), \(age).")
    }
}
