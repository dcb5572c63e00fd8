import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// The place a reading names, and what went wrong getting it (the reading's `place` and an `errors` entry).
public struct PlaceOutcome: Sendable, Hashable {
    public var place: Place?
    public var issue: ReadingIssue?

    public init(place: Place?, issue: ReadingIssue? = nil) {
        self.place = place
        self.issue = issue
    }
}

/// Names positions and finds places by name, online with offline fallback.
///
/// Reverse geocoding asks Nominatim only when no name is known within `reuseWithinKm` (1 km: a place
/// name does not change within a town, and a stationary or slow receiver then asks once), looking first
/// in this process's memory, then in the store. When Nominatim fails, the bundled GeoNames table names
/// the place instead (source `offline`) and the failure becomes a `ReadingIssue`; nothing is lost.
/// Concurrent questions about the same spot share one request.
public actor PlaceService {
    /// Names are reused within this distance of where they were fetched.
    public static let defaultReuseWithinKm = 1.0

    private let reverse: (any ReverseGeocoding)?
    private let searcher: (any PlaceSearching)?
    private let offline: OfflinePlaces
    private let cache: (any PlaceCacheStore)?
    private let reuseWithinKm: Double

    /// Nominatim's back-off after a 429, 5xx or 403, kept in the store for every process (Nominatim's
    /// usage policy: an application that does not slow down when told is blocked).
    private let backoff: SavedBackoff
    private let language: String
    private let clock: any WallClock

    /// Nominatim answers of this process, including "no place here", newest last.
    private var remembered: [(coordinate: Coordinate, place: Place?)] = []
    private static let rememberedLimit = 64
    private var inFlight = RequestsInFlight<Void, Result<Place?, PlaceError>>()

    /// - Parameters:
    ///   - reverse: Nominatim (nil when `places.provider = "offline"`: every name comes from the table).
    ///   - searcher: Open-Meteo geocoding (nil: searches use the table).
    ///   - offline: the bundled table, for `--offline`, the offline provider and the fallback.
    ///   - cache: the store's place cache (nil: memory only).
    ///   - language: `places.language`, the language Nominatim is asked in (its names are cached
    ///     under it).
    ///   - state: where Nominatim's back-off is kept (nil: this process's memory).
    public init(
        reverse: (any ReverseGeocoding)?, searcher: (any PlaceSearching)?, offline: OfflinePlaces,
        cache: (any PlaceCacheStore)?, reuseWithinKm: Double = PlaceService.defaultReuseWithinKm,
        language: String = "en", state: (any StateStore)? = nil, clock: any WallClock = SystemClock()
    ) {
        self.language = language
        self.backoff = SavedBackoff(key: Self.backoffKey, state: state)
        self.clock = clock
        self.reverse = reverse
        self.searcher = searcher
        self.offline = offline
        self.cache = cache
        self.reuseWithinKm = reuseWithinKm
    }

    /// The usual wiring from the settings: Nominatim and Open-Meteo through `http` unless
    /// `places.provider = "offline"`, the bundled table, and the store's cache. `sharedLimit`: the store
    /// through which Nominatim requests are spaced across processes (nil: within this process only).
    public static func make(
        settings: Settings.Places, http: any HTTPFetching, cache: (any PlaceCacheStore)?,
        sharedLimit: (any AtomicStateStore)? = nil, offline: OfflinePlaces = OfflinePlaces(),
        state: (any StateStore)? = nil, clock: any WallClock = SystemClock()
    ) -> PlaceService {
        let online = settings.provider == .nominatim
        return PlaceService(
            reverse: online
                ? NominatimPlaces(
                    http: http, baseURL: settings.baseURL, language: settings.language, sharedLimit: sharedLimit)
                : nil,
            searcher: online
                ? OpenMeteoPlaceSearch(http: http, baseURL: settings.searchURL, language: settings.language) : nil,
            offline: offline, cache: cache, language: settings.language, state: state, clock: clock)
    }

    /// How long Nominatim's "no place here" is believed: OpenStreetMap rarely gains a place at sea or in
    /// a desert, but it may; a month costs one request a month for a spot.
    static let noPlaceKeptS: Double = 30 * 86_400

    /// The store's state key of Nominatim's back-off.
    static let backoffKey = "places.backoff.nominatim"

    // MARK: - Reverse geocoding

    /// The name of `coordinate`. `offline`: no network (the `--offline` flag).
    public func place(at coordinate: Coordinate, offline offlineOnly: Bool) async -> PlaceOutcome {
        guard !offlineOnly, let reverse else { return await offlineOutcome(coordinate) }
        if let known = remembered.last(where: { isNear($0.coordinate, coordinate) }) {
            if let place = known.place { return PlaceOutcome(place: place) }
            return await offlineOutcome(coordinate, quiet: true)
        }
        if let cache,
            let stored = try? await cache.cachedPlace(
                near: coordinate, withinKm: reuseWithinKm, source: .nominatim, language: language)
        {
            remember(coordinate, stored)
            return PlaceOutcome(place: stored)
        }
        let now = clock.now()
        // Nominatim said "no place here" for this spot lately (a boat at its mooring, asked by every
        // `fixcast now` from cron): the table's nearest place, without asking again.
        if let cache,
            (try? await cache.knowsNoPlace(
                near: coordinate, withinKm: reuseWithinKm, language: language,
                since: now.addingTimeInterval(-Self.noPlaceKeptS))) == true
        {
            remember(coordinate, nil)
            return await offlineOutcome(coordinate, quiet: true)
        }
        if let until = await backoff.heldUntil(now: now) {
            var outcome = await offlineOutcome(coordinate, quiet: true)
            outcome.issue = ReadingIssue(PlaceError.backingOff(service: NominatimPlaces.serviceName, until: until))
            return outcome
        }
        let result = await fetch(reverse, coordinate, now: now)
        switch result {
        case .success(let place?):
            return PlaceOutcome(place: place)
        case .success(nil):
            // Nominatim knows no place here (the sea, a desert): the nearest populated place, if near enough.
            return await offlineOutcome(coordinate, quiet: true)
        case .failure(let error):
            var outcome = await offlineOutcome(coordinate, quiet: true)
            outcome.issue = ReadingIssue(error)
            return outcome
        }
    }

    /// One Nominatim request per spot: a question arriving while a request for a spot within
    /// `reuseWithinKm` is in flight waits for that answer.
    /// Only the question that made the request tells the back-off its answer: one that joined it, or
    /// found it remembered, made none (a 503 joined twice doubled the wait twice).
    private func fetch(_ reverse: any ReverseGeocoding, _ coordinate: Coordinate, now: Date) async -> Result<
        Place?, PlaceError
    > {
        if let running = inFlight.near(coordinate, withinKm: reuseWithinKm) {
            return await running.task.value
        }
        // Another question may have been answered while this one looked in the store.
        if let known = remembered.last(where: { isNear($0.coordinate, coordinate) }) {
            return .success(known.place)
        }
        let request = inFlight.start(tag: (), at: coordinate) { _ -> Result<Place?, PlaceError> in
            do throws(PlaceError) {
                return .success(try await reverse.place(at: coordinate))
            } catch {
                return .failure(error)
            }
        }
        let result = await request.task.value
        inFlight.finish(request.id)
        switch result {
        case .success:
            await backoff.recordSuccess()
        case .failure(.status(_, let code, _, let retryAfter)):
            await backoff.recordFailure(
                status: code, retryAfter: retryAfter, now: now, backsOff: RetryBackoff.backsOffNominatim)
        case .failure:
            break
        }
        if case .success(let place) = result {
            remember(coordinate, place)
            // A store that cannot save only costs a repeated request later; the reading goes on.
            if let place, let cache {
                try? await cache.savePlace(place, at: coordinate, language: language)
            } else if let cache {
                try? await cache.saveNoPlace(at: coordinate, language: language)
            }
        }
        return result
    }

    /// The table's name for `coordinate`, reused from the store within `reuseWithinKm` like Nominatim's:
    /// loading the table costs ~70 ms and ~17 MB (bench/now.sh), which a warm `fixcast now --offline`
    /// should not pay for a name it already knows.
    /// Keyed by the table's version (`offlineCacheKey`): a name an older table or rule gave (Epsom was
    /// "London" before places.bin knew counties) is not reused after an upgrade.
    private func offlineOutcome(_ coordinate: Coordinate, quiet: Bool = false) async -> PlaceOutcome {
        if let cache,
            let stored = try? await cache.cachedPlace(
                near: coordinate, withinKm: reuseWithinKm, source: .offline, language: Self.offlineCacheKey)
        {
            return PlaceOutcome(place: stored)
        }
        do {
            let place = try offline.nearestPlace(to: coordinate)
            if let place, let cache {
                // A store that cannot save only costs a table load later; the reading goes on.
                try? await cache.savePlace(place, at: coordinate, language: Self.offlineCacheKey)
            }
            return PlaceOutcome(place: place)
        } catch {
            // Quiet: the caller reports its own, more useful, issue (or none when Nominatim said "nothing here").
            return PlaceOutcome(place: nil, issue: quiet ? nil : ReadingIssue(error))
        }
    }

    /// What an offline name is cached under, in the cache's language column (offline names have no
    /// language): the bundled table's format version, whose rules made the name.
    static let offlineCacheKey = "table " + OfflinePlaceTable.formatVersion

    private func remember(_ coordinate: Coordinate, _ place: Place?) {
        remembered.append((coordinate, place))
        if remembered.count > PlaceService.rememberedLimit { remembered.removeFirst() }
    }

    private func isNear(_ a: Coordinate, _ b: Coordinate) -> Bool {
        GreatCircle.distanceKm(a, b) <= reuseWithinKm
    }

    // MARK: - Search

    /// Places named like `query`, best first (`fixcast search`). `offline`: the bundled table only.
    /// Whether `search` answers from the bundled table: asked to (`--offline`), or with no online search
    /// (`places.provider = "offline"`).
    public nonisolated func searchesTable(offline offlineOnly: Bool) -> Bool { offlineOnly || searcher == nil }

    /// - Parameter romanizing: from the table, a Cyrillic query is tried in Latin letters too; for a list
    ///   a person reads (`fixcast search`), never for `--place`, which takes the first match unseen.
    public func search(
        _ query: String, limit: Int, offline offlineOnly: Bool, romanizing: Bool = false
    ) async throws(PlaceError) -> [PlaceMatch] {
        guard !searchesTable(offline: offlineOnly), let searcher else {
            return try await offline.search(query, limit: limit, romanizing: romanizing)
        }
        return try await searcher.search(query, limit: limit)
    }

    /// The best match for `--place NAME`. When the online search fails, the bundled table is asked
    /// before giving up (the original error is reported if it knows nothing either).
    public func resolve(placeNamed name: String, offline offlineOnly: Bool) async throws(PlaceError) -> PlaceMatch {
        let first: PlaceMatch?
        do {
            first = try await search(name, limit: 1, offline: offlineOnly).first
        } catch {
            guard !offlineOnly,
                case .success(let table) = Result(catching: { () throws(PlaceError) in try offline.table() }),
                let row = table.search(name, limit: 1).first, let match = table.match(row)
            else { throw error }
            return match
        }
        guard let first else { throw PlaceError.noPlaceNamed(name) }
        return first
    }
}
