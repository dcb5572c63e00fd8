import FoundationEssentials

/// Where a fix is along a route, as the route follower sees it.
public struct RouteProgress: Sendable, Equatable {
    /// What changed with this fix, to be said once.
    public enum Change: Sendable, Equatable {
        /// Off the route by more than `off_route_m` for `RouteProjection.offRouteHoldS`: follow the course.
        case leftRoute
        /// Back within `off_route_m` of the route after having left it.
        case rejoinedRoute
    }

    /// Metres along the route at the projection.
    public var alongM: Double
    /// Metres of route still ahead.
    public var remainingM: Double
    /// Metres between the fix and its projection on the route.
    public var offRouteM: Double
    /// The route's bearing at the projection (the direction of travel on it).
    public var bearingDeg: Double
    /// True while off the route long enough that the basis is the course (CONTRACT.md `off_route`).
    public var isOffRoute: Bool
    public var change: Change?
}

/// Projects each fix onto the route, forward of the last projection only.
///
/// A route that loops back on itself (out and back on one road, a lap) passes near the same place
/// twice; the nearest segment of the whole route would jump to the other pass. So after the first
/// fix only a window of the route is searched: from `backToleranceM` behind the last projection to
/// `forwardWindowM` (plus what `maxPlausibleSpeedMps` could cover since) ahead of it. Off the route
/// by more than `offRouteM` for `offRouteHoldS`, the follower says so (`leftRoute`) and the basis is the
/// course; while off, the whole rest of the route ahead is searched, so a detour that comes back
/// anywhere ahead is noticed (`rejoinedRoute`). Time is passed in.
public struct RouteProjection: Sendable {
    /// 60 s off the route before it counts (CONTRACT.md): a GPS excursion, a parallel lane or a
    /// service area is shorter than that; a wrong turn is longer.
    public static let offRouteHoldS = 60.0
    /// 50 m back: a receiver's jitter and a projection that lands a little behind at a bend, never a
    /// whole pass of a loop.
    public static let backToleranceM = 50.0
    /// 5 km ahead: enough for a few minutes of fixes at road speed between two projections; far less
    /// than the length of a loop that comes back to the same place.
    public static let forwardWindowM = 5_000.0
    /// 70 m/s (252 km/h) times the seconds since the last projection widens the window after a gap
    /// (a tunnel, a pause of the receiver), so a fast vehicle is not lost behind it.
    public static let maxPlausibleSpeedMps = 70.0
    /// 25 m: in a full search (the first fix, or rejoining) points this close to the best are as good,
    /// and the earliest along the route wins (at the start of a lap, the start, not the finish).
    static let tieM = 25.0

    public let route: RouteGeometry
    /// `ahead.off_route_m`.
    public let offRouteLimitM: Double
    public private(set) var lastAlongM: Double?
    public private(set) var lastOnRouteAt: Date?
    public private(set) var farSince: Date?
    public private(set) var isOffRoute = false

    public init(route: RouteGeometry, offRouteLimitM: Double) {
        self.route = route
        self.offRouteLimitM = offRouteLimitM
    }

    public mutating func update(_ c: Coordinate, at now: Date) -> RouteProgress {
        let fullSearch = lastAlongM == nil || isOffRoute
        let lower = max(0, (lastAlongM ?? 0) - Self.backToleranceM)
        var upper = route.lengthM
        if !fullSearch, let last = lastAlongM {
            let elapsed = max(0, lastOnRouteAt.map { now.timeIntervalSince($0) } ?? 0)
            upper = min(route.lengthM, last + Self.forwardWindowM + Self.maxPlausibleSpeedMps * elapsed)
        }
        let best = nearest(c, from: lower, to: upper, preferEarliest: fullSearch)
        var change: RouteProgress.Change?
        if best.offM <= offRouteLimitM {
            farSince = nil
            if isOffRoute {
                isOffRoute = false
                change = .rejoinedRoute
            }
            lastAlongM = best.alongM
            lastOnRouteAt = now
        } else {
            if farSince == nil { farSince = now }
            if !isOffRoute, let since = farSince, now.timeIntervalSince(since) >= Self.offRouteHoldS {
                isOffRoute = true
                change = .leftRoute
            }
        }
        return RouteProgress(
            alongM: best.alongM, remainingM: route.lengthM - best.alongM, offRouteM: best.offM,
            bearingDeg: route.point(atAlongM: best.alongM).bearingDeg, isOffRoute: isOffRoute, change: change)
    }

    /// The projection of `c` with the least distance among the segments overlapping [lower, upper],
    /// its along-distance kept inside that span (the first such segment on a tie).
    ///
    /// Run for every track point a refresh catches up on (a 20-minute track is ~500 of them, each
    /// searching the ~400 segments of 5 km of a dense route), so it keeps no list: one pass finds the
    /// least distance, and only the full search (`preferEarliest`) walks again for the earliest
    /// segment within `tieM` of it. The fix's tangent plane is made once per search.
    func nearest(_ c: Coordinate, from lower: Double, to upper: Double, preferEarliest: Bool) -> (
        alongM: Double, offM: Double
    ) {
        let first = route.segment(holding: lower)
        let last = route.segment(holding: upper)
        let frame = SphereNavigation.LocalFrame(at: c)
        func candidate(_ i: Int) -> (alongM: Double, offM: Double) {
            let p = route.project(frame, ontoSegment: i)
            guard p.alongM < lower || p.alongM > upper else { return p }
            // The segment's nearest point is outside the window: its end inside the window stands in.
            let clamped = max(lower, min(upper, p.alongM))
            return (clamped, GreatCircle.distanceM(c, route.point(atAlongM: clamped).coordinate))
        }
        var best = candidate(first)
        if first < last {
            for i in (first + 1)...last {
                let p = candidate(i)
                if p.offM < best.offM { best = p }
            }
        }
        guard preferEarliest else { return best }
        for i in first...last {
            let p = candidate(i)
            if p.offM <= best.offM + Self.tieM { return p }
        }
        return best
    }
}
