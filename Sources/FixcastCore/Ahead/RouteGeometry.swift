/// A route as a polyline with the distance along it at each point, so that "how far along" and
/// "where is the point d metres along" are a lookup, not a walk (a 10,000-point route is projected
/// in well under the 5 ms issue 20 sets).
public struct RouteGeometry: Sendable, Equatable {
    public let name: String?
    public let points: [Coordinate]
    /// `alongM[i]`: metres along the route at `points[i]`; `alongM[0] == 0`.
    public let alongM: [Double]

    /// nil for fewer than two points (no direction to follow); `GPXRouteReader` never returns those.
    public init?(_ route: GPXRoute) {
        guard route.points.count >= 2 else { return nil }
        var along: [Double] = [0]
        along.reserveCapacity(route.points.count)
        for k in 1..<route.points.count {
            along.append(along[k - 1] + GreatCircle.distanceM(route.points[k - 1], route.points[k]))
        }
        self.name = route.name
        self.points = route.points
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

    /// The nearest point to `c` on segment `i`: metres along the route there and metres off it.
    func project(_ c: Coordinate, ontoSegment i: Int) -> (alongM: Double, offM: Double) {
        project(SphereNavigation.LocalFrame(at: c), ontoSegment: i)
    }

    /// The same, in the tangent plane at the fix (made once for a whole search: its cosine is the
    /// costly part, and it is the same for every segment).
    func project(_ frame: SphereNavigation.LocalFrame, ontoSegment i: Int) -> (alongM: Double, offM: Double) {
        let a = frame.offsetM(of: points[i])
        let b = frame.offsetM(of: points[i + 1])
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? max(0, min(1, -(a.x * dx + a.y * dy) / lengthSquared)) : 0
        let px = a.x + t * dx
        let py = a.y + t * dy
        return (alongM[i] + t * (alongM[i + 1] - alongM[i]), (px * px + py * py).squareRoot())
    }
}
