/// Decides which of gpsd's SKY reports are parsed: the first after a connection is made, then the
/// first that comes `intervalS` or more after the last one parsed. The rest are dropped unparsed.
///
/// A SKY report carries only the satellite counts fixcast shows ("9 sats" on the live screen's
/// position line) and keeps with each track point (GPX `<sat>`). gpsd sends one every fix cycle
/// (once a second from a 1 Hz receiver), and libgps's parse of it (every satellite's PRN,
/// elevation, azimuth, signal) costs more than the TPV's: about 40 µs a fix on cold caches, a third
/// of gpxlogger's whole cost a fix (bench/README.md, "The live screen's floor, measured again").
/// The count changes when a satellite rises, sets or goes behind something, over seconds to minutes,
/// so a count at most `intervalS` old shows and stores what a person can use, and the fix itself
/// (TPV) is never thinned.
public struct SkyThinning: Sendable, Hashable {
    /// Five seconds: a satellite count that old still says how good the sky is, and parsing one SKY in
    /// five at 1 Hz saves four fifths of libgps's SKY cost.
    public static let defaultIntervalS = 5.0

    /// Seconds between parsed SKY reports (at least this many; a value that is not a positive
    /// number parses every report).
    public let intervalS: Double
    /// When the last SKY report was parsed; nil before the first (or after `reset`).
    public private(set) var lastParsed: MonotonicInstant?

    public init(intervalS: Double = SkyThinning.defaultIntervalS) {
        self.intervalS = intervalS.isFinite && intervalS > 0 ? intervalS : 0
    }

    /// Whether a SKY report read at `now` is parsed.
    public func parses(at now: MonotonicInstant) -> Bool {
        guard let lastParsed else { return true }
        // A clock that went back (a test's, never CLOCK_MONOTONIC) parses rather than waiting for it.
        return now < lastParsed || now.seconds - lastParsed.seconds >= intervalS
    }

    /// Records that a SKY report was parsed at `now`.
    public mutating func parsed(at now: MonotonicInstant) {
        lastParsed = now
    }

    /// Forgets the last parse: after a new connection, its first SKY report is parsed at once.
    public mutating func reset() {
        lastParsed = nil
    }
}
