import FoundationEssentials

/// One trip's extent in time: the first and last track point's time, how many points it has and
/// the length of the track between them.
public struct TripSpan: Sendable, Hashable {
    public var start: Date
    public var end: Date
    public var pointCount: Int
    public var distanceKm: Double

    public init(start: Date, end: Date, pointCount: Int, distanceKm: Double = 0) {
        self.start = start
        self.end = end
        self.pointCount = pointCount
        self.distanceKm = distanceKm
    }

    public var durationS: Double { end.timeIntervalSince(start) }

    /// Whether `time` falls in the trip (both ends included).
    public func contains(_ time: Date) -> Bool { time >= start && time <= end }
}

/// Decides where one trip ends and the next begins (CONTRACT.md "Trips and reports"): a gap of at
/// least `report.trip_gap_min` between consecutive track points' times, or a stop as long.
///
/// 30 minutes by default: long enough that a stop for fuel or a red-light queue with the
/// receiver still logging stays one trip, short enough that the drive home after work is another.
///
/// **A stop** is every point for the gap or longer within `stopRadiusM` of where the stop began. A
/// receiver that keeps its fix while parked (a service on a van, a boat, a Pi on permanent power)
/// leaves no gap: `run` keeps a point every 45 s standing still (`TrackThinner`), and a year of
/// driving and parking was one trip of 8,759 h. So a stop ends the trip at the point where it
/// began (the arrival); the points of the stop after it belong to no trip, and the next trip begins
/// at the first point beyond the radius (the departure). A trip that was only a stop is none.
public enum TripSplitter {
    public static let defaultGapMinutes = 30.0
    /// 200 m: a parked receiver's fixes wander tens of metres (more in a street canyon), and a boat
    /// on a 50 m rode swings 100 m across; a queue that moves less in half an hour is stopped.
    public static let stopRadiusM = 200.0

    /// The trips of `points`, which must be sorted by time (the store gives them by fix time).
    /// An empty input has no trips; a single point is a trip of zero length.
    public static func split(_ points: [TripTrackPoint], gapMinutes: Double = defaultGapMinutes) -> [TripSpan] {
        var splitting = Splitting(gapMinutes: gapMinutes)
        for p in points { _ = splitting.add(p.time.timeIntervalSince1970, at: p.coordinate) }
        return splitting.finish()
    }

    /// The rule applied one point at a time, for a caller that streams the points (the store: a year of
    /// driving is ~1 M points, looked at once each and never held). `split` is this over an array.
    public struct Splitting: Sendable {
        /// Where the latest run of points within `stopRadiusM` began, and the trip as it stood there.
        private struct StopStart: Sendable {
            var coordinate: Coordinate
            var seconds: Double
            var count: Int
            var distanceKm: Double
        }

        private let gapS: Double
        private var start = 0.0
        private var previous = 0.0
        private var count = 0
        private var distance = TrackDistance.Accumulator()
        private var stop: StopStart?
        /// In a stop that ended its trip: points near it belong to no trip.
        private var parked = false
        public private(set) var trips: [TripSpan] = []

        public init(gapMinutes: Double = TripSplitter.defaultGapMinutes) { gapS = gapMinutes * 60 }

        /// Takes the next point's time (seconds since 1970, not before the previous one) and place;
        /// true when it begins a new trip (the first point, one at least the gap after the one before,
        /// or the first beyond a stop's radius after a stop that ended a trip).
        public mutating func add(_ seconds: Double, at coordinate: Coordinate) -> Bool {
            if parked {
                if let stop, GreatCircle.distanceM(stop.coordinate, coordinate) <= TripSplitter.stopRadiusM {
                    return false
                }
                parked = false
                begin(seconds, coordinate)
                return true
            }
            if count == 0 || seconds - previous >= gapS {
                close()
                begin(seconds, coordinate)
                return true
            }
            count += 1
            previous = seconds
            let km = distance.add(coordinate)
            if let stop, GreatCircle.distanceM(stop.coordinate, coordinate) <= TripSplitter.stopRadiusM {
                if seconds - stop.seconds >= gapS {
                    // A stop as long as a gap: the trip ended where the stop began.
                    if stop.count > 1 {
                        trips.append(
                            TripSpan(
                                start: Date(timeIntervalSince1970: start),
                                end: Date(timeIntervalSince1970: stop.seconds), pointCount: stop.count,
                                distanceKm: stop.distanceKm))
                    }
                    count = 0
                    parked = true
                }
            } else {
                stop = StopStart(coordinate: coordinate, seconds: seconds, count: count, distanceKm: km)
            }
            return false
        }

        /// The trips, the last one closed.
        public mutating func finish() -> [TripSpan] {
            close()
            count = 0
            parked = false
            return trips
        }

        private mutating func begin(_ seconds: Double, _ coordinate: Coordinate) {
            start = seconds
            previous = seconds
            count = 1
            distance = TrackDistance.Accumulator()
            let km = distance.add(coordinate)
            stop = StopStart(coordinate: coordinate, seconds: seconds, count: 1, distanceKm: km)
        }

        private mutating func close() {
            guard count > 0 else { return }
            trips.append(
                TripSpan(
                    start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: previous),
                    pointCount: count, distanceKm: distance.totalKm))
        }
    }
}
