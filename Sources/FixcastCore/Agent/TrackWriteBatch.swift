/// Decides when the track points and the last-known position the reducer kept go to the store.
///
/// Together, at most `intervalS` after the oldest was kept: one commit (and one wake-up of the
/// store's thread) per few seconds instead of one per kept point, which at 10 Hz is most of the
/// store's cost. A kill -9 loses at most this much track, or what still waits unread in gpsd's
/// socket (`ReportGathering`: up to 10 s with no one watching); readings are committed at once (by
/// the reading itself).
///
/// Writing never costs a wake-up of its own: pending writes go at a turn the loop takes anyway,
/// when the next such turn would come too late (`earlyS`); the deadline stays at `intervalS` for a
/// silent gpsd.
public struct TrackWriteBatch: Sendable, Hashable {
    public static let intervalS = 5.0
    /// At 1 Hz the next fix comes within this long, so writes go at the first fix 4 s after the
    /// oldest; after a gathered read, whose next read is 10 s away, they go at once.
    public static let earlyS = 1.0

    /// When the oldest unwritten point or position was kept (nil: nothing waits).
    public private(set) var pendingSince: MonotonicInstant?

    public init() {}

    /// When the kept writes are due at the latest.
    public var deadline: MonotonicInstant? { pendingSince?.advanced(by: Self.intervalS) }

    /// A point or a position was kept at `now`.
    public mutating func kept(at now: MonotonicInstant) {
        if case .none = pendingSince { pendingSince = now }
    }

    /// Whether the kept writes go now: they would be overdue by the next turn the loop takes anyway
    /// (`nextTurn`: the end of a gather window, or a 1 Hz receiver's next fix). A yes empties the batch.
    public mutating func isDue(at now: MonotonicInstant, gatheringUntil: MonotonicInstant?) -> Bool {
        guard let due = deadline else { return false }
        let nextTurn = gatheringUntil.flatMap { $0 > now ? $0 : nil } ?? now.advanced(by: Self.earlyS)
        guard due <= nextTurn else { return false }
        pendingSince = nil
        return true
    }

    /// At shutdown: whether anything waits (a yes empties the batch).
    public mutating func takeAll() -> Bool {
        guard pendingSince != nil else { return false }
        pendingSince = nil
        return true
    }
}
