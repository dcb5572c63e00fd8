import FoundationEssentials

/// Distance along a track: the sum of great-circle steps between consecutive points.
///
/// The profile panel's x axis (`cumulativeKm`) and the trip's distance in `trips` (the store's
/// streamed `Accumulator`) both come from here, so the two agree.
public enum TrackDistance {
    /// The running sum, one point at a time (the store streams a trip's points).
    public struct Accumulator: Sendable {
        public private(set) var totalKm = 0.0
        private var previous: Coordinate?

        public init() {}

        /// Adds `c` and answers the kilometres so far; after a break (`afterBreak`: the track was not
        /// recorded between, a gap between two trips) the step to it is not counted.
        @discardableResult
        public mutating func add(_ c: Coordinate, afterBreak: Bool = false) -> Double {
            if let p = previous, !afterBreak { totalKm += GreatCircle.distanceKm(p, c) }
            previous = c
            return totalKm
        }
    }

    /// Cumulative kilometres at each point (the first is 0); as long as `coordinates`. The step to a
    /// point in `breaks` is not counted: the track was not recorded there (a gap between two trips).
    public static func cumulativeKm(_ coordinates: [Coordinate], breaks: Set<Int> = []) -> [Double] {
        var sum = Accumulator()
        return coordinates.enumerated().map { i, c in sum.add(c, afterBreak: breaks.contains(i)) }
    }
}
