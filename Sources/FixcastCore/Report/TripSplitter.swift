import FoundationEssentials

/// One trip's extent in time: the first and last track point's time and how many points it has.
public struct TripSpan: Sendable, Hashable {
    public var start: Date
    public var end: Date
    public var pointCount: Int

    public init(start: Date, end: Date, pointCount: Int) {
        self.start = start
        self.end = end
        self.pointCount = pointCount
    }

    public var durationS: Double { end.timeIntervalSince(start) }

    /// Whether `time` falls in the trip (both ends included).
    public func contains(_ time: Date) -> Bool { time >= start && time <= end }
}

/// Decides where one trip ends and the next begins: a gap of at least `report.trip_gap_min`
/// between consecutive track points' times (CONTRACT.md "Trips and reports").
///
/// 30 minutes by default: long enough that a stop for fuel or a red-light queue with the
/// receiver still logging stays one trip, short enough that the drive home after work is another.
public enum TripSplitter {
    public static let defaultGapMinutes = 30.0

    /// The trips of `times`, which must be sorted ascending (the store gives them by fix time).
    /// An empty input has no trips; a single point is a trip of zero length.
    public static func split(times: [Date], gapMinutes: Double = defaultGapMinutes) -> [TripSpan] {
        var splitting = Splitting(gapMinutes: gapMinutes)
        for t in times { _ = splitting.add(t.timeIntervalSince1970) }
        return splitting.finish()
    }

    /// The rule applied one point at a time, for a caller that streams the points (the store: a year of
    /// driving is ~1 M points, looked at once each and never held). `split` is this over an array.
    public struct Splitting: Sendable {
        private let gapS: Double
        private var start = 0.0
        private var previous = 0.0
        private var count = 0
        public private(set) var trips: [TripSpan] = []

        public init(gapMinutes: Double = TripSplitter.defaultGapMinutes) { gapS = gapMinutes * 60 }

        /// Takes the next point's time (seconds since 1970, not before the previous one); true when
        /// it begins a new trip (the first point, or one at least the gap after the one before).
        public mutating func add(_ seconds: Double) -> Bool {
            let begins = count == 0 || seconds - previous >= gapS
            if begins {
                close()
                start = seconds
                count = 0
            }
            count += 1
            previous = seconds
            return begins
        }

        /// The trips, the last one closed.
        public mutating func finish() -> [TripSpan] {
            close()
            count = 0
            return trips
        }

        private mutating func close() {
            guard count > 0 else { return }
            trips.append(
                TripSpan(
                    start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: previous),
                    pointCount: count))
        }
    }
}
