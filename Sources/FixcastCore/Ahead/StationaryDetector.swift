import FoundationEssentials

/// Decides that the traveller is not going anywhere: slower than `maxSpeedMps` for `holdS`.
///
/// Then the samples are here at later times instead of along a course that a parked car's noisy
/// track would make up.
public struct StationaryDetector: Sendable {
    /// 1 m/s (CONTRACT.md): walking pace is 1.4 m/s; a standing receiver's speed noise stays below 1.
    public static let maxSpeedMps = 1.0
    /// 2 minutes (CONTRACT.md): a traffic light or a junction is shorter, a stop is longer.
    public static let holdS = 120.0

    public private(set) var slowSince: Date?

    public init() {}

    /// One fix's speed; a missing speed tells nothing and changes nothing.
    public mutating func observe(speedMps: Double?, at now: Date) {
        guard let speed = speedMps, speed.isFinite else { return }
        if speed < Self.maxSpeedMps {
            if slowSince == nil { slowSince = now }
        } else {
            slowSince = nil
        }
    }

    public func isStationary(at now: Date) -> Bool {
        guard let since = slowSince else { return false }
        return now.timeIntervalSince(since) >= Self.holdS
    }
}
