import FoundationEssentials

/// Decides which of the places around a position lies on its side of the land borders: the nearest
/// place alone decides the country badly at a border (on Windsor's riverfront the nearest place is
/// Detroit, across the river, so its alerts were asked of the US weather service; a French suburb of
/// Geneva was Swiss). A place whose straight way from the position crosses no border line is in the
/// same country as far as the bundled 1:10m borders (Natural Earth, generalised by a few hundred
/// metres) can tell.
///
/// The way and the borders are compared on the tangent plane at the position (`SphereNavigation.LocalFrame`;
/// a few tens of km at most: the error of the flat plane is far below the borders' own).
public enum BorderSide {
    /// Places of another country are looked for up to this much farther than the nearest place: a
    /// town's own centre is seldom farther than this across its suburbs, and few enough places lie
    /// within it to check each country's nearest.
    public static let reachKm = 25.0

    /// The index into `candidates` (nearest first) of the first whose straight way from `position`
    /// crosses none of `borders` (each a line of coordinates); nil when every way crosses one.
    public static func firstOnThisSide(of position: Coordinate, candidates: [Coordinate], borders: [[Coordinate]])
        -> Int?
    {
        let frame = SphereNavigation.LocalFrame(at: position)
        func point(_ c: Coordinate) -> (Double, Double) {
            let o = frame.offsetM(of: c)
            return (o.x, o.y)
        }
        let lines = borders.map { $0.map(point) }
        for (i, candidate) in candidates.enumerated() {
            let end = point(candidate)
            let crosses = lines.contains { line in
                zip(line, line.dropFirst()).contains { a, b in intersects((0, 0), end, a, b) }
            }
            if !crosses { return i }
        }
        return nil
    }

    /// Whether segments p1–p2 and q1–q2 meet (touching counts: a way that ends on a border line is
    /// not known to stay on this side).
    static func intersects(
        _ p1: (Double, Double), _ p2: (Double, Double), _ q1: (Double, Double), _ q2: (Double, Double)
    ) -> Bool {
        let d1 = cross(q1, q2, p1)
        let d2 = cross(q1, q2, p2)
        let d3 = cross(p1, p2, q1)
        let d4 = cross(p1, p2, q2)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return (d1 == 0 && onSegment(q1, q2, p1)) || (d2 == 0 && onSegment(q1, q2, p2))
            || (d3 == 0 && onSegment(p1, p2, q1)) || (d4 == 0 && onSegment(p1, p2, q2))
    }

    /// The z of (b − a) × (c − a): which side of line a–b point c is on.
    private static func cross(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> Double {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    }

    /// c, on the line a–b, lies between a and b.
    private static func onSegment(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> Bool {
        min(a.0, b.0) <= c.0 && c.0 <= max(a.0, b.0) && min(a.1, b.1) <= c.1 && c.1 <= max(a.1, b.1)
    }
}
