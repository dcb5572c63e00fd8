/// Decides whether the machine just came back from a suspend long enough to refresh the weather.
///
/// The seed's foreground gate (MeteoHealth, cause 5) ported to Linux: "returned from background"
/// becomes "resumed from suspend". The input is the sleep offset, CLOCK_BOOTTIME − CLOCK_MONOTONIC,
/// sampled by the agent over time: both clocks advance together while the machine runs, and only
/// BOOTTIME advances while it is suspended, so the offset grows by exactly the time spent asleep.
///
/// - The first sample (cold start) is only a baseline, never a resume: the seed's first version
///   measured from the last refresh and loaded twice at launch (01:15:23 and 01:15:26).
/// - A refresh only when the offset grew by at least `minAwayS` (30 s, `trigger.resume_min_away_s`)
///   since the previous sample: a lid closed for a few seconds leaves the weather as fresh as it was,
///   and a refresh then would only spend the shared API limit.
public struct ResumeGate: Sendable, Hashable {
    /// A sample that moved less than this since the last one passed on says nothing: the two clocks are
    /// read one after the other, so successive samples differ by a few hundred nanoseconds while the
    /// machine runs, and a suspend (even a lid closed for a moment) lasts whole seconds. The agent
    /// passes on only the samples that moved this much, instead of one at every wake-up (at 1 Hz, one
    /// reducer turn a second that decides nothing).
    public static let sampleResolutionS = 0.5

    /// Whether `sleepOffsetS` is worth a sample after `lastPassedOn` (the last one passed on; nil: none yet).
    public static func isNews(_ sleepOffsetS: Double, after lastPassedOn: Double?) -> Bool {
        guard let last = lastPassedOn else { return true }
        return abs(sleepOffsetS - last) >= sampleResolutionS
    }

    /// `trigger.resume_min_away_s`.
    public var minAwayS: Double
    /// The previous sample of the sleep offset, seconds (nil before the first).
    public private(set) var lastOffsetS: Double?

    public init(minAwayS: Double = 30) {
        self.minAwayS = minAwayS
    }

    /// Seconds the machine was suspended since the previous sample (nil on the first sample or a
    /// non-finite value). A shrinking offset (impossible on Linux; a clock bug) counts as 0.
    public mutating func sample(sleepOffsetS: Double) -> Double? {
        guard sleepOffsetS.isFinite else { return nil }
        defer { lastOffsetS = sleepOffsetS }
        guard let last = lastOffsetS else { return nil }
        return max(0, sleepOffsetS - last)
    }

    /// Takes a sample: the seconds the machine slept, when that is a resume worth a (forced) refresh;
    /// nil otherwise.
    public mutating func resume(sleepOffsetS: Double) -> Double? {
        guard let away = sample(sleepOffsetS: sleepOffsetS), away >= minAwayS else { return nil }
        return away
    }
}
