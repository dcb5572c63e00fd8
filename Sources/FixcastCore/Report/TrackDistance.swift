import FoundationEssentials

/// Distance along a track: the sum of great-circle steps between consecutive points.
///
/// The profile panel's x axis and the trip's distance both come from here, so the two agree.
public enum TrackDistance {
    /// Cumulative kilometres at each point (the first is 0); as long as `coordinates`. The step to a
    /// point in `breaks` is not counted: the track was not recorded there (a gap between two trips).
    public static func cumulativeKm(_ coordinates: [Coordinate], breaks: Set<Int> = []) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(coordinates.count)
        var total = 0.0
        var previous: Coordinate?
        for (i, c) in coordinates.enumerated() {
            if let p = previous, !breaks.contains(i) { total += GreatCircle.distanceKm(p, c) }
            out.append(total)
            previous = c
        }
        return out
    }

    /// The whole length in kilometres.
    public static func totalKm(_ coordinates: [Coordinate]) -> Double {
        cumulativeKm(coordinates).last ?? 0
    }
}
