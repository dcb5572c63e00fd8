import FoundationEssentials

/// One TPV report as gpsd sent it, before it is trusted. Unknown numbers are NaN (libgps's way);
/// `time` is nil when gpsd sent none (`TIME_SET` clear).
public struct TPVReport: Sendable, Hashable {
    public var mode: Int
    public var time: Date?
    public var lat: Double
    public var lon: Double
    public var altitudeM: Double
    public var speedMps: Double
    public var trackDeg: Double
    public var horizontalErrorM: Double
    public var verticalErrorM: Double
    public var satellitesUsed: Int?

    public init(
        mode: Int, time: Date?, lat: Double, lon: Double, altitudeM: Double = .nan, speedMps: Double = .nan,
        trackDeg: Double = .nan, horizontalErrorM: Double = .nan, verticalErrorM: Double = .nan,
        satellitesUsed: Int? = nil
    ) {
        self.mode = mode
        self.time = time
        self.lat = lat
        self.lon = lon
        self.altitudeM = altitudeM
        self.speedMps = speedMps
        self.trackDeg = trackDeg
        self.horizontalErrorM = horizontalErrorM
        self.verticalErrorM = verticalErrorM
        self.satellitesUsed = satellitesUsed
    }
}

extension TPVReport {
    /// The report claims a fix (mode 2 or 3, `FixMode`), whatever its coordinates are worth.
    public var claimsFix: Bool { FixMode(gpsdMode: mode) != nil }
}

/// Decides which TPV reports are fixes worth passing on.
///
/// A fix is `mode >= 2` with finite, in-range coordinates — never `fix.status`, which TPV JSON
/// usually omits (it reads 0 even at mode 3). Receivers send several TPVs per second and gpsd may
/// send two for one cycle, so a fix whose receiver time equals the last delivered one is a duplicate.
/// A fix without a time is kept (its position is real; `time` stays nil, never made up); it counts
/// as a duplicate only when it repeats the last time-less fix's exact coordinates.
/// A fix that is not a duplicate must then pass `FixPlausibility` (no (0,0), no impossible jump,
/// no time running backwards or a day from the clock), else it is `implausible` and not delivered.
public struct TPVFilter: Sendable, Hashable {
    public enum Verdict: Sendable, Hashable {
        case fix(Fix)
        /// mode 0 or 1: the receiver has no fix.
        case noFix
        /// mode >= 2 but NaN or out-of-range coordinates: a bad report, ignored.
        case invalidPosition
        /// Same receiver time as the fix delivered before it.
        case duplicate
        /// A fix that `FixPlausibility` holds back: dropped, and counted by reason.
        case implausible(FixRejection)
    }

    private var lastTime: Date?
    private var lastTimelessCoordinate: Coordinate?
    private var plausibility: FixPlausibility

    /// - Parameter maxSpeedMps: `gps.max_speed_mps` (see `FixPlausibility`).
    public init(maxSpeedMps: Double = FixPlausibility.defaultMaxSpeedMps) {
        plausibility = FixPlausibility(maxSpeedMps: maxSpeedMps)
    }

    /// The verdict on one report, without remembering it (no duplicate detection).
    public static func validate(_ report: TPVReport, receivedAt: Date) -> Verdict {
        guard let mode = FixMode(gpsdMode: report.mode) else { return .noFix }
        guard let coordinate = Coordinate(lat: report.lat, lon: report.lon) else { return .invalidPosition }
        let fix = Fix(
            time: report.time, receivedAt: receivedAt, coordinate: coordinate, mode: mode,
            altitudeM: report.altitudeM, speedMps: report.speedMps, trackDeg: report.trackDeg,
            horizontalErrorM: report.horizontalErrorM, verticalErrorM: report.verticalErrorM,
            satellitesUsed: report.satellitesUsed)
        return .fix(fix)
    }

    /// The verdict on the next report of a stream; remembers delivered fixes to drop duplicates.
    /// Duplicates are dropped before the plausibility check, so one epoch sent twice (GGA and RMC)
    /// can never count as two fixes agreeing on a jump.
    public mutating func classify(_ report: TPVReport, receivedAt: Date) -> Verdict {
        let verdict = Self.validate(report, receivedAt: receivedAt)
        guard case .fix(let fix) = verdict else { return verdict }
        if let time = fix.time {
            if time == lastTime { return .duplicate }
            lastTime = time
            lastTimelessCoordinate = nil
        } else {
            if fix.coordinate == lastTimelessCoordinate { return .duplicate }
            lastTimelessCoordinate = fix.coordinate
        }
        if let rejection = plausibility.check(fix) { return .implausible(rejection) }
        return verdict
    }

    /// Forget what was delivered (after a reconnect, gpsd may replay the current fix: it is news again).
    public mutating func reset() {
        lastTime = nil
        lastTimelessCoordinate = nil
        plausibility.forgetHeld()
    }
}
