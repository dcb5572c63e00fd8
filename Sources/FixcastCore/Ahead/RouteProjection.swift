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
/// fix only a window of the route is searched: from `backToleranceM` behind the furthest projection so far to
/// what `maxPlausibleSpeedMps` could cover since, plus `forwardMarginM`, ahead of it; and within it,
/// the point that is nearest the fix, counting also how far along the route it is from where the
/// traveller should be by now (the last projection and the pace since: `placement`), wins. So near the
/// turn of an out-and-back, where the way back is inside the window too, the fix stays on the way out
/// until it has passed the turn, and on the way back after it; a fix thrown nearer the next leg of a
/// switchback is not taken 600 m ahead. Off the route
/// by more than `offRouteM` for `offRouteHoldS`, the follower says so (`leftRoute`) and the basis is the
/// course; while off, the whole rest of the route ahead is searched, so a detour that comes back
/// anywhere ahead is noticed (`rejoinedRoute`). With the fix's own course (moving fast enough for it
/// to mean something), a part of the route heading the other way also counts `wrongWayM` more: the
/// way out and the way back of a route drawn on the same points then part even when the turn was
/// passed unseen (a stop in a gap of the receiver), and so do the legs of a switchback. Time is
/// passed in.
public struct RouteProjection: Sendable {
    /// 60 s off the route before it counts (CONTRACT.md): a GPS excursion, a parallel lane or a
    /// service area is shorter than that; a wrong turn is longer.
    public static let offRouteHoldS = 60.0
    /// 50 m back: a receiver's jitter and a projection that lands a little behind at a bend, never a
    /// whole pass of a loop.
    public static let backToleranceM = 50.0
    /// 1 km ahead beyond what the time since the last projection allows: a projection that lands
    /// ahead at a bend of a sparse route, a receiver's jump. The way back of an out-and-back is within
    /// it only in the last ~500 m before the turn, where `placement` keeps the way out.
    public static let forwardMarginM = 1_000.0
    /// 70 m/s (252 km/h) times the seconds since the last projection widens the window after a gap
    /// (a tunnel, a pause of the receiver), so a fast vehicle is not lost behind it.
    public static let maxPlausibleSpeedMps = 70.0
    /// 0.1: a metre off the route weighs as much as 10 m along it from where the traveller should be,
    /// when the last projection was at most `trustedForS` ago: a fix must come 10 m nearer another
    /// pass 100 m on (the way back of an out-and-back, the next leg of a switchback 600 m on needs
    /// 60 m) to be taken for it. Older, the weight falls with the time since (the pace may have
    /// changed), and the fix's own distance decides.
    static let alongWeight = 0.1
    static let trustedForS = 10.0
    /// Without a last projection (the first fix), 20 m along the route weighs a metre: of passes about
    /// as near, the earliest (at the first fix on a lap, the start, not the finish; at the start of a
    /// switchback, its first leg, not the next one a jittery fix lands nearer). A pick too early is
    /// mended by the next fixes; one too far ahead is not (forward only).
    static let firstFixAlongWeight = 0.05
    /// Behind where the traveller should be counts twice (`continuation`): of two passes as far either
    /// side, the one ahead (stopped at the turn of an out-and-back, the way back).
    static let behindWeight = 2.0
    /// 100 m for a part of the route heading straight against the fix's course (scaled by how much it
    /// does: nothing up to 90° off, so a bend or a receiver's lag at a turn costs nothing): of two
    /// passes as near, the one going the traveller's way, unless the other is 100 m nearer (a course
    /// can be wrong for a fix; a position 100 m out twice over is rarer).
    static let wrongWayM = 100.0
    /// 2 m/s, as for the course (`CourseSmoother.minSpeedMps`): below it a receiver's course is noise.
    static let minCourseSpeedMps = CourseSmoother.minSpeedMps

    public let route: RouteGeometry
    /// `ahead.off_route_m`.
    public let offRouteLimitM: Double
    public private(set) var lastAlongM: Double?
    /// The furthest projection on the route so far: nothing behind it by more than `backToleranceM`
    /// is searched again (forward only).
    public private(set) var furthestAlongM: Double?
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

