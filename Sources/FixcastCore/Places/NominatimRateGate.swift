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

// MARK: - Across processes

/// The shared booking: every process using one store books its Nominatim slot in the store's `state`
/// table, so two `fixcast now` runs (or `now` beside `run`) keep the policy's spacing between them too.
extension NominatimRateGate {
    /// The `state` key holding the latest Nominatim activity of any process on the store.
    public static let sharedStateKey = "nominatim.last_request"

    /// A stored time further ahead of `now` than this was written before the wall clock was set back
    /// (a real queue of `fixcast` processes is a few seconds long), so it is ignored rather than obeyed
    /// for hours.
    public static let sharedHorizon: TimeInterval = 60

    /// How much later than its booked slot another process's request may reach the server: between
    /// the booking and the send it builds the request, and its first one loads libcurl and connects.
    /// That took 54 ms more than the next process's on a loaded 2-core CI machine, so two `fixcast now`
    /// started together reached the server 0.996 s apart with only `NominatimLimiter.safetyMargin`.
    /// A quarter of a second covers a busy Pi, and it is waited only when two processes contend.
    public static let sharedSendAllowance: TimeInterval = 0.25

    /// The slot this process books after `stored` (the latest shared activity, nil = none), and how many
    /// seconds from `now` to wait for it. Like `reserve(now:)`, one spacing after the stored time, plus
    /// `sharedSendAllowance` (the stored slot says when the other process meant to send, not when its
    /// request left); the caller writes `slot` back in the same transaction, so the next process queues
    /// behind it.
    public func sharedSlot(after stored: Date?, now: Date) -> (slot: Date, delay: TimeInterval) {
        var slot = now
        if let stored, stored.timeIntervalSince(now) <= NominatimRateGate.sharedHorizon {
            slot = max(slot, stored.addingTimeInterval(minimumSpacing + NominatimRateGate.sharedSendAllowance))
        }
        return (slot, slot.timeIntervalSince(now))
    }

    /// What to store when a request finishes at `finish`: the later of it and `stored`, so a process
    /// booking after this answer spaces from it (unless `stored` is beyond the horizon, see `sharedHorizon`).
    public static func sharedLatest(stored: Date?, finished finish: Date) -> Date {
        guard let stored, stored.timeIntervalSince(finish) <= sharedHorizon else { return finish }
        return max(stored, finish)
    }

    /// The stored text of a shared time: seconds since 1970.
    public static func sharedStateText(_ time: Date) -> String {
        String(time.timeIntervalSince1970)
    }

    /// The time in a stored text, nil when it is not a finite number (a damaged value is ignored).
    public static func sharedStateTime(_ text: String?) -> Date? {
        guard let text, let seconds = Double(text), seconds.isFinite else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}
