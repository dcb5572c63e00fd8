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
/// what `maxPlausibleSpeedMps` could cover since, plus `forwardMarginM`, ahead of it; and within it,
/// of the passes about as near as the nearest (`tieM`), the one nearest where the traveller should be
/// by now (the last projection and the pace since) wins, so near the turn of an out-and-back, where
/// the way back is inside the window too, the fix stays on the way out until it has passed the turn,
/// and on the way back after it. Off the route
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
    /// 1 km ahead beyond what the time since the last projection allows: a projection that lands
    /// ahead at a bend of a sparse route, a receiver's jump. The way back of an out-and-back is within
    /// it only in the last ~500 m before the turn, where the earliest near point wins.
    public static let forwardMarginM = 1_000.0
    /// 70 m/s (252 km/h) times the seconds since the last projection widens the window after a gap
    /// (a tunnel, a pause of the receiver), so a fast vehicle is not lost behind it.
    public static let maxPlausibleSpeedMps = 70.0
    /// 25 m: passes this close to the best are as good, and the one nearest where the traveller should
    /// be wins (at the first fix on a lap, the start, not the finish; before the turn of an
    /// out-and-back, the way out, after it the way back, also where the two are drawn on the same
    /// points and tie to the last bit).
    static let tieM = 25.0
    /// 1 m: points this close in distance are as near; which is nearer `reference` along the route decides.
    static let sameDistanceM = 1.0

    public let route: RouteGeometry
    /// `ahead.off_route_m`.
    public let offRouteLimitM: Double
    public private(set) var lastAlongM: Double?
    public private(set) var lastOnRouteAt: Date?
    public private(set) var farSince: Date?
    public private(set) var isOffRoute = false
    /// The pace along the route between the last two projections on it, m/s (0 before two): where the
    /// traveller should be now is the last projection plus this much a second since.
    public private(set) var paceMps = 0.0

    public init(route: RouteGeometry, offRouteLimitM: Double) {
        self.route = route
        self.offRouteLimitM = offRouteLimitM
    }

    public mutating func update(_ c: Coordinate, at now: Date) -> RouteProgress {
        let fullSearch = lastAlongM == nil || isOffRoute
        let lower = max(0, (lastAlongM ?? 0) - Self.backToleranceM)
        var upper = route.lengthM
        let elapsed = max(0, lastOnRouteAt.map { now.timeIntervalSince($0) } ?? 0)
        if !fullSearch, let last = lastAlongM {
            upper = min(route.lengthM, last + Self.forwardMarginM + Self.maxPlausibleSpeedMps * elapsed)
        }
        let expected = lastAlongM.map { min(route.lengthM, $0 + paceMps * elapsed) }
        let best = nearest(c, from: lower, to: upper, reference: expected)
        var change: RouteProgress.Change?
        if best.offM <= offRouteLimitM {
            farSince = nil
            if isOffRoute {
                isOffRoute = false
                change = .rejoinedRoute
            }
            if let last = lastAlongM, elapsed > 0 {
                paceMps = max(0, min(Self.maxPlausibleSpeedMps, (best.alongM - last) / elapsed))
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

    /// The projection of `c`, among the segments overlapping [lower, upper] (its along-distance kept
    /// inside that span), on the pass of the route nearest `reference` along it (where the traveller
    /// should be by now: the last projection and the pace since; nil: the first fix, where the
    /// earliest pass wins).
    ///
    /// Near points make passes: runs of consecutive segments that come within `tieM` of the least
    /// distance. Each pass gives its nearest point (a segment that ends just behind the fix is within
    /// `tieM` too, and must not hold the projection back at every joint), and of the passes the one
    /// nearest `reference` wins (`continuation`): before the turn of an out-and-back, the way
    /// out; after it, the way back, also where the way back is drawn on the same points and joins the
    /// way out at the turn in one pass (there, points as near as `sameDistanceM` are told apart by
    /// `continuation` too).
    ///
    /// Run for every track point a refresh catches up on (a 20-minute track is ~500 of them, each
    /// searching the segments of a km or so of a dense route), so it keeps no list: one walk finds the
    /// least distance, a second the passes. The fix's tangent plane is made once per search.
    func nearest(_ c: Coordinate, from lower: Double, to upper: Double, reference: Double?) -> (
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
        func cost(_ p: (alongM: Double, offM: Double)) -> Double {
            Self.continuation(from: reference, to: p.alongM)
        }
        var chosen: (alongM: Double, offM: Double)?
        var pass: (alongM: Double, offM: Double)?
        func endPass() {
            if let held = pass, chosen.map({ cost(held) < cost($0) }) ?? true { chosen = held }
            pass = nil
        }
        for i in first...last {
            let p = candidate(i)
            guard p.offM <= best.offM + Self.tieM else {
                endPass()
                continue
            }
            guard let held = pass else {
                pass = p
                continue
            }
            let nearer = p.offM < held.offM - Self.sameDistanceM
            let asNear = abs(p.offM - held.offM) <= Self.sameDistanceM
            if nearer || (asNear && cost(p) < cost(held)) { pass = p }
        }
        endPass()
        return chosen ?? best
    }

    /// How far a point `along` is from where the traveller should be (`reference`); without a
    /// reference (the first fix), its distance from the start: the earliest pass.
    static func continuation(from reference: Double?, to along: Double) -> Double {
        guard let reference else { return along }
        return abs(along - reference)
    }
}
