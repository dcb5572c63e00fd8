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
        guard var start = times.first else { return [] }
        let gapS = gapMinutes * 60
        var trips: [TripSpan] = []
        var previous = start
        var count = 1
        for t in times.dropFirst() {
            if t.timeIntervalSince(previous) >= gapS {
                trips.append(TripSpan(start: start, end: previous, pointCount: count))
                start = t
                count = 0
            }
            count += 1
            previous = t
        }
        trips.append(TripSpan(start: start, end: previous, pointCount: count))
        return trips
    }

    /// The index of the trip `time` falls in, or nil when it falls in none (a reading taken
    /// while parked between trips).
    public static func tripIndex(of time: Date, in trips: [TripSpan]) -> Int? {
        // Binary search on start: trips are sorted and do not overlap.
        var lo = 0
        var hi = trips.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            if time < trips[mid].start {
                hi = mid - 1
            } else if time > trips[mid].end {
                lo = mid + 1
            } else {
                return mid
            }
        }
        return nil
    }
}
