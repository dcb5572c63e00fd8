import FoundationEssentials

/// The dimension of a fix; only 2D and 3D are fixes (a mode-1 report is "no fix").
public enum FixMode: String, Sendable, Hashable {
    case twoD = "2d"
    case threeD = "3d"

    /// gpsd's `MODE_2D` (2) and `MODE_3D` (3); anything else is no fix.
    public init?(gpsdMode: Int) {
        switch gpsdMode {
        case 2: self = .twoD
        case 3: self = .threeD
        default: return nil
        }
    }
}

/// One position report from the receiver that is a real fix: mode ≥ 2 with finite coordinates.
///
/// `time` is the receiver's own time and may be absent (some logs have empty dates) or wrong by
/// multiples of 1024 weeks (GPS week rollover), so ages are measured from `receivedAt`, the
/// moment fixcast got it, never from `time`.
public struct Fix: Sendable, Hashable {
    public var time: Date?
    public var receivedAt: Date
    public var coordinate: Coordinate
    public var mode: FixMode
    public var altitudeM: Double?
    public var speedMps: Double?
    public var trackDeg: Double?
    public var horizontalErrorM: Double?
    public var verticalErrorM: Double?
    public var satellitesUsed: Int?

    public init(
        time: Date?, receivedAt: Date, coordinate: Coordinate, mode: FixMode, altitudeM: Double? = nil,
        speedMps: Double? = nil, trackDeg: Double? = nil, horizontalErrorM: Double? = nil,
        verticalErrorM: Double? = nil, satellitesUsed: Int? = nil
    ) {
        self.time = time
        self.receivedAt = receivedAt
        self.coordinate = coordinate
        self.mode = mode
        self.altitudeM = altitudeM.finite
        self.speedMps = speedMps.finite
        self.trackDeg = trackDeg.finite
        self.horizontalErrorM = horizontalErrorM.finite
        self.verticalErrorM = verticalErrorM.finite
        self.satellitesUsed = satellitesUsed
    }
}

extension Optional where Wrapped == Double {
    /// NaN and ±inf (libgps's "unknown") become nil.
    public var finite: Double? {
        guard let v = self, v.isFinite else { return nil }
        return v
    }
}
