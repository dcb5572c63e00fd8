import FoundationEssentials

/// The course over ground to dead-reckon along: the receiver's track angles of the last
/// `windowS`, averaged on the circle (359° and 1° make 0°, not 180°) and weighted by speed, so the
/// fast fixes, whose track is good, count more than the slow ones.
///
/// Below `minSpeedMps` gpsd's track is noise (a standing receiver's track spins), so such fixes do
/// not count, and with none left the last good course is kept.
public struct CourseSmoother: Sendable {
    /// 2 minutes: long enough to average a receiver's jitter and a lane change, short enough that a
    /// turn onto a new road is followed within one refresh.
    public static let windowS = 120.0
    /// 2 m/s (CONTRACT.md): below it the track angle is noise.
    public static let minSpeedMps = 2.0
    /// A resultant this short (of the weights' sum) means the tracks cancel (a U-turn inside the
    /// window): no direction is better than a made-up one, so the last good course stays.
    static let minResultantShare = 0.1

    /// One fix's track as its speed-weighted east and north components, computed once when it comes
    /// (the window's sums are made again at every fix, from up to two minutes of them).
    struct Observation: Sendable {
        var at: Date
        var east: Double
        var north: Double
        var speedMps: Double
    }
    var observations: [Observation] = []
    /// The last smoothed course (degrees, [0, 360)); nil before any fix fast enough.
    public private(set) var courseDeg: Double?

    public init() {}

    /// Takes one fix's track and speed at `now` (missing or non-finite values are no information).
    public mutating func observe(trackDeg: Double?, speedMps: Double?, at now: Date) {
        observations.removeAll { now.timeIntervalSince($0.at) > Self.windowS || $0.at > now }
        if let track = trackDeg, let speed = speedMps, track.isFinite, speed.isFinite, speed >= Self.minSpeedMps {
            let r = track * Double.pi / 180
            observations.append(
                Observation(
                    at: now, east: speed * Elementary.sin(r), north: speed * Elementary.cos(r), speedMps: speed))
        }
        var east = 0.0
        var north = 0.0
        var weight = 0.0
        for o in observations {
            east += o.east
            north += o.north
            weight += o.speedMps
        }
        guard weight > 0, (east * east + north * north).squareRoot() >= Self.minResultantShare * weight else { return }
        courseDeg = CompassDegrees.folded(Elementary.atan2(east, north) * 180 / Double.pi)
    }
}
