/// A moment on the monotonic clock (Linux CLOCK_MONOTONIC): seconds since an origin of the
/// system's choosing (the boot).
///
/// Every deadline the agent keeps is one of these, never a wall-clock `Date`: the wall clock jumps
/// (a Raspberry Pi without a real-time clock starts in 1970 or at its last shutdown and sets the
/// time at the first fix; NTP steps it), and a deadline on it would fire at once or never. The
/// monotonic clock only goes forward. Core never reads it: the loop passes it in with each event
/// (`ClockReading`).
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Seconds since the clock's origin.
    public var seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }

    /// The instant `interval` seconds later (earlier when negative).
    public func advanced(by interval: Double) -> MonotonicInstant {
        MonotonicInstant(seconds: seconds + interval)
    }

    /// Seconds from `earlier` to this instant (negative when `earlier` is later).
    public func seconds(since earlier: MonotonicInstant) -> Double {
        seconds - earlier.seconds
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.seconds < rhs.seconds
    }
}
