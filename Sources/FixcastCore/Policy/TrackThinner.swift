import FoundationEssentials

/// Decides which fixes go into the stored track.
///
/// A point is kept when at least `intervalS` (10 s, `storage.track_interval_s`) passed since the
/// last kept point, OR it is at least `distanceM` (50 m, `storage.track_distance_m`) from it,
/// whichever comes first. A 10 Hz receiver would otherwise write 36,000 rows an hour of mostly
/// the same point; 10 s / 50 m keeps the shape of a road (a car at 100 km/h gets a point every
/// 50 m ≈ 1.8 s, a parked one a point every 10 s) at a size an SD card and GPX viewers are happy with.
public struct TrackThinner: Sendable, Hashable {
    public var intervalS: Double
    public var distanceM: Double
    public private(set) var lastAccepted: (coordinate: Coordinate, time: Date)?

    public init(intervalS: Double = 10, distanceM: Double = 50) {
        self.intervalS = intervalS
        self.distanceM = distanceM
    }

    /// Whether to keep a point at `coordinate` received at `time`; a kept point becomes the new
    /// reference. The first point is always kept. A clock that stepped back (NTP after boot on a
    /// board without RTC) keeps the point and restarts from it rather than starving the track.
    public mutating func accept(_ coordinate: Coordinate, at time: Date) -> Bool {
        if let last = lastAccepted {
            let elapsed = time.timeIntervalSince(last.time)
            let keep =
                elapsed >= intervalS || elapsed < 0 || GreatCircle.distanceM(last.coordinate, coordinate) >= distanceM
            guard keep else { return false }
        }
        lastAccepted = (coordinate, time)
        return true
    }

    /// A fix, timed by when fixcast received it (receiver times can be absent or a week-rollover off).
    public mutating func accept(_ fix: Fix) -> Bool {
        accept(fix.coordinate, at: fix.receivedAt)
    }
}

extension TrackThinner {
    public static func == (a: TrackThinner, b: TrackThinner) -> Bool {
        a.intervalS == b.intervalS && a.distanceM == b.distanceM
            && a.lastAccepted?.coordinate == b.lastAccepted?.coordinate && a.lastAccepted?.time == b.lastAccepted?.time
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(intervalS)
        hasher.combine(distanceM)
        hasher.combine(lastAccepted?.coordinate)
        hasher.combine(lastAccepted?.time)
    }
}
