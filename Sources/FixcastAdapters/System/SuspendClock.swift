#if canImport(Glibc)
    import Glibc
#endif

/// Reads how long the machine has spent suspended since boot: CLOCK_BOOTTIME − CLOCK_MONOTONIC.
///
/// Both clocks count from boot at the same rate while the machine runs; CLOCK_MONOTONIC stops
/// during suspend and CLOCK_BOOTTIME does not, so the difference grows by exactly the time asleep.
/// `ResumeGate` compares successive samples. Neither clock jumps with NTP or `date -s`, so a clock
/// step is never mistaken for a resume.
/// - SeeAlso: clock_gettime(2).
public enum SuspendClock {
    /// Seconds asleep since boot; nil when a clock cannot be read (not Linux, or a seccomp filter).
    public static func sleepOffsetS() -> Double? {
        guard let boot = seconds(CLOCK_BOOTTIME), let mono = seconds(CLOCK_MONOTONIC) else { return nil }
        return max(0, boot - mono)
    }

    private static func seconds(_ clock: Int32) -> Double? {
        var ts = timespec()
        guard clock_gettime(clockid_t(clock), &ts) == 0 else { return nil }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
