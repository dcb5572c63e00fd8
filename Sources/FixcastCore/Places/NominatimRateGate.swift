import FoundationEssentials

/// Decides how long a Nominatim request must wait so that no two requests of this process are ever
/// less than `minimumSpacing` apart: the OSMF usage policy allows at most one request per second.
///
/// Pure and `now`-driven: the caller asks `reserve(now:)`, sleeps the returned delay, then sends. The
/// slot is booked at reservation time, so concurrent callers queue up one second apart instead of
/// all waking at the same moment.
public struct NominatimRateGate: Sendable, Hashable {
    /// One second, the policy's "absolute maximum of 1 request per second".
    public static let policySpacing: TimeInterval = 1.0

    public let minimumSpacing: TimeInterval
    /// When the most recently booked request is (or was) sent.
    public private(set) var lastSlot: Date?

    public init(minimumSpacing: TimeInterval = NominatimRateGate.policySpacing) {
        self.minimumSpacing = minimumSpacing
    }

    /// Books the next slot and returns how many seconds from `now` to wait before sending (0 = now).
    /// A clock that went backwards (`now` before the last slot by more than the spacing) still waits for
    /// the booked slot, never less.
    public mutating func reserve(now: Date) -> TimeInterval {
        let slot: Date
        if let last = lastSlot {
            let earliest = last.addingTimeInterval(minimumSpacing)
            slot = earliest > now ? earliest : now
        } else {
            slot = now
        }
        lastSlot = slot
        return slot.timeIntervalSince(now)
    }
}
