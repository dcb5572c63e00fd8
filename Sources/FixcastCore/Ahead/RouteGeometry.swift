import FixcastTables

/// A route as a polyline with the distance along it at each point, so that "how far along" and
/// "where is the point d metres along" are a lookup, not a walk (a 10,000-point route is projected
/// in well under the 5 ms issue 20 sets).
public struct RouteGeometry: Sendable, Equatable {
    public let name: String?
    public let points: [Coordinate]
    /// `alongM[i]`: metres along the route at `points[i]`; `alongM[0] == 0`.
    public let alongM: [Double]

    /// 2 km: the longest segment kept. A fix is measured against a segment on the flat map of its own
    /// tangent plane, where a segment is a straight line, while the route runs on the great circle
    /// between its points (the samples are laid there); over a long leg of a sparse route (a planner's
    /// two points 255 km apart, a ferry) the two part by hundreds of metres to kilometres, and a
    /// traveller exactly on the route was measured off it. Points every 2 km on the great circle keep
    /// them within a metre of each other.
    public static let maxSegmentM = 2_000.0
    /// Points added at most (`GPXRouteBuilder.maxPoints` more): a route round the world in a few
    /// points then gets its added points spaced farther than `maxSegmentM`, not millions of them.
    public static let maxAddedPoints = 100_000

    /// nil for fewer than two points (no direction to follow); `GPXRouteReader` never returns those.
    /// Legs longer than `maxSegmentM` are cut on their great circle.
    public init?(_ route: GPXRoute) {
        guard route.points.count >= 2 else { return nil }
        let legs = (1..<route.points.count).map { GreatCircle.distanceM(route.points[$0 - 1], route.points[$0]) }
        var step = Self.maxSegmentM
        let wanted = legs.reduce(0.0) { $0 + max(0, ($1 / Self.maxSegmentM).rounded(.up) - 1) }
        if wanted > Double(Self.maxAddedPoints) {
            step = legs.reduce(0, +) / Double(Self.maxAddedPoints)
        }
        var points: [Coordinate] = [route.points[0]]
        var along: [Double] = [0]
        points.reserveCapacity(route.points.count)
        along.reserveCapacity(route.points.count)
        for k in 1..<route.points.count {
            let a = route.points[k - 1]
            let b = route.points[k]
            let pieces = max(1, Int(min((legs[k - 1] / step).rounded(.up), Double(Self.maxAddedPoints))))
            let start = along[along.count - 1]
            for j in 1..<pieces {
                let f = Double(j) / Double(pieces)
                points.append(SphereNavigation.intermediate(a, b, fraction: f))
                along.append(start + legs[k - 1] * f)
            }
            points.append(b)
            along.append(start + legs[k - 1])
        }
        self.name = route.name
        self.points = points
        self.alongM = along
    }

    public var lengthM: Double { alongM[alongM.count - 1] }

    /// The segment index holding `along` (clamped to the route): the `i` with alongM[i] ≤ along ≤ alongM[i+1].
    func segment(holding along: Double) -> Int {
        var lo = 0
        var hi = points.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if alongM[mid] <= along { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The point `along` metres from the start (clamped to the route) and the route's bearing there.
    public func point(atAlongM along: Double) -> (coordinate: Coordinate, bearingDeg: Double) {
        let a = max(0, min(lengthM, along))
        let i = segment(holding: a)
        let length = alongM[i + 1] - alongM[i]
        let bearing = SphereNavigation.bearingDeg(from: points[i], to: points[i + 1])
        guard length > 0 else { return (points[i], bearing) }
        return SphereNavigation.destination(from: points[i], bearingDeg: bearing, distanceM: a - alongM[i])
    }

    /// The nearest point to a fix on segment `i`, in the tangent plane at the fix (`frame`, made once
    /// for a whole search: its cosine is the costly part, and it is the same for every segment):
    /// metres along the route there, metres off it, and the segment's unit direction in that plane
    /// (east, north; 0, 0 for a segment of no length), to weigh it against the fix's course.
    func project(_ frame: SphereNavigation.LocalFrame, ontoSegment i: Int) -> (
        alongM: Double, offM: Double, east: Double, north: Double
    ) {
        let a = frame.offsetM(of: points[i])
        let b = frame.offsetM(of: points[i + 1])
        let (t, offM) = PlaneSegment.nearestToOrigin(a, b)
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        return (
            alongM[i] + t * (alongM[i + 1] - alongM[i]), offM, length > 0 ? dx / length : 0,
            length > 0 ? dy / length : 0
        )
    }
}
