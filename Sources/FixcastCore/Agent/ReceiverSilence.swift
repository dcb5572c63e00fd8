/// Decides when a receiver that stopped sending fixes counts as having lost its fix, though gpsd is
/// still connected and said nothing.
///
/// gpsd tells when the receiver reports no fix (a TPV of mode 1) and the socket tells when gpsd itself
/// goes away. A receiver that just stops talking (a serial cable pulled, a USB receiver that hung, a
/// gpsd left with a device that sends nothing) makes gpsd send nothing at all: without this rule the
/// last fix stayed "live" for ever, its age counting up, and readings were taken at it as a fix.
///
/// The fix counts as lost once no fix has been read for `limitS`: 3 of the receiver's report
/// intervals, as the reads show them, but never less than `minimumS`. 15 s, because a headless run
/// reads a 1 Hz receiver's reports 10 s at a time (`ReportGathering.headlessWindowS`), so a read may
/// bring a fix 10 s after the one before; a receiver set to a fix every 10 s is given 30 s. The
/// interval counted is capped at `longestIntervalS`, so a gap (a tunnel, a suspend) cannot put the
/// rule off for good. Driven by monotonic instants; owned by `GPSDLink`, which knows the reads.
public struct ReceiverSilence: Sendable, Hashable {
    /// The shortest silence that counts (see the type's comment).
    public static let minimumS = 15.0
    /// Missed report intervals that make a silence.
    public static let intervalsMissed = 3.0
    /// The longest report interval counted: one fix a minute is as slow as receivers are set.
    public static let longestIntervalS = 60.0

    /// When the last read that brought fixes happened (nil: none since the connection, or since the
    /// fix was lost).
    public private(set) var lastFixReadAt: MonotonicInstant?
    /// The receiver's report interval, as the last reads with fixes showed it.
    public private(set) var intervalS: Double?
    /// The silence was noticed (`isDue`), and no fix has been read since.
    public private(set) var isSilent = false

    public init() {}

    /// How long a silence must last.
    public var limitS: Double {
        max(Self.minimumS, Self.intervalsMissed * min(intervalS ?? 0, Self.longestIntervalS))
    }

    /// When the silence would begin to count (nil: no fix to lose, or already noticed).
    public var deadline: MonotonicInstant? {
        guard !isSilent, let last = lastFixReadAt else { return nil }
        return last.advanced(by: limitS)
    }

    /// A read brought fixes at `now`; `intervalS` is the receiver's report interval it shows
    /// (`ReportGathering.reportIntervalS`; nil: not known yet, the last one known stands).
    public mutating func fixesRead(intervalS interval: Double?, at now: MonotonicInstant) {
        if let interval { intervalS = interval }
        lastFixReadAt = now
        isSilent = false
    }

    /// Whether the silence counts at `now`: true once, when it begins to.
    public mutating func isDue(at now: MonotonicInstant) -> Bool {
        guard let due = deadline, now >= due else { return false }
        isSilent = true
        return true
    }

    /// The machine slept: a silence counts from `now` (the wake-up), if a fix was being watched.
    public mutating func resumed(at now: MonotonicInstant) {
        guard lastFixReadAt != nil, !isSilent else { return }
        lastFixReadAt = now
    }

    /// There is no fix to wait for: gpsd said the fix is lost, or the connection ended. The next fix
    /// read starts the watch again; the interval learnt is forgotten with the connection.
    public mutating func noFix(connectionEnded: Bool) {
        lastFixReadAt = nil
        isSilent = false
        if connectionEnded { intervalS = nil }
    }
}
