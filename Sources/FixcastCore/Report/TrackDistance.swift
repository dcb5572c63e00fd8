import FoundationEssentials

/// Distance along a track: the sum of great-circle steps between consecutive points.
///
/// The profile panel's x axis and the trip's distance both come from here, so the two agree.
public enum TrackDistance {
    /// Cumulative kilometres at each point (the first is 0); as long as `coordinates`.
    public static func cumulativeKm(_ coordinates: [Coordinate]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(coordinates.count)
        var total = 0.0
        var previous: Coordinate?
        for c in coordinates {
            if let p = previous { total += GreatCircle.distanceKm(p, c) }
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
