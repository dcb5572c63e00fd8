import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// What the alert service could give for one position: the report (`stale` when the source is
/// failing and stored alerts stand in) and, when a fetch failed or is held back, why. Both nil when
/// alerts are off.
public struct AlertOutcome: Sendable, Hashable {
    public var report: AlertReport?
    public var error: AlertError?

    public init(report: AlertReport?, error: AlertError?) {
        self.report = report
        self.error = error
    }

    public var issue: ReadingIssue? { error.map(ReadingIssue.init) }
}

/// The official alerts at a position, asked for politely (CONTRACT.md "Alerts").
///
/// - Source: `AlertCoverage` from the offline country of the position; "not covered" needs no request.
/// - Rate: `AlertCheckPolicy` (check_min per spot within 5 km, `Expires`, `If-Modified-Since`); the last
///   answer per source lives in the store's state, so separate `fixcast now`/`alerts` runs obey it too.
///   MeteoAlarm is asked per country feed instead (check_min per feed, wherever in the country; with
///   `If-Modified-Since`/`If-None-Match`): the feed is kept whole and placed offline for each position
///   (`MeteoAlarmFeedAlerts`), so a 304 or a move within the country needs no new download.
/// - Faults: after 429/5xx `RetryBackoff` holds requests back (`SavedBackoff`, kept in the store). While the
///   source fails, the last answer near here is served with `stale: true`, never with an alert past
///   its `expires`, and never older than `maximumStaleAgeS`.
/// - Requests for one source are joined while one is in flight, so a reading and the `run` loop's
///   check never ask twice at once.
public actor AlertService {
    /// A stored answer older than this is not shown even as stale: alert messages are updated or
    /// expire within hours, so a day-old list says more about the outage than about the weather.
    public static let maximumStaleAgeS = 6.0 * 3600

    public let settings: Settings.Alerts
    private let sources: [AlertSourceID: any AlertSource]
    let meteoAlarm: MeteoAlarmSource?
    /// The regions ahead (NWS states, MetAlerts' country, ECCC boxes); nil: only the current region's
    /// alerts are matched ahead.
    let regions: AlertRegionSource?
    let areas: any AlertAreaProviding
    let countries: any CountryLocating
    let state: (any StateStore)?
    let clock: any WallClock
    let policy: AlertCheckPolicy

    /// Without a store: the last answers and back-offs live here, for this process only.
    private var checks: [AlertSourceID: AlertCheck] = [:]
    let backoffs: [AlertSourceID: SavedBackoff]
    private var inFlight = RequestsInFlight<AlertSourceID, AlertOutcome>()
    /// Without a store: the last copies of MeteoAlarm feeds and regions ahead, by state key (`saveFeedCheck`).
    private var feedChecks: [String: MeteoAlarmFeedCheck] = [:]
    /// The MeteoAlarm feeds read (`MeteoAlarmSource.feed`), by state key, with the text each was read
    /// from, the most recently used last: a copy loaded again (the next reading, the next position, the
    /// feed's own regions ahead) is the same text, and is placed without being read again.
    var readFeeds: [(key: String, body: String, tree: XMLElement)] = []
    /// The current country's feed and one per region ahead (`maxRegionsAhead`): a drive's worth.
    static let maxReadFeeds = maxRegionsAhead + 1
    var feedsInFlight = RequestsInFlight<String, FeedRefresh>()
    /// Without a store: the zones asked in the last day, by path.
    var zones: [String: (checkedAt: Date, footprint: AlertFootprint?)] = [:]

    /// How many requests were actually sent (for tests).
    public internal(set) var fetchCount = 0
    /// How many stored feed copies were read into their tree (for tests; a fetched feed comes read).
    var feedsRead = 0
    /// How many feed and region copies are held in memory (without a store; for tests of the bound).
    var feedCopiesHeld: Int { feedChecks.count }

    public init(
        settings: Settings.Alerts, sources: [any AlertSource], meteoAlarm: MeteoAlarmSource? = nil,
        regions: AlertRegionSource? = nil, areas: any AlertAreaProviding = BundledAlertAreas(),
        countries: any CountryLocating, state: (any StateStore)?, clock: any WallClock
    ) {
        self.settings = settings
        self.meteoAlarm = meteoAlarm
        self.regions = regions
        self.areas = areas
        var byID: [AlertSourceID: any AlertSource] = [:]
        for s in sources { byID[s.id] = s }
        self.sources = byID
        self.countries = countries
        self.state = state
        self.clock = clock
        self.policy = AlertCheckPolicy(checkMin: settings.checkMin)
        var backoffs: [AlertSourceID: SavedBackoff] = [:]
        for id in AlertSourceID.allCases { backoffs[id] = SavedBackoff(key: Self.backoffKey(id), state: state) }
        self.backoffs = backoffs
    }

    /// The production wiring: NWS, MetAlerts, ECCC and MeteoAlarm over `http`, countries from the offline
    /// place table, MeteoAlarm's areas from the bundled area table.
    public static func make(
        settings: Settings.Alerts, http: any HTTPFetching, countries: any CountryLocating,
        areas: any AlertAreaProviding = BundledAlertAreas(), state: (any StateStore)?, clock: any WallClock
    ) -> AlertService {
        AlertService(
            settings: settings,
            sources: [
                NWSAlertSource(baseURL: settings.nwsBaseURL, http: http),
                MetAlertsSource(baseURL: settings.metAlertsBaseURL, http: http),
                ECCCAlertSource(baseURL: settings.ecccBaseURL, http: http),
            ],
            meteoAlarm: MeteoAlarmSource(baseURL: settings.meteoAlarmBaseURL, http: http),
            regions: AlertRegionSource(
                nwsBaseURL: settings.nwsBaseURL, metAlertsBaseURL: settings.metAlertsBaseURL,
                ecccBaseURL: settings.ecccBaseURL, http: http),
            areas: areas, countries: countries, state: state, clock: clock)
    }

    static func checkKey(_ s: AlertSourceID) -> String { "alerts.last.\(s.rawValue)" }
    static func backoffKey(_ s: AlertSourceID) -> String { "alerts.backoff.\(s.rawValue)" }
    static func feedKey(_ slug: String) -> String { "alerts.feed.meteoalarm.\(slug)" }
    /// The name a stored check gives its document: a MeteoAlarm feed's slug ("france"), as the
    /// offline path asks for it and the unplaced counts are kept by; another region's key.
    static func checkName(_ region: AlertRegion) -> String {
        if case .meteoAlarmFeed(let slug) = region { return slug }
        return region.key
    }

    /// The copies of regions ahead kept in the store (a MeteoAlarm feed is kept under its own key): a
    /// day's (a copy older than `maximumStaleAgeS` is never shown, only its validators are used), at most
    /// 100 (the states and boxes of a few days' driving).
    static let keptRegions = StateFamilyLimit(prefix: "alerts.region.", maxAgeS: 86_400, limit: 100)

    static func regionKey(_ region: AlertRegion) -> String {
        if case .meteoAlarmFeed(let slug) = region { return feedKey(slug) }
        return "alerts.region.\(region.key)"
    }
    /// `{slug: count}` of the geocodes each MeteoAlarm feed named that the area table cannot place
    /// (`status --json` `alerts.unplaced_areas` is their sum).
    public static let unplacedAreasKey = "alerts.unplaced_areas"

    /// The source covering `coordinate` under the settings; `.success(nil)` is "not covered".
    public func source(at coordinate: Coordinate) -> Result<AlertSourceID?, AlertError> {
        coverage(at: coordinate).map(\.source)
    }

    /// The source and the country it was chosen by (nil when the setting does not need one, or no
    /// place is near enough to tell).
    func coverage(at coordinate: Coordinate) -> Result<(source: AlertSourceID?, country: String?), AlertError> {
        guard AlertCoverage.needsCountry(settings.source) else {
            return .success((AlertCoverage.source(countryCode: nil, setting: settings.source), nil))
        }
        do {
            let country = try countries.countryCode(at: coordinate)
            return .success((AlertCoverage.source(countryCode: country, setting: settings.source), country))
        } catch {
            if case .offlineDataMissing(let d) = error { return .failure(.countryUnknown(detail: d)) }
            return .failure(.countryUnknown(detail: "the place table could not be read"))
        }
    }

    public func alerts(at coordinate: Coordinate, offline: Bool) async -> AlertOutcome {
        guard settings.enabled else { return AlertOutcome(report: nil, error: nil) }
        let sourceID: AlertSourceID
        let chosenCountry: String?
        var notCovered = AlertReport.notCovered
        switch coverage(at: coordinate) {
        case .failure(let e): return AlertOutcome(report: nil, error: e)
        case .success(let (id, country)):
            notCovered.notCoveredBecause = AlertCoverage.cause(countryCode: country, setting: settings.source)
            guard let id else { return AlertOutcome(report: notCovered, error: nil) }
            sourceID = id
            chosenCountry = country
        }
        if sourceID == .meteoalarm {
            guard meteoAlarm != nil, let slug = chosenCountry.flatMap(MeteoAlarmFeeds.slug(countryCode:)) else {
                return AlertOutcome(report: notCovered, error: nil)
            }
            return await feedAlerts(feed: slug, at: coordinate, offline: offline)
        }
        guard let source = sources[sourceID] else { return AlertOutcome(report: notCovered, error: nil) }
        if offline { return await storedOnly(sourceID, at: coordinate) }
        if let current = inFlight.near(coordinate, withinKm: AlertCheckPolicy.sameSpotKm, where: { $0 == sourceID }) {
            return await current.task.value
        }
        let request = inFlight.start(tag: sourceID, at: coordinate) { _ in await self.resolve(source, at: coordinate) }
        let outcome = await request.task.value
        inFlight.finish(request.id)
        return outcome
    }

    // MARK: - One resolution

    private func resolve(_ source: any AlertSource, at coordinate: Coordinate) async -> AlertOutcome {
        let now = clock.now()
        let last = await loadCheck(source.id)
        let ifModifiedSince: String?
        let url = source.url(for: coordinate)
        switch policy.decide(last: last, source: source.id, at: coordinate, url: url, now: now) {
        case .reuse:
            if let last {
                return AlertOutcome(
                    report: last.report.narrowed(to: coordinate).aged(to: now, stale: false), error: nil)
            }
            ifModifiedSince = nil
        case .ask(let validator):
            ifModifiedSince = validator
        }
        let backoff = backoffs[source.id] ?? SavedBackoff(key: Self.backoffKey(source.id), state: state)
        if let until = await backoff.heldUntil(now: now) {
            return AlertOutcome(
                report: staleReport(last, at: coordinate, now: now), error: .backingOff(source: source.id, until: until)
            )
        }
        fetchCount += 1
        do {
            let answer = try await source.fetch(at: coordinate, ifModifiedSince: ifModifiedSince)
            await backoff.recordSuccess()
            let fetched: [Alert]
            if let alerts = answer.alerts {
                // An update whose chain no longer names the alert it continues keeps that alert's id.
                fetched = AlertIdentity.continuing(alerts, from: last?.report.active ?? [])
            } else if let last {
                fetched = last.report.active  // 304: the last answer stands
            } else {
                return AlertOutcome(
                    report: nil,
                    error: .invalidResponse(
                        source: source.id, detail: "304 Not Modified for alerts fixcast does not hold"))
            }
            let report = AlertReport.fetched(
                fetched, source: source.id, fetchedAt: now, now: now,
                alreadyOmitted: answer.alerts == nil ? last?.report.omitted ?? 0 : 0)
            await saveCheck(
                AlertCheck(
                    source: source.id, coordinate: coordinate, checkedAt: now, expires: answer.expires,
                    lastModified: answer.lastModified ?? (answer.alerts == nil ? last?.lastModified : nil),
                    report: report, url: url))
            return AlertOutcome(report: report, error: nil)
        } catch {
            if case .status(_, let code, _, let retryAfter) = error {
                await backoff.recordFailure(status: code, retryAfter: retryAfter, now: now)
            }
            return AlertOutcome(report: staleReport(last, at: coordinate, now: now), error: error)
        }
    }

    private func storedOnly(_ source: AlertSourceID, at coordinate: Coordinate) async -> AlertOutcome {
        let now = clock.now()
        guard let last = await loadCheck(source), Self.standsIn(last, at: coordinate, now: now) else {
            return AlertOutcome(report: nil, error: .offline)
        }
        let fresh = policy.decide(last: last, source: source, at: coordinate, now: now) == .reuse
        return AlertOutcome(report: last.report.aged(to: now, stale: !fresh), error: nil)
    }

    /// The last answer for this spot as a stale stand-in, or nil when there is none fit to show.
    private func staleReport(_ last: AlertCheck?, at coordinate: Coordinate, now: Date) -> AlertReport? {
        guard let last, Self.standsIn(last, at: coordinate, now: now) else { return nil }
        return last.report.aged(to: now, stale: true)
    }

    /// Whether the last answer may be shown for `coordinate` when none can be had now: for the same
    /// spot, at most `maximumStaleAgeS` old, and not from a time the clock has not reached (set back).
    private static func standsIn(_ last: AlertCheck, at coordinate: Coordinate, now: Date) -> Bool {
        let age = now.timeIntervalSince(last.checkedAt)
        return GreatCircle.distanceKm(last.coordinate, coordinate) <= AlertCheckPolicy.sameSpotKm
            && age >= 0 && age <= maximumStaleAgeS
    }

    // MARK: - Store access (a failing store degrades to "nothing stored", never to no alerts)

    func loadCheck(_ source: AlertSourceID) async -> AlertCheck? {
        guard let state else { return checks[source] }
        guard let text = try? await state.state(Self.checkKey(source)), let json = try? JSONValue.parse(text) else {
            return nil
        }
        return AlertCheck(json: json)
    }

    func loadFeedCheck(_ key: String) async -> MeteoAlarmFeedCheck? {
        guard let state else { return feedChecks[key] }
        guard let text = try? await state.state(key), let json = try? JSONValue.parse(text) else {
            return nil
        }
        return MeteoAlarmFeedCheck(json: json)
    }

    /// Keeps a feed's or region's copy: in the store, or without one in memory (the last `maxReadFeeds`
    /// copies: each can be 2 MiB). A region ahead new to the store trims the regions kept
    /// (`keptRegions`: ECCC's boxes are new wherever the road goes).
    func saveFeedCheck(_ check: MeteoAlarmFeedCheck, key: String, isNew: Bool) async {
        guard let state else {
            feedChecks[key] = check
            let times = feedChecks.map { (key: $0.key, time: $0.value.checkedAt) }
            for old in StateFamilyLimit.beyondNewest(times, limit: Self.maxReadFeeds) { feedChecks[old] = nil }
            return
        }
        try? await state.setState(key, check.json.serialized())
        if isNew, key.hasPrefix(Self.keptRegions.prefix) {
            await state.trim(Self.keptRegions, now: check.checkedAt, time: StateFamilyLimit.checkedAt)
        }
    }

    func saveCheck(_ check: AlertCheck) async {
        checks[check.source] = check
        try? await state?.setState(Self.checkKey(check.source), check.json.serialized())
    }
}
