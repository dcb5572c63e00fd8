import FoundationEssentials

/// Decides which fixes go into the stored track.
///
/// A point is kept when at least `intervalS` (10 s, `storage.track_interval_s`) passed since the
/// last kept point, OR it is at least `distanceM` (50 m, `storage.track_distance_m`) from it,
/// whichever comes first. A 10 Hz receiver would otherwise write 36,000 rows an hour of mostly
/// the same point; 10 s / 50 m keeps the shape of a road (a car at 100 km/h gets a point every
/// 50 m ≈ 1.8 s) at a size an SD card and GPX viewers are happy with.
///
/// Standing still (within `stillM` of the last kept point) a point is kept only every `stillIntervalS`
/// (`run` asks for `standingStillIntervalS`):
/// a parked receiver's fixes wander a few metres, and a point every 10 s was 8,640 rows a day of the
/// same place (300 MB a year for a service on a parked Pi, every one read by each `quick_check`).
/// 45 s keeps a stop in the track (under GPX's 5-minute segment gap and the shortest trip gap,
/// `report.trip_gap_min` = 1, so a stop splits no segment, and a trip only when it lasts the trip gap:
/// `TripSplitter`'s stop rule), and a walker at 1 m/s still gets a point every 25 m.
public struct TrackThinner: Sendable, Hashable {
    public var intervalS: Double
    public var distanceM: Double
    /// How often a point is kept while standing still; nil: as often as moving (`intervalS`).
    public var stillIntervalS: Double?
    /// Nearer than this to the last kept point is standing still: a parked receiver's wander.
    public static let stillM = 25.0
    /// What `run` keeps standing still (`AgentLoop` passes it): a point every 45 s.
    public static let standingStillIntervalS = 45.0
    public private(set) var lastAccepted: (coordinate: Coordinate, time: Date)?

    public init(intervalS: Double = 10, distanceM: Double = 50, stillIntervalS: Double? = nil) {
        self.intervalS = intervalS
        self.distanceM = distanceM
        self.stillIntervalS = stillIntervalS
    }

    /// Whether to keep a point at `coordinate` received at `time`; a kept point becomes the new
    /// reference. The first point is always kept. A clock that stepped back (NTP after boot on a
    /// board without RTC) keeps the point and restarts from it rather than starving the track.
    public mutating func accept(_ coordinate: Coordinate, at time: Date) -> Bool {
        if let last = lastAccepted {
            let elapsed = time.timeIntervalSince(last.time)
            let moved = GreatCircle.distanceM(last.coordinate, coordinate)
            let still = stillIntervalS != nil && moved < min(Self.stillM, distanceM)
            let keep =
                elapsed < 0 || moved >= distanceM
                || elapsed >= (still ? max(intervalS, stillIntervalS ?? intervalS) : intervalS)
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
        a.intervalS == b.intervalS && a.distanceM == b.distanceM && a.stillIntervalS == b.stillIntervalS
            && a.lastAccepted?.coordinate == b.lastAccepted?.coordinate && a.lastAccepted?.time == b.lastAccepted?.time
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(intervalS)
        hasher.combine(distanceM)
        hasher.combine(stillIntervalS)
        hasher.combine(lastAccepted?.coordinate)
        hasher.combine(lastAccepted?.time)
    }
}
