import FoundationEssentials

/// What the samples ahead follow, decided from the fixes seen so far: the route (projected forward
/// only, off it after `off_route_m` for 60 s), else the smoothed course, else staying here.
///
/// The fixes come in time order: the stored track's recent points, then the fix a forecast is made
/// from. Each is observed once (a point not after the last observed one is skipped), so the same
/// trajectory can be fed the overlapping track of each refresh. Times are the fixes' own (the
/// receiver's; a fix without one by the arrival clock moved onto it, `receiverOffsetS`): the system clock can be stepped while `run` runs (a Pi without a
/// real-time clock set by NTP at its first network, `date -s`), and a step of days read as days of
/// travel opened the route's search window to the whole route and threw the projection to its far
/// end; a step back froze it until the clock caught up. The learned speed is the caller's.
public struct AheadTrajectory: Sendable {
    /// What `plan` decided: the basis, the path to lay samples along, and what refreshing cares about.
    public struct Plan: Sendable, Equatable {
        public var basis: AheadBasis
        public var offRoute: Bool
        public var path: AheadPath
        /// The route's name and what remains of it; nil without a route.
        public var route: AheadForecast.Route?
        public var refreshBasis: AheadRefreshPolicy.Basis

        public init(
            basis: AheadBasis, offRoute: Bool, path: AheadPath, route: AheadForecast.Route?,
            refreshBasis: AheadRefreshPolicy.Basis
        ) {
            self.basis = basis
            self.offRoute = offRoute
            self.path = path
            self.route = route
            self.refreshBasis = refreshBasis
        }
    }

    public let route: RouteGeometry?
    /// Names the route for the refresh policy (its file), so a new route is a change.
    public let routeID: String?
    var projection: RouteProjection?
    var course = CourseSmoother()
    var stationary = StationaryDetector()
    public private(set) var lastObservedAt: Date?
    /// The receiver's clock minus the arrival clock at the last fix that had a time: what puts a fix
    /// without one (a receiver that does not know the date yet) on the receiver's time line too. nil
    /// until a dated fix came; the fixes before it are on the arrival clock (an offset of 0).
    public private(set) var receiverOffsetS: Double?
    public private(set) var progress: RouteProgress?
    /// Leaving or rejoining the route since `takeChange()` was last called: said once.
    var pendingChange: RouteProgress.Change?

    let offRouteM: Double

    public init(route: RouteGeometry?, routeID: String?, offRouteM: Double) {
        self.route = route
        self.routeID = route == nil ? nil : routeID
        self.offRouteM = offRouteM
        self.projection = route.map { RouteProjection(route: $0, offRouteLimitM: offRouteM) }
    }

    /// One fix, in time order; a fix not after the last observed one changes nothing.
    public mutating func observe(_ fix: Fix) {
        let t: Date
        if let time = fix.time {
            let offset = time.timeIntervalSince(fix.receivedAt)
            // The fixes so far had no time and went by the arrival clock, which reads far from the
            // receiver's (a Pi's clock hours off): start again on the receiver's time line rather than
            // read the difference as hours of travel, or skip every fix until the clock catches up.
            if receiverOffsetS == nil, lastObservedAt != nil, abs(offset) > ClockStep.toleranceS { restart() }
            receiverOffsetS = offset
            t = time
        } else {
            t = fix.receivedAt.addingTimeInterval(receiverOffsetS ?? 0)
        }
        if let last = lastObservedAt, t <= last { return }
        lastObservedAt = t
        course.observe(trackDeg: fix.trackDeg, speedMps: fix.speedMps, at: t)
        stationary.observe(speedMps: fix.speedMps, at: t)
        if var follower = projection {
            let p = follower.update(fix.coordinate, courseDeg: fix.trackDeg, speedMps: fix.speedMps, at: t)
            projection = follower
            progress = p
            if let change = p.change { pendingChange = change }
        }
    }

    /// Forgets what the fixes so far told (projection, course, standing still); the route stays.
    private mutating func restart() {
        projection = route.map { RouteProjection(route: $0, offRouteLimitM: offRouteM) }
        course = CourseSmoother()
        stationary = StationaryDetector()
        lastObservedAt = nil
        progress = nil
    }

    /// `now` on the trajectory's time line, for `plan`: a fix's own time plus how long ago it was
    /// obtained (a lost fix still ages, so a car parked in a garage becomes stationary); without a fix
    /// time, the arrival clock moved onto the receiver's by the last known offset.
    public func timeLineNow(for position: Position, wallNow: Date) -> Date {
        guard let fixTime = position.fixTime else { return wallNow.addingTimeInterval(receiverOffsetS ?? 0) }
        return fixTime.addingTimeInterval(Double(position.ageSeconds(at: wallNow)))
    }

    /// The route change seen since the last call (left or rejoined), once.
    public mutating func takeChange() -> RouteProgress.Change? {
        defer { pendingChange = nil }
        return pendingChange
    }

    /// The plan for a forecast made at `now` (on the fixes' time line: `timeLineNow`) from
    /// `here`; nil when no basis applies yet (no speed and no course, not yet stationary): then there
    /// is no forecast rather than a made-up one.
    public func plan(from here: Coordinate, speed: TravelSpeed?, now: Date) -> Plan? {
        let progress = route == nil ? nil : self.progress
        let onRoute = progress.map { !$0.isOffRoute } ?? false
        let isStationary = stationary.isStationary(at: now)
        guard
            let basis = AheadBasis.choose(
                onRoute: onRoute, hasSpeed: speed != nil, hasCourse: course.courseDeg != nil,
                isStationary: isStationary)
        else { return nil }
        let offRoute = progress?.isOffRoute ?? false
        let path: AheadPath
        switch basis {
        case .route:
            guard let route, let progress else { return nil }
            path = .route(route, fromAlongM: progress.alongM)
        case .course:
            guard let courseDeg = course.courseDeg else { return nil }
            path = .course(from: here, courseDeg: courseDeg)
        case .stationary:
            path = .stationary(at: here)
        }
        let routeSummary = route.map {
            AheadForecast.Route(name: $0.name, remainingKm: (progress?.remainingM ?? $0.lengthM) / 1000)
        }
        return Plan(
            basis: basis, offRoute: offRoute, path: path, route: routeSummary,
            refreshBasis: AheadRefreshPolicy.Basis(basis: basis, routeID: routeID, offRoute: offRoute))
    }
}
