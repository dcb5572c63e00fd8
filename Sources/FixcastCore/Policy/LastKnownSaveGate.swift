/// Decides when a fix is written as the last-known position.
///
/// At most every `intervalS` (10 s): enough to resume near where the receiver was after a restart
/// or a crash, without a disk write per fix (a 10 Hz receiver would write 36,000 times an hour to
/// an SD card). Driven by monotonic time; a time before the last save (which only a
/// caller's mistake can give) saves at once and restarts from there rather than starving the position.
public struct LastKnownSaveGate: Sendable, Hashable {
    /// The default interval, seconds.
    public static let defaultIntervalS: Double = 10

    public var intervalS: Double
    /// When the last-known position was last saved (nil before the first).
    public private(set) var lastSavedAt: MonotonicInstant?

    public init(intervalS: Double = LastKnownSaveGate.defaultIntervalS) {
        self.intervalS = intervalS
    }

    /// Whether to save now; a yes is counted as a save.
    public mutating func shouldSave(at now: MonotonicInstant) -> Bool {
        if let last = lastSavedAt, now >= last, now.seconds(since: last) < intervalS { return false }
        lastSavedAt = now
        return true
    }
}
