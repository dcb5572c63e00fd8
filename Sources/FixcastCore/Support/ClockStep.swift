import FoundationEssentials

/// Decides that a stored time was written while the system clock read ahead of where it reads now (a
/// Pi without a real-time clock running on its last saved time, then set right by NTP or the first
/// fix; `date -s`): then how long ago it was is not known. Such a time is not "just now" on screen,
/// and a deadline written then does not hold (`RetryBackoff`).
public enum ClockStep {
    /// NTP's small corrections and two processes' clocks a moment apart stay under a minute; a time
    /// further ahead of the clock than this was written on a clock that has been set back since.
    public static let toleranceS = 60.0

    public static func isAhead(_ time: Date, of now: Date) -> Bool {
        time.timeIntervalSince(now) > toleranceS
    }

    /// The same for an age in whole seconds as a person is shown it (negative: ahead of the clock), so
    /// the word shown and the stale mark beside it agree to the second.
    public static func isAhead(secondsAgo: Int) -> Bool {
        secondsAgo < -Int(toleranceS)
    }
}
