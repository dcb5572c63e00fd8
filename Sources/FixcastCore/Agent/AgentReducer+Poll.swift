import FoundationEssentials

extension AgentReducer {
    /// The longest the loop sleeps in one wait with a deadline set: an hour, so a deadline far
    /// off (a period of days) never overflows poll's milliseconds, and the loop just goes round.
    public static let longestPollMs: Int32 = 3_600_000

    /// How long the loop's wait (its poll) may sleep at `now`, in milliseconds: until the next deadline,
    /// rounded up so the wake-up is never before it (a wake-up a moment early would find nothing due
    /// and poll again for 0 ms); 0 when a report is held already (`reportHeld`: poll would not wake
    /// for it); -1 when nothing is timed (sleep until an event).
    public func pollTimeoutMs(at now: MonotonicInstant, reportHeld: Bool) -> Int32 {
        Self.pollTimeoutMs(until: nextDeadline, at: now, reportHeld: reportHeld)
    }

    /// `pollTimeoutMs(at:reportHeld:)` with the deadline passed in: the loop passes `nextDeadline`, because
    /// calling the method on the loop's stored reducer made Swift copy the whole reducer (every field
    /// retained, then released) at every turn, and reading `nextDeadline` does not.
    public static func pollTimeoutMs(until deadline: MonotonicInstant?, at now: MonotonicInstant, reportHeld: Bool)
        -> Int32
    {
        if reportHeld { return 0 }
        guard let deadline else { return -1 }
        let waitMs = max(0, deadline.seconds(since: now)) * 1000
        return Int32(min(waitMs, Double(Self.longestPollMs)).rounded(.up))
    }

    /// Whether the loop watches stdout for its reader going away (`| head -1`, shown as POLLERR):
    /// JSON lines to a pipe (`Configuration.printsToAPipe`) of a run that goes on. `now` takes and
    /// stores its reading whoever reads it, and not while leaving.
    public var watchesOutputReader: Bool {
        configuration.printsToAPipe && !configuration.liveScreen && !configuration.stopsAfterFirstReading
            && listensToPeople
    }
}
