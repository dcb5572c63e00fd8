import FoundationEssentials

/// A reading the agent must take now: why, where, whether it may be served from the 10-minute cache,
/// and what it must say about its position.
public struct ReadingRequest: Sendable, Hashable {
    public var trigger: Trigger
    public var position: Position
    /// Bypass the 10-minute weather cache (1-minute floor): resume and manual, and a startup reading
    /// that absorbed a forced request made before it.
    public var forced: Bool
    /// What the reading must say about its position (e.g. "gps: no fix since …; last known position (3 h old)").
    public var notes: [ReadingIssue]

    public init(trigger: Trigger, position: Position, forced: Bool, notes: [ReadingIssue] = []) {
        self.trigger = trigger
        self.position = position
        self.forced = forced
        self.notes = notes
    }

    /// The notes for a reading at `position` taken at `now`: none for a live fix or a fixed position;
    /// for a last-known position, since when there is no fix (or that none came yet) and its age, so
    /// a reading for where the receiver was never passes for where it is.
    public static func notes(for position: Position, fixLostSince: Date?, at now: Date) -> [ReadingIssue] {
        guard position.source == .lastKnown else { return [] }
        // One age for both commands: "3 h old" here as in `now`'s note (`GPSError.ageText`).
        let age = GPSError.ageText(seconds: position.ageSeconds(at: now))
        if let lost = fixLostSince {
            return [
                ReadingIssue(
                    component: .gps,
                    message:
                        "gps: no fix since \(UTCTime.format(lost)); the reading is for the last known position (\(age) old)."
                )
            ]
        }
        return [
            ReadingIssue(
                component: .gps, message: "gps: no fix yet; the reading is for the last known position (\(age) old).")
        ]
    }
}