    /// Takes one fix: its position, and its course over ground and speed when the receiver gives them
    /// (a course below `minCourseSpeedMps` is not used).
    public mutating func update(
        _ c: Coordinate, courseDeg: Double? = nil, speedMps: Double? = nil, at now: Date
    ) -> RouteProgress {
        let fullSearch = lastAlongM == nil || isOffRoute
        // Back from the furthest point reached, not from the last: the allowance is for a receiver's
        // jitter once, not per fix, so one wrong pick near a turn cannot walk back down the route.
        let lower = max(0, (furthestAlongM ?? 0) - Self.backToleranceM)
        var upper = route.lengthM
        let elapsed = max(0, lastOnRouteAt.map { now.timeIntervalSince($0) } ?? 0)
        if !fullSearch, let last = lastAlongM {
            upper = min(route.lengthM, last + Self.forwardMarginM + Self.maxPlausibleSpeedMps * elapsed)
        }
        let expected = lastAlongM.map { min(route.lengthM, $0 + paceMps * elapsed) }
        var heading: Double?
        if let courseDeg, let speedMps, courseDeg.isFinite, speedMps.isFinite, speedMps >= Self.minCourseSpeedMps {
            heading = courseDeg
        }
        let best = nearest(c, from: lower, to: upper, reference: expected, elapsed: elapsed, headingDeg: heading)
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
            furthestAlongM = max(furthestAlongM ?? best.alongM, best.alongM)
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

    /// The projection of `c` among the segments overlapping [lower, upper] (its along-distance kept
    /// inside that span) with the least `placement`: its distance from `c`, plus how far along the route
    /// it is from `reference` (where the traveller should be by now; nil: the first fix), weighted as
    /// `alongWeight` says for `elapsed` seconds since the last projection, and `wrongWayM` as far as the
    /// segment heads against `headingDeg` (the fix's course; nil: unknown).
    ///
    /// Run for every track point a refresh catches up on (a 20-minute track is ~500 of them, each
    /// searching the segments of a km or so of a dense route), so it keeps no list: one walk. The fix's
    /// tangent plane is made once per search.
    func nearest(
        _ c: Coordinate, from lower: Double, to upper: Double, reference: Double?, elapsed: Double,
        headingDeg: Double? = nil
    ) -> (alongM: Double, offM: Double) {
        let first = route.segment(holding: lower)
        let last = route.segment(holding: upper)
        let frame = SphereNavigation.LocalFrame(at: c)
        let heading = headingDeg.map { $0 * Double.pi / 180 }.map {
            (east: Elementary.sin($0), north: Elementary.cos($0))
        }
        typealias Candidate = (alongM: Double, offM: Double, wrongWay: Double)
        func candidate(_ i: Int) -> Candidate {
            let p = route.project(frame, ontoSegment: i)
            // How far the segment heads against the course: 0 up to 90° off, 1 straight against it.
            let wrongWay = heading.map { max(0, -(p.east * $0.east + p.north * $0.north)) } ?? 0
            guard p.alongM < lower || p.alongM > upper else { return (p.alongM, p.offM, wrongWay) }
            // The segment's nearest point is outside the window: its end inside the window stands in.
            let clamped = max(lower, min(upper, p.alongM))
            return (clamped, GreatCircle.distanceM(c, route.point(atAlongM: clamped).coordinate), wrongWay)
        }
        let weight =
            reference == nil
            ? Self.firstFixAlongWeight : Self.alongWeight * min(1, Self.trustedForS / max(elapsed, 1e-9))
        // At the first fix, the earliest-pass preference spans the whole route (a way back 4 km on
        // costs 200 m), so there heading the other way costs that much more: the course picks the pass,
        // the earliest of those going the traveller's way. But only among the passes within
        // `wrongWayM` of the nearest: a course that is wrong for one fix (a U-turn, a car park's exit)
        // must not send the first projection kilometres ahead to a part of the route that merely
        // heads the right way, where forward only would hold it. (The first fix's candidates are made
        // once and kept for the two looks; every other search keeps no list: one walk.)
        let firstFixWithCourse = reference == nil && heading != nil
        let wrongWayCost = Self.wrongWayM + (firstFixWithCourse ? weight * route.lengthM : 0)
        let kept = firstFixWithCourse ? (first...last).map(candidate) : nil
        let withinM = (kept?.map(\.offM).min() ?? .infinity) + Self.wrongWayM
        var best: Candidate?
        var bestPlacement = Double.infinity
        for i in first...last {
            let p = kept?[i - first] ?? candidate(i)
            if firstFixWithCourse, p.offM > withinM { continue }
            let placement =
                p.offM + weight * Self.continuation(from: reference, to: p.alongM) + wrongWayCost * p.wrongWay
            if best == nil || placement < bestPlacement {
                best = p
                bestPlacement = placement
            }
        }
        // Always one: the nearest candidate is within `withinM`, and other searches skip none.
        let chosen = best ?? candidate(first)
        return (chosen.alongM, chosen.offM)
    }

    /// How far a point `along` is from where the traveller should be (`reference`), a metre behind it
    /// counting `behindWeight` times (so of two passes as far either side, the one ahead wins: stopped
    /// at the turn of an out-and-back, the way back); without a reference (the first fix), its distance
    /// from the start: the earliest pass.
    static func continuation(from reference: Double?, to along: Double) -> Double {
        guard let reference else { return along }
        return along >= reference ? along - reference : (reference - along) * behindWeight
    }
}
