import FoundationEssentials

/// Decides, at each reading in `run`, whether the ahead forecast is asked for again.
///
/// At most every `ahead.refresh_min` (the public models update hourly; ETAs drift slowly), and
/// sooner when what the samples follow changes in a way that moves them: a new route, leaving the
/// route, rejoining it — or a person forces it. A change between `course` and `stationary` waits
/// for the interval: stop-and-go traffic would otherwise ask at every stop. Even a sooner refresh
/// waits `minimumGapS` after the last, as `--force` has a one-minute floor, so a route edge that
/// flaps does not hammer the API. Time is passed in; the caller records each attempt.
public struct AheadRefreshPolicy: Sendable, Equatable {
    /// Why a refresh is due.
    public enum Reason: String, Sendable, Equatable {
        case first, due, newRoute, leftRoute, rejoinedRoute, forced
    }

    /// What the samples follow, as far as refreshing cares.
    public struct Basis: Sendable, Equatable {
        public var basis: AheadBasis
        /// The route being followed (its file and version, as the caller names it); nil without one.
        public var routeID: String?
        /// True while off the route (the basis is then the course).
        public var offRoute: Bool

        public init(basis: AheadBasis, routeID: String?, offRoute: Bool) {
            self.basis = basis
            self.routeID = routeID
            self.offRoute = offRoute
        }
    }

    /// One minute, like `--force`'s floor.
    public static let minimumGapS = 60.0

    /// `ahead.refresh_min`, in seconds.
    public var intervalS: Double
    public private(set) var lastRefreshAt: Date?
    public private(set) var lastBasis: Basis?

    public init(refreshMin: Double) {
        self.intervalS = max(0, refreshMin) * 60
    }

    /// nil: keep the last forecast. `basis` nil: nothing to follow, nothing to ask.
    public func reason(at now: Date, basis: Basis?, forced: Bool = false) -> Reason? {
        guard let basis else { return nil }
        guard let last = lastRefreshAt, let before = lastBasis else { return .first }
        let since = now.timeIntervalSince(last)
        // A clock set back since the last refresh (NTP correcting a clock that ran ahead, `date -s`):
        // how long ago that was is not known, so one is due; waiting for the clock to catch up held
        // the forecast, forced ones too, for as long as the step. A step of seconds is not that
        // (`ClockStep`): the one-minute floor still holds.
        if since >= intervalS || ClockStep.isAhead(last, of: now) { return .due }
        guard since >= Self.minimumGapS else { return nil }
        if forced { return .forced }
        if basis.routeID != before.routeID, basis.routeID != nil { return .newRoute }
        if basis.offRoute, !before.offRoute { return .leftRoute }
        if !basis.offRoute, before.offRoute, basis.routeID != nil { return .rejoinedRoute }
        return nil
    }

    /// A refresh was attempted at `now` for `basis` (successful or not: a failure backs off with the
    /// weather's retry policy, not by asking at every reading).
    public mutating func refreshed(at now: Date, basis: Basis) {
        lastRefreshAt = now
        lastBasis = basis
    }
}
