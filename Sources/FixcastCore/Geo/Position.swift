import FoundationEssentials

/// Where a position came from (CONTRACT.md `position.source`).
public enum PositionSource: String, Sendable, Hashable {
    /// A live fix from gpsd.
    case gps
    /// The last fix stored on disk, used when no fix came in time; always shown with its age.
    case lastKnown = "last-known"
    /// `--at` or `--place`.
    case manual
}

/// The position a reading is for: a fix, the stored last-known fix, or a manual point.
public struct Position: Sendable, Hashable {
    public var coordinate: Coordinate
    public var altitudeM: Double?
    public var speedMps: Double?
    public var trackDeg: Double?
    public var mode: FixMode?
    /// The receiver's time of the fix, when it gave one.
    public var fixTime: Date?
    /// When fixcast obtained this position (for a last-known position: when the fix was received).
    public var obtainedAt: Date
    public var source: PositionSource
    public var horizontalErrorM: Double?
    public var satellitesUsed: Int?

    public init(
        coordinate: Coordinate, altitudeM: Double? = nil, speedMps: Double? = nil, trackDeg: Double? = nil,
        mode: FixMode? = nil, fixTime: Date? = nil, obtainedAt: Date, source: PositionSource,
        horizontalErrorM: Double? = nil, satellitesUsed: Int? = nil
    ) {
        self.coordinate = coordinate
        self.altitudeM = altitudeM
        self.speedMps = speedMps
        self.trackDeg = trackDeg
        self.mode = mode
        self.fixTime = fixTime
        self.obtainedAt = obtainedAt
        self.source = source
        self.horizontalErrorM = horizontalErrorM
        self.satellitesUsed = satellitesUsed
    }

    /// A live position from a fix.
    public init(fix: Fix, source: PositionSource = .gps) {
        self.init(
            coordinate: fix.coordinate, altitudeM: fix.altitudeM, speedMps: fix.speedMps, trackDeg: fix.trackDeg,
            mode: fix.mode, fixTime: fix.time, obtainedAt: fix.receivedAt, source: source,
            horizontalErrorM: fix.horizontalErrorM, satellitesUsed: fix.satellitesUsed)
    }

    /// A manual position (`--at`, `--place`): no fix quality, age 0.
    public static func manual(_ coordinate: Coordinate, at now: Date) -> Position {
        Position(coordinate: coordinate, obtainedAt: now, source: .manual)
    }

    /// Whole seconds since the position was obtained, never negative (JSON's `age_s`).
    public func ageSeconds(at now: Date) -> Int {
        max(0, secondsSinceObtained(at: now))
    }

    /// The same, negative when the position was obtained while the clock read ahead of now (what a
    /// person is shown: `ClockStep`).
    public func secondsSinceObtained(at now: Date) -> Int {
        Int(clamping: now.timeIntervalSince(obtainedAt), to: Int.min...Int.max, rounding: .down)
    }
}
