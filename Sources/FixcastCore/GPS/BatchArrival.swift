import FoundationEssentials

/// Decides when each fix of one read from gpsd arrived, so that fixes read together still carry the
/// moments they came.
///
/// The agent leaves gpsd's reports in the socket for a while and reads them together (see
/// `ReportGathering`): a headless agent reads a 1 Hz receiver every 10 s. Stamped with the moment of
/// the read, the first fixes of such a read would look up to 10 s younger than they are, and the
/// track would hold ten points with one time. Instead, the last fix of the read is taken to have
/// arrived at the read, and each earlier one that much earlier as the receiver's own clock says
/// (`receivedAt = readAt − (anchor − time)`): receivers stamp their epochs to the millisecond, and
/// gpsd passes each on as it comes.
///
/// The receiver's times are trusted only when the read could hold them: the times never run
/// backwards, and they span no more than the time since the previous read (plus `toleranceS`).
/// Otherwise (a log replayed faster than it was recorded, a clock that jumped) every fix of the read
/// is stamped with the read, as before: never older than it could be, never out of order. A fix
/// without a time (the first after gpsd learns the date, or a receiver that sends none) is stamped
/// like the fix before it in the read, or the read's earliest: the track stays in order.
public struct BatchArrival: Sendable, Hashable {
    /// Scheduling jitter between the receiver's epochs and their arrival (gpsd sends a TPV some tens
    /// of milliseconds after its epoch, the loop reads some milliseconds after a poll wakes).
    public static let toleranceS = 0.25

    public let readAt: Date
    /// The receiver time of the read's last timed fix, when the read's times can be trusted.
    public let anchor: Date?
    /// The receiver time of the read's first timed fix, when the read's times can be trusted.
    private let earliest: Date?
    /// The stamp `next` gave the fix before (nil before the first).
    private var previous: Date?

    /// - Parameters:
    ///   - fixTimes: the receiver times of the read's fixes (reports with mode ≥ 2), in the order read.
    ///     An array, not any sequence: called from another module at every read, a generic one was
    ///     run unspecialised (its types made at run time), a tenth of the agent's CPU at 1 Hz.
    ///   - readAt: when the read happened (the system clock).
    ///   - previousReadAt: when the connection was last read, or opened; nil: unknown.
    public init(fixTimes: [Date?], readAt: Date, previousReadAt: Date?) {
        self.readAt = readAt
        let span = Self.span(of: fixTimes, within: previousReadAt.map { readAt.timeIntervalSince($0) })
        anchor = span?.last
        earliest = span?.first
    }

    /// When the fix with receiver time `time` arrived; `previous` is the stamp this gave the fix before
    /// it in the same read (nil for the first).
    public func receivedAt(receiverTime time: Date?, previous: Date? = nil) -> Date {
        guard let anchor, let earliest else { return readAt }
        if let time { return readAt.addingTimeInterval(-anchor.timeIntervalSince(time)) }
        return previous ?? readAt.addingTimeInterval(-anchor.timeIntervalSince(earliest))
    }

    /// When the read's next fix arrived, the fixes taken in the order read: `receivedAt` with the stamp
    /// it gave the fix before.
    public mutating func next(receiverTime time: Date?) -> Date {
        let stamp = receivedAt(receiverTime: time, previous: previous)
        previous = stamp
        return stamp
    }

    private static func span(of times: [Date?], within windowS: Double?) -> (first: Date, last: Date)? {
        guard let windowS, windowS.isFinite, windowS >= 0 else { return nil }
        var first: Date?
        var last: Date?
        for case let time? in times {
            if let last, time < last { return nil }
            if first == nil { first = time }
            last = time
        }
        guard let first, let last, last.timeIntervalSince(first) <= windowS + toleranceS else { return nil }
        return (first, last)
    }
}
