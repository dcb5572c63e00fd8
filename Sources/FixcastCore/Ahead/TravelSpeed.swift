import FoundationEssentials

/// One point of the stored track: when the fix was taken, and where.
public struct TrackSample: Sendable, Equatable {
    public var time: Date
    public var coordinate: Coordinate

    public init(time: Date, coordinate: Coordinate) {
        self.time = time
        self.coordinate = coordinate
    }
}

/// The speed to time the samples ahead by, and where it came from (CONTRACT.md `speed_source`).
public struct TravelSpeed: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        case history, gps
    }

    public var mps: Double
    public var source: Source

    public init(mps: Double, source: Source) {
        self.mps = mps
        self.source = source
    }

    /// 20 minutes of fix times (CONTRACT.md): long enough to hold a stop-and-go stretch, short
    /// enough that the motorway's speed is not used in town.
    public static let windowS = 20.0 * 60
    /// ≥ 1 m/s is moving (the stationary threshold): stops do not pull the median down.
    public static let movingMps = 1.0
    /// A pair of points more than 3 minutes apart is not bridged: the track was off (a tunnel, a
    /// suspended laptop), and the straight line between them says nothing about the speed.
    public static let maxGapS = 180.0
    /// At least one minute of moving time before the history is trusted over the receiver.
    public static let minMovingS = 60.0

    /// The time-weighted median of the moving speeds between consecutive track points of the last
    /// `windowS` (each pair's speed counts for as long as the pair lasted, so a thinned track's
    /// unequal spacing does not bias it), else the receiver's speed when it is moving; nil when
    /// neither is known. Never a fixed speed. A pair faster than `maxPlausibleMps` (a jump the
    /// plausibility filter should have held, `gps.max_speed_mps`) is left out.
    public static func learn(track: [TrackSample], now: Date, receiverMps: Double?, maxPlausibleMps: Double = 600)
        -> TravelSpeed?
    {
        var pairs: [(speed: Double, seconds: Double)] = []
        let start = now.addingTimeInterval(-windowS)
        var previous: TrackSample?
        for point in track.sorted(by: { $0.time < $1.time }) where point.time >= start && point.time <= now {
            defer { previous = point }
            guard let p = previous else { continue }
            let dt = point.time.timeIntervalSince(p.time)
            guard dt > 0, dt <= maxGapS else { continue }
            let v = GreatCircle.distanceM(p.coordinate, point.coordinate) / dt
            guard v >= movingMps, v <= maxPlausibleMps else { continue }
            pairs.append((v, dt))
        }
        let moving = pairs.reduce(0) { $0 + $1.seconds }
        if moving >= minMovingS {
            pairs.sort { $0.speed < $1.speed }
            var acc = 0.0
            for pair in pairs {
                acc += pair.seconds
                if acc >= moving / 2 { return TravelSpeed(mps: pair.speed, source: .history) }
            }
        }
        if let v = receiverMps, v.isFinite, v >= movingMps, v <= maxPlausibleMps {
            return TravelSpeed(mps: v, source: .gps)
        }
        return nil
    }
}
