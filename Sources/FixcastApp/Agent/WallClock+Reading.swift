import FixcastAdapters
import FixcastCore

extension WallClock {
    /// Both clocks now, as the reducer takes them with each event: the monotonic one for its
    /// deadlines, this wall clock for what is shown and stored.
    func reading() -> ClockReading {
        ClockReading(monotonic: MonotonicInstant(seconds: Syscall.monotonicSeconds()), wall: now())
    }
}
