import FoundationEssentials

/// Decides how long a Nominatim request must wait so that no two requests of this process ever reach
/// the server less than `minimumSpacing` apart: the OSMF usage policy allows at most one request per second.
///
/// Pure and `now`-driven. The caller asks `reserve(now:)`, sleeps the returned delay, sends, and reports
/// `finished(at:)` when the answer (or failure) is in. The next slot is one spacing after both the last
/// start and the last finish: fixcast cannot see when a request reaches the server, only that it arrived
/// before its answer, so spacing from the finish holds even when the network delays one request and not
/// the next. The slot is booked at reservation time, so callers queue up instead of waking together.
public struct NominatimRateGate: Sendable, Hashable {
    /// One second, the policy's "absolute maximum of 1 request per second".
    public static let policySpacing: TimeInterval = 1.0

    public let minimumSpacing: TimeInterval
    /// When the most recently booked request is (or was) sent.
    public private(set) var lastSlot: Date?
    /// When the most recent request finished.
    public private(set) var lastFinish: Date?

    public init(minimumSpacing: TimeInterval = NominatimRateGate.policySpacing) {
        self.minimumSpacing = minimumSpacing
    }

    /// Books the next slot and returns how many seconds from `now` to wait before sending (0 = now).
    /// A clock that went backwards still waits for the booked slot, never less.
    public mutating func reserve(now: Date) -> TimeInterval {
        var slot = now
        if let last = lastSlot { slot = max(slot, last.addingTimeInterval(minimumSpacing)) }
        if let finish = lastFinish { slot = max(slot, finish.addingTimeInterval(minimumSpacing)) }
        lastSlot = slot
        return slot.timeIntervalSince(now)
    }

    /// Records that a request finished (answered or failed) at `time`.
    public mutating func finished(at time: Date) {
        if let finish = lastFinish, finish > time { return }
        lastFinish = time
    }
}
