import FixcastCore
import FoundationEssentials

/// What the weather service could give for one request: the report (marked `cached`/`stale`
/// honestly) and, when a fetch failed or is being held back, why. Both can be set: stored weather
/// served because the fetch failed comes with `stale: true` AND the error.
public struct WeatherOutcome: Sendable, Hashable {
    public var report: WeatherReport?
    public var error: WeatherError?

    public init(report: WeatherReport?, error: WeatherError?) {
        self.report = report
        self.error = error
    }
}

/// The weather at a position, fetched politely: the seeds' rules (DESIGN.md §3–4) around one provider.
///
/// - Cache: stored weather within `trigger.move_km` and younger than `weather.cache_min` answers
///   without a request; a forced request accepts only `weather.forced_cache_min` (never zero).
/// - Coalescing: a request arriving while one is in flight joins it; a forced one arriving during an
///   ordinary one joins and then forces a fresh one (`RequestCoalescer`).
/// - Back-off: after 429/5xx no request until `RetryBackoff` allows it; the deadline is kept in the
///   store's state, so separate `fixcast now` runs obey it too. Meanwhile stored weather is served stale.
public actor WeatherService {
    private let fetcher: any WeatherFetching
    private let cache: (any WeatherCacheStore & StateStore)?
    private let policy: WeatherCachePolicy
    private let clock: any WallClock

    /// The request in flight, if any, tagged with whether it is forced.
    private var inFlight = RequestsInFlight<Bool, WeatherOutcome>()
    /// The last report this process fetched: all there is without a store, and what still serves
    /// when the store cannot be written (a full SD card, a read-only file) or read.
    private var remembered: WeatherReport?
    private let backoff: SavedBackoff

    /// How many times the provider was actually asked (the tests count requests by it).
    public private(set) var fetchCount = 0

    public init(
        fetcher: any WeatherFetching, cache: (any WeatherCacheStore & StateStore)?, settings: Settings,
        clock: any WallClock
    ) {
        self.fetcher = fetcher
        self.cache = cache
        self.policy = WeatherCachePolicy(settings: settings)
        self.clock = clock
        self.backoff = SavedBackoff(key: "weather.backoff.\(fetcher.provider.rawValue)", state: cache)
    }

    public nonisolated var backoffStateKey: String { backoff.key }

    public func weather(at coordinate: Coordinate, force: Bool, offline: Bool) async -> WeatherOutcome {
        if offline { return await storedOnly(at: coordinate) }
        if let current = inFlight.newest {
            let near = GreatCircle.distanceKm(current.coordinate, coordinate) <= policy.moveKm
            switch RequestCoalescer.decide(incomingForce: force, inFlightForce: current.tag) {
            case .join where near:
                return await current.task.value
            case .join, .joinThenForce:
                // Wait for the one in flight (its answer may now be in the cache), then decide afresh:
                // a forced request gets its own fresh fetch unless one younger than the forced lifetime exists.
                _ = await current.task.value
                return await weather(at: coordinate, force: force, offline: false)
            case .start:
                break
            }
        }
        let request = inFlight.start(tag: force, at: coordinate) { id in
            let outcome = await self.resolve(at: coordinate, force: force)
            // Cleared on the actor before anyone waiting on the task resumes, so that a joiner that
            // decides again never sees the finished request as still in flight.
            await self.finished(id)
            return outcome
        }
        return await request.task.value
    }

    private func finished(_ id: Int) {
        inFlight.finish(id)
    }

    // MARK: - One resolution

    private func resolve(at coordinate: Coordinate, force: Bool) async -> WeatherOutcome {
        let now = clock.now()
        let stored = await latestStored(near: coordinate)
        if let stored, policy.serves(stored, position: coordinate, forced: force, now: now) {
            return WeatherOutcome(report: marked(stored, stale: false, now: now), error: nil)
        }

        if let until = await backoff.heldUntil(now: now) {
            return WeatherOutcome(
                report: stored.map { marked($0, stale: true, now: now) },
                error: .backingOff(provider: fetcher.provider, until: until))
        }

        fetchCount += 1
        do {
            // A provider may answer from its own cache without a request (MET Norway before `Expires`);
            // it says so with `cached`, which is kept; only a new fetch is stored.
            // Derived values are filled here, once for every provider, before the report is stored.
            var report = WeatherDerivation.completed(try await fetcher.fetch(at: coordinate, now: now))
            // One the provider served from what it holds is a stored one, served as every stored one is.
            if report.cached { report = marked(report, stale: false, now: now) }
            report.stale = false
            await recordAnswer(report, now: now)
            if !report.cached { await save(report) }
            return WeatherOutcome(report: report, error: nil)
        } catch {
            if case .status(_, let code, _, let retryAfter) = error {
                await backoff.recordFailure(status: code, retryAfter: retryAfter, now: now)
            }
            return WeatherOutcome(report: stored.map { marked($0, stale: true, now: now) }, error: error)
        }
    }

    /// A report came: the back-off ends, unless a part of it was refused with a status that backs off
    /// (OpenWeatherMap's `/forecast` answering 429 or 5xx beside a current weather that came).
    private func recordAnswer(_ report: WeatherReport, now: Date) async {
        for problem in report.valueProblems {
            if case .status(_, let code, _, let retryAfter)? = problem.fetchError, RetryBackoff.backsOff(status: code) {
                await backoff.recordFailure(status: code, retryAfter: retryAfter, now: now)
                return
            }
        }
        await backoff.recordSuccess()
    }

    private func storedOnly(at coordinate: Coordinate) async -> WeatherOutcome {
        guard let stored = await latestStored(near: coordinate) else {
            return WeatherOutcome(report: nil, error: .offline)
        }
        let now = clock.now()
        let fresh = policy.serves(stored, position: coordinate, forced: false, now: now)
        return WeatherOutcome(report: marked(stored, stale: !fresh, now: now), error: nil)
    }

    /// A stored report as served at `now`: marked cached (and stale or not), its days moved to the day
    /// it is shown on when that is a later one (`WeatherDayShift`).
    private func marked(_ report: WeatherReport, stale: Bool, now: Date) -> WeatherReport {
        var copy = WeatherDayShift.shown(report, at: now)
        copy.cached = true
        copy.stale = stale
        return copy
    }

    // MARK: - Store access (a failing store degrades to "nothing stored", never to no weather)

    /// The newest report near `coordinate`, in the store or remembered by this process: a store that
    /// lost the last save must not make the cache and the forced floor forget the last fetch. The
    /// stored copy wins a tie (it is the one every process serves).
    private func latestStored(near coordinate: Coordinate) async -> WeatherReport? {
        let stored = try? await cache?.latestWeather(
            provider: fetcher.provider, near: coordinate, withinKm: policy.moveKm)
        guard let remembered, GreatCircle.distanceKm(remembered.coordinate, coordinate) <= policy.moveKm else {
            return stored
        }
        guard let stored, stored.fetchedAt >= remembered.fetchedAt else { return remembered }
        return stored
    }

    private func save(_ report: WeatherReport) async {
        remembered = report
        try? await cache?.saveWeather(report)
    }
}
