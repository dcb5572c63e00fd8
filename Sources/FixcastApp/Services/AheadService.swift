import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// What the ahead service could give: the forecast (marked `stale` when it is the last good one kept
/// after a failed refresh) and, when something failed, why. Both can be set.
public struct AheadOutcome: Sendable, Hashable {
    public var forecast: AheadForecast?
    public var issue: ReadingIssue?
    /// The forecast is a stored one that still answers (`AheadReuse`): nothing was asked, and it is
    /// shown as of when it was made and not stored again.
    public var reused: Bool

    public init(forecast: AheadForecast?, issue: ReadingIssue?, reused: Bool = false) {
        self.forecast = forecast
        self.issue = issue
        self.reused = reused
    }
}

/// The weather where the traveller will be (CONTRACT.md "Weather ahead"): the fix and the stored
/// track's last 20 minutes feed the trajectory (route, course or stationary) and the learned speed;
/// the samples go to Open-Meteo in ONE multi-location request (samples in one ~2 km cell asked once)
/// through the shared HTTP client, with the weather's back-off after 429/5xx and Retry-After kept in
/// the store's state; each sample is named offline from the bundled place table.
///
/// `forecast` makes one now (the `ahead` command); `refreshed` is `run`'s: at most every
/// `ahead.refresh_min` (`AheadRefreshPolicy`), sooner on a basis change or a forced reading, else the
/// last forecast as it was. A failed request never fails the reading: the issue names `ahead` and
/// the last forecast is kept, marked stale, until the last of its samples' arrival times has passed.
public actor AheadService {
    /// The track this far back is read for the speed and the course: the speed's 20 minutes
    /// (`TravelSpeed.windowS`) and the course's 2 (a margin for the receiver's clock is in the 20).
    static let trackWindowS = TravelSpeed.windowS

    private let settings: AheadSettings
    private let baseURL: String
    private let http: any HTTPFetching
    private let store: (any StateStore & RecentTrackStore & AheadForecastStore)?
    private let places: OfflinePlaces?
    private let clock: any WallClock
    /// The alerts on the way (`AlertService.alertsAhead`); nil: `ahead.alerts` stays empty.
    private let alerts: AlertService?
    private let maxPlausibleMps: Double
    /// How long a stored forecast answers `fixcast ahead` (`AheadReuse`): the weather's cache rule.
    private let cache: WeatherCachePolicy
    private let backoff: SavedBackoff
    private var trajectory: AheadTrajectory
    private var refreshPolicy: AheadRefreshPolicy
    private var last: AheadForecast?
    /// Why the last refresh failed (nil once one succeeds): until the next refresh, the readings keep
    /// saying so, and the forecast they carry is the kept one, marked stale.
    private var lastFailure: ReadingIssue?

    /// How many times the forecast service was actually asked (the tests count requests by it).
    public private(set) var requestCount = 0

    public init(
        settings: Settings.Ahead, route: RouteGeometry?, http: any HTTPFetching,
        store: (any StateStore & RecentTrackStore & AheadForecastStore)?,
        places: OfflinePlaces?, clock: any WallClock, alerts: AlertService? = nil,
        maxPlausibleMps: Double = FixPlausibility.defaultMaxSpeedMps, cache: WeatherCachePolicy = WeatherCachePolicy()
    ) {
        self.cache = cache
        self.alerts = alerts
        self.settings = AheadSettings(settings)
        var base = settings.baseURL.isEmpty ? OpenMeteoWeather.publicBaseURL : settings.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.http = http
        self.store = store
        self.places = places
        self.clock = clock
        self.maxPlausibleMps = maxPlausibleMps
        self.backoff = SavedBackoff(key: "ahead.backoff.open-meteo", state: store)
        self.trajectory = AheadTrajectory(
            route: route, routeID: route == nil ? nil : settings.route, offRouteM: settings.offRouteM)
        self.refreshPolicy = AheadRefreshPolicy(refreshMin: settings.refreshMin)
    }

    /// Reads and checks the route file `path` (a GPX 1.1 `rte`, else `trk`); nil for an empty path.
    /// A problem names `origin`, where the config file or the environment set the path, when given.
    public static func loadRoute(_ path: String, setAt origin: ConfigOrigin? = nil) throws(AheadError)
        -> RouteGeometry?
    {
        do {
            return try readRoute(path)
        } catch {
            guard let origin else { throw error }
            throw .routeSetting(error, origin)
        }
    }

    private static func readRoute(_ path: String) throws(AheadError) -> RouteGeometry? {
        guard !path.isEmpty else { return nil }
        switch RegularFile.bytes(path, maxBytes: GPXRouteReader.maxBytes) {
        case .failure(let problem):
            throw .routeFile(path: path, detail: problem.phrase)
        case .success(let bytes):
            do {
                guard let geometry = RouteGeometry(try GPXRouteReader.read(bytes)) else {
                    throw AheadError.route(GPXRouteError(.onePoint).at(path: path))
                }
                return geometry
            } catch let e as GPXRouteError {
                throw .route(e.at(path: path))
            } catch let e as AheadError {
                throw e
            } catch {
                throw .route(GPXRouteError(.noPoints).at(path: path))
            }
        }
    }

    /// A forecast from `position` for the `ahead` command: the newest stored one when it still answers
    /// (`AheadReuse`: what would be asked now, made within `weather.cache_min`, 1 min with `force`;
    /// offline, older ones marked stale), else one made now. No refresh interval applies.
    public func forecast(from position: Position, offline: Bool, force: Bool = false) async -> AheadOutcome {
        let track = await recentTrack()
        observe(track, position)
        let speed = learnedSpeed(track, position)
        if let stored = await storedAnswer(from: position, speed: speed, offline: offline, force: force) {
            return stored
        }
        return await make(from: position, speed: speed, offline: offline, keepingLast: false)
    }

    /// The newest stored forecast when it answers for `position` now; nil to make one.
    private func storedAnswer(from position: Position, speed: TravelSpeed?, offline: Bool, force: Bool) async
        -> AheadOutcome?
    {
        let now = clock.now()
        guard let store, let plan = plan(from: position, speed: speed, wallNow: now),
            var stored = try? await store.lastAheadForecast(),
            let answer = AheadReuse.answer(stored, cache: cache, forced: force, offline: offline, now: now)
        else { return nil }
        let points = AheadSampling.samples(along: plan.path, speedMps: speed?.mps ?? 0, now: now, settings: settings)
        guard AheadReuse.matches(stored, plan: plan, points: points, from: position.coordinate) else { return nil }
        // Rain ahead by the threshold in force now (a changed ahead.rain_mm_h), as a new one would be.
        stored.rain = AheadForecastAssembly.rain(of: stored.samples, rainMmH: settings.rainMmH)
        guard answer == .stale else { return AheadOutcome(forecast: stored, issue: nil, reused: true) }
        stored.stale = true
        return AheadOutcome(forecast: stored, issue: ReadingIssue(AheadError.offline), reused: true)
    }

    /// `run`'s: a fresh forecast when `AheadRefreshPolicy` says one is due (or `force` and past its
    /// one-minute floor), else the last one as it was.
    public func refreshed(from position: Position, force: Bool, offline: Bool) async -> AheadOutcome {
        let track = await recentTrack()
        observe(track, position)
        let now = clock.now()
        let speed = learnedSpeed(track, position)
        let plan = plan(from: position, speed: speed, wallNow: now)
        _ = trajectory.takeChange()
        // Nothing to follow: a forecast still covering is kept. A route without a speed to time it by
        // is what a person asked for not working: the reading says why, each reading while it lasts (the
        // agent's health says it once). No course yet is how every run starts (and all of `--at`'s): no
        // error for it, or each start would say one on stderr and another when the course came.
        guard plan != nil else {
            let kept = lastFailure == nil ? lastCovering(now) : staleLast(at: now)
            // A refresh that failed still stands until one works: saying nothing here would tell the
            // agent's health that ahead works again, and the next reading that it fails.
            return AheadOutcome(forecast: kept, issue: runIssue(speed: speed) ?? lastFailure)
        }
        guard refreshPolicy.reason(at: now, basis: plan?.refreshBasis, forced: force) != nil else {
            // Not due: the last forecast as it was, or, after a failed refresh, kept and still stale.
            if let lastFailure { return AheadOutcome(forecast: staleLast(at: now), issue: lastFailure) }
            return AheadOutcome(forecast: lastCovering(now), issue: nil)
        }
        if let basis = plan?.refreshBasis { refreshPolicy.refreshed(at: now, basis: basis) }
        return await make(from: position, speed: speed, offline: offline, keepingLast: true)
    }

    // MARK: - One forecast

    private func make(from position: Position, speed: TravelSpeed?, offline: Bool, keepingLast: Bool) async
        -> AheadOutcome
    {
        let now = clock.now()
        guard let plan = plan(from: position, speed: speed, wallNow: now) else {
            return AheadOutcome(
                forecast: keepingLast ? lastCovering(now) : nil,
                issue: keepingLast ? runIssue(speed: speed) : ReadingIssue(nothingToFollow(speed: speed)))
        }
        let points = AheadSampling.samples(along: plan.path, speedMps: speed?.mps ?? 0, now: now, settings: settings)
        let origin = AheadForecast.Origin(coordinate: position.coordinate, fixTime: position.fixTime)
        let names = points.map { placeName($0.coordinate) }
        guard let request = OpenMeteoAheadRequest(samples: points, now: now) else {
            let empty = AheadForecastAssembly.forecast(
                plan: plan, speed: speed, from: origin, madeAt: now, points: [], locationOfSample: [], series: [],
                places: [], rainMmH: settings.rainMmH)
            last = empty
            lastFailure = nil
            return AheadOutcome(forecast: empty, issue: nil)
        }
        // Not asked: the kept forecast goes stale saying why, as after a failed request.
        if offline { return failed(ReadingIssue(AheadError.offline), at: now) }
        if let until = await backoff.heldUntil(now: now) {
            return failed(ReadingIssue(AheadError.backingOff(until: until)), at: now)
        }
        switch await fetch(request, now: now) {
        case .failure(let error):
            return failed(ReadingIssue(error), at: now)
        case .success(let series):
            lastFailure = nil
            var made = AheadForecastAssembly.forecast(
                plan: plan, speed: speed, from: origin, madeAt: now, points: points,
                locationOfSample: request.locationOfSample, series: series, places: names,
                rainMmH: settings.rainMmH)
            var issue: ReadingIssue?
            if let alerts {
                let ahead = await alerts.alertsAhead(made.samples, from: position.coordinate, offline: offline)
                made.alerts = ahead.alerts
                issue = ahead.error.map(ReadingIssue.init)
            }
            last = made
            return AheadOutcome(forecast: made, issue: issue)
        }
    }

    /// In `run`, the one plan missing worth an error: a route set and no speed (see `refreshed`).
    private func runIssue(speed: TravelSpeed?) -> ReadingIssue? {
        nothingToFollow(speed: speed) == .noSpeed ? ReadingIssue(AheadError.noSpeed) : nil
    }

    /// Why there is no plan: a route and no speed says what is missing, not "needs a route".
    private func nothingToFollow(speed: TravelSpeed?) -> AheadError {
        speed == nil && trajectory.route != nil ? .noSpeed : .noBasis
    }

    /// The last good forecast while it still covers a time to come (`AheadForecast.isOutlived`).
    private func lastCovering(_ now: Date) -> AheadForecast? {
        guard let kept = last, !kept.isOutlived(at: now) else { return nil }
        return kept
    }

    /// A refresh that failed for `issue`: kept for the readings until the next refresh.
    private func failed(_ issue: ReadingIssue, at now: Date) -> AheadOutcome {
        lastFailure = issue
        return AheadOutcome(forecast: staleLast(at: now), issue: issue)
    }

    /// The last good forecast, marked stale, while it still covers a time to come.
    private func staleLast(at now: Date) -> AheadForecast? {
        guard var kept = lastCovering(now) else { return nil }
        kept.stale = true
        return kept
    }

    /// The one request for every sample.
    private func fetch(_ request: OpenMeteoAheadRequest, now: Date) async -> Result<[AheadHourlySeries], AheadError> {
        requestCount += 1
        let response: HTTPResponse
        do {
            response = try await http.get(
                HTTPRequest(url: request.url(baseURL: baseURL), headers: ["Accept": "application/json"]))
        } catch {
            return .failure(.transport(reason: error.reason))
        }
        guard (200...299).contains(response.status) else {
            await backoff.recordFailure(status: response.status, retryAfter: response.retryAfter, now: now)
            let detail = OpenMeteoDecoder.errorReason(response.body).map {
                TextCap.capped($0, maxBytes: TextCap.serverReason)
            }
            return .failure(.status(code: response.status, detail: detail))
        }
        await backoff.recordSuccess()
        do {
            return .success(try OpenMeteoAheadDecoder.decode(response.body, locations: request.locations.count))
        } catch {
            return .failure(.decode(error))
        }
    }

    // MARK: - Trajectory and speed

    /// The trajectory's plan from `position`, at `wallNow` put on the fixes' own time line.
    private func plan(from position: Position, speed: TravelSpeed?, wallNow: Date) -> AheadTrajectory.Plan? {
        trajectory.plan(
            from: position.coordinate, speed: speed, now: trajectory.timeLineNow(for: position, wallNow: wallNow))
    }

    /// The stored track since the last observed point, then the fix itself, into the trajectory.
    private func observe(_ track: [Fix], _ position: Position) {
        for fix in track { trajectory.observe(fix) }
        trajectory.observe(
            Fix(
                time: position.fixTime, receivedAt: position.obtainedAt, coordinate: position.coordinate,
                mode: position.mode ?? .twoD, speedMps: position.speedMps, trackDeg: position.trackDeg))
    }

    private func recentTrack() async -> [Fix] {
        guard let store else { return [] }
        let since = clock.now().addingTimeInterval(-Self.trackWindowS)
        return (try? await store.recentTrack(since: since)) ?? []
    }

    /// The median moving speed of the last 20 min of fix times, else the receiver's.
    private func learnedSpeed(_ fixes: [Fix], _ position: Position) -> TravelSpeed? {
        let track = fixes.map { TrackSample(time: $0.time ?? $0.receivedAt, coordinate: $0.coordinate) }
        let now = position.fixTime ?? position.obtainedAt
        let receiver = position.source == .gps ? position.speedMps : nil
        return TravelSpeed.learn(track: track, now: now, receiverMps: receiver, maxPlausibleMps: maxPlausibleMps)
    }

    private func placeName(_ c: Coordinate) -> String? {
        guard let places else { return nil }
        return (try? places.nearestPlace(to: c))?.name
    }
}
