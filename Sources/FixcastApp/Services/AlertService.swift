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
    private let meteoAlarm: MeteoAlarmSource?
    /// The regions ahead (NWS states, MetAlerts' country, ECCC boxes); nil: only the current region's
    /// alerts are matched ahead.
    private let regions: AlertRegionSource?
    let areas: any AlertAreaProviding
    let countries: any CountryLocating
    private let state: (any StateStore)?
    let clock: any WallClock
    private let policy: AlertCheckPolicy

    /// Without a store: the last answers and back-offs live here, for this process only.
    private var checks: [AlertSourceID: AlertCheck] = [:]
    private let backoffs: [AlertSourceID: SavedBackoff]
    private var inFlight = RequestsInFlight<AlertSourceID, AlertOutcome>()
    /// Without a store: the last copies of MeteoAlarm feeds and regions ahead, by state key (`saveFeedCheck`).
    private var feedChecks: [String: MeteoAlarmFeedCheck] = [:]
    /// The MeteoAlarm feeds read (`MeteoAlarmSource.feed`), by state key, with the text each was read
    /// from, the most recently used last: a copy loaded again (the next reading, the next position, the
    /// feed's own regions ahead) is the same text, and is placed without being read again.
    private var readFeeds: [(key: String, body: String, tree: XMLElement)] = []
    /// The current country's feed and one per region ahead (`maxRegionsAhead`): a drive's worth.
    static let maxReadFeeds = maxRegionsAhead + 1
    private var feedsInFlight = RequestsInFlight<String, FeedRefresh>()

    /// How many requests were actually sent (for tests).
    public private(set) var fetchCount = 0
    /// How many stored feed copies were read into their tree (for tests; a fetched feed comes read).
    private(set) var feedsRead = 0
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
        switch policy.decide(last: last, source: source.id, at: coordinate, now: now) {
        case .reuse:
            if let last { return AlertOutcome(report: last.report.aged(to: now, stale: false), error: nil) }
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
                    report: report))
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
        let last = await loadCheck(source)
        guard let last, GreatCircle.distanceKm(last.coordinate, coordinate) <= AlertCheckPolicy.sameSpotKm,
            now.timeIntervalSince(last.checkedAt) <= Self.maximumStaleAgeS
        else { return AlertOutcome(report: nil, error: .offline) }
        let fresh = policy.decide(last: last, source: source, at: coordinate, now: now) == .reuse
        return AlertOutcome(report: last.report.aged(to: now, stale: !fresh), error: nil)
    }

    /// The last answer for this spot as a stale stand-in, or nil when there is none fit to show.
    private func staleReport(_ last: AlertCheck?, at coordinate: Coordinate, now: Date) -> AlertReport? {
        guard let last, GreatCircle.distanceKm(last.coordinate, coordinate) <= AlertCheckPolicy.sameSpotKm else {
            return nil
        }
        let age = now.timeIntervalSince(last.checkedAt)
        guard age >= 0, age <= Self.maximumStaleAgeS else { return nil }
        return last.report.aged(to: now, stale: true)
    }

    // MARK: - MeteoAlarm: one feed per country, placed offline for each position

    /// What refreshing one feed came to: the copy to place (nil when there is none fit to use) and,
    /// when asking failed or was held back, why (the copy is then stale).
    struct FeedRefresh: Sendable {
        var check: MeteoAlarmFeedCheck?
        var error: AlertError?
        /// A request was made (and answered): the unplaced count is worth recording.
        var asked: Bool
    }

    private func feedAlerts(feed slug: String, at coordinate: Coordinate, offline: Bool)
        async -> AlertOutcome
    {
        let refresh: FeedRefresh
        if offline {
            let now = clock.now()
            guard let last = await loadFeedCheck(Self.feedKey(slug)), Self.fitToShow(last.checkedAt, now: now) else {
                return AlertOutcome(report: nil, error: .offline)
            }
            let fresh = policy.decide(feed: last, slug: slug, now: now) == .reuse
            refresh = FeedRefresh(check: last, error: nil, asked: false)
            return await place(refresh, key: Self.feedKey(slug), at: coordinate, stale: !fresh)
        }
        refresh = await refreshWhole(.meteoAlarmFeed(slug), at: coordinate)
        return await place(refresh, key: Self.feedKey(slug), at: coordinate, stale: refresh.error != nil)
    }

    /// One request per whole document (a country feed, a region ahead) at a time, wherever the
    /// callers are; nil fetcher: nothing to ask with.
    func refreshWhole(_ region: AlertRegion, at coordinate: Coordinate) async -> FeedRefresh {
        let fetch: @Sendable (String?, String?) async throws(AlertError) -> MeteoAlarmFeedAnswer
        let source = region.source
        switch region {
        case .meteoAlarmFeed(let slug):
            guard let meteoAlarm else { return FeedRefresh(check: nil, error: nil, asked: false) }
            fetch = { (modified, match) async throws(AlertError) in
                try await meteoAlarm.fetch(feed: slug, ifModifiedSince: modified, ifNoneMatch: match)
            }
        default:
            guard let regions else { return FeedRefresh(check: nil, error: nil, asked: false) }
            fetch = { (modified, match) async throws(AlertError) in
                try await regions.fetch(region, ifModifiedSince: modified, ifNoneMatch: match)
            }
        }
        let tag = Self.regionKey(region)
        if let current = feedsInFlight.near(coordinate, withinKm: .infinity, where: { $0 == tag }) {
            return await current.task.value
        }
        let request = feedsInFlight.start(tag: tag, at: coordinate) { _ in
            await self.refreshFeed(tag, name: Self.checkName(region), source: source, fetch: fetch)
        }
        let refresh = await request.task.value
        feedsInFlight.finish(request.id)
        return refresh
    }

    /// Asks for a whole document (stored under `key`, named `name` in its check) when the policy allows
    /// (`check_min` per document, `Expires`), with the stored copy's validators, and keeps the answer
    /// (or the revalidated copy after a 304); the source's back-off holds it back after 429/5xx.
    private func refreshFeed(
        _ key: String, name slug: String, source id: AlertSourceID,
        fetch: @Sendable (String?, String?) async throws(AlertError) -> MeteoAlarmFeedAnswer
    ) async -> FeedRefresh {
        let now = clock.now()
        let last = await loadFeedCheck(key)
        let standIn = last.flatMap { Self.fitToShow($0.checkedAt, now: now) ? $0 : nil }
        let ifModifiedSince: String?
        let ifNoneMatch: String?
        switch policy.decide(feed: last, slug: slug, now: now) {
        case .reuse:
            return FeedRefresh(check: last, error: nil, asked: false)
        case .ask(let modified, let match):
            ifModifiedSince = modified
            ifNoneMatch = match
        }
        let backoff = backoffs[id] ?? SavedBackoff(key: Self.backoffKey(id), state: state)
        if let until = await backoff.heldUntil(now: now) {
            return FeedRefresh(check: standIn, error: .backingOff(source: id, until: until), asked: false)
        }
        fetchCount += 1
        do {
            let answer = try await fetch(ifModifiedSince, ifNoneMatch)
            await backoff.recordSuccess()
            let body: String
            if let fresh = answer.body {
                body = fresh
            } else if let last {
                body = last.body  // 304: the stored feed stands, checked just now
            } else {
                return FeedRefresh(
                    check: nil,
                    error: .invalidResponse(
                        source: id, detail: "304 Not Modified for a feed fixcast does not hold"),
                    asked: true)
            }
            let check = MeteoAlarmFeedCheck(
                feed: slug, checkedAt: now, expires: answer.expires,
                lastModified: answer.lastModified ?? (answer.body == nil ? last?.lastModified : nil),
                etag: answer.etag ?? (answer.body == nil ? last?.etag : nil), body: body)
            if let tree = answer.tree { remember(tree, of: body, key: key) }
            await saveFeedCheck(check, key: key, isNew: last == nil)
            return FeedRefresh(check: check, error: nil, asked: true)
        } catch {
            if case .status(_, let code, _, let retryAfter) = error {
                await backoff.recordFailure(status: code, retryAfter: retryAfter, now: now)
            }
            return FeedRefresh(check: standIn, error: error, asked: true)
        }
    }

    /// The warnings of the feed copy (stored under `key`) that apply at `coordinate` (or cannot be
    /// placed), as a report.
    private func place(_ refresh: FeedRefresh, key: String, at coordinate: Coordinate, stale: Bool) async
        -> AlertOutcome
    {
        guard let check = refresh.check else { return AlertOutcome(report: nil, error: refresh.error) }
        let now = clock.now()
        var error = refresh.error
        let table: AlertAreaTable?
        switch areas.areaTable() {
        case .success(let t): table = t
        case .failure(let why):
            table = nil
            error = error ?? .areasUnavailable(detail: why.detail)
        }
        let tree: XMLElement
        do {
            tree = try feedTree(check, key: key)
        } catch {
            return AlertOutcome(report: nil, error: error)
        }
        let answer: MeteoAlarmFeedAlerts.Answer
        do {
            answer = try MeteoAlarmFeedAlerts.alerts(in: tree, at: coordinate, table: table, now: now)
        } catch {
            return AlertOutcome(report: nil, error: .invalidResponse(source: .meteoalarm, detail: error.detail))
        }
        if refresh.asked, table != nil { await recordUnplaced(answer.unplacedAreas, feed: check.feed) }
        let report = AlertReport.fetched(answer.alerts, source: .meteoalarm, fetchedAt: check.checkedAt, now: now)
        return AlertOutcome(report: stale ? report.aged(to: now, stale: true) : report, error: error)
    }

    /// A MeteoAlarm feed copy as its tree: the one read before when the copy is the same text, else
    /// read now (and kept for next time).
    func feedTree(_ check: MeteoAlarmFeedCheck, key: String) throws(AlertError) -> XMLElement {
        if let index = readFeeds.firstIndex(where: { $0.key == key }),
            readFeeds[index].body.utf8.elementsEqual(check.body.utf8)
        {
            let read = readFeeds.remove(at: index)
            readFeeds.append(read)
            return read.tree
        }
        feedsRead += 1
        let tree = try MeteoAlarmSource.feed(Array(check.body.utf8))
        remember(tree, of: check.body, key: key)
        return tree
    }

    /// Keeps a feed's tree as the one read from `body`, in place of the key's older one; the least
    /// recently used goes beyond `maxReadFeeds`.
    private func remember(_ tree: XMLElement, of body: String, key: String) {
        readFeeds.removeAll { $0.key == key }
        readFeeds.append((key, body, tree))
        if readFeeds.count > Self.maxReadFeeds { readFeeds.removeFirst(readFeeds.count - Self.maxReadFeeds) }
    }

    /// Whether a copy checked at `checkedAt` may still be shown (stale or offline): not from the future,
    /// not older than `maximumStaleAgeS`.
    static func fitToShow(_ checkedAt: Date, now: Date) -> Bool {
        let age = now.timeIntervalSince(checkedAt)
        return age >= 0 && age <= maximumStaleAgeS
    }

    /// Keeps this feed's count beside the other feeds' (a failing store only loses the count).
    private func recordUnplaced(_ count: Int, feed slug: String) async {
        guard let state else { return }
        var members: [(String, JSONValue)] = []
        if let text = try? await state.state(Self.unplacedAreasKey), let json = try? JSONValue.parse(text),
            let object = json.objectValue
        {
            members = object.filter { $0.0 != slug && MeteoAlarmFeeds.slugs.values.contains($0.0) }
        }
        members.append((slug, .int(count)))
        members.sort { $0.0 < $1.0 }
        try? await state.setState(Self.unplacedAreasKey, JSONValue.object(members).serialized())
    }

    /// The sum of every feed's unplaced geocodes as the store keeps them (`status`); 0 when none is kept.
    public static func unplacedAreas(stateText text: String?) -> Int {
        guard let text, let object = (try? JSONValue.parse(text))?.objectValue else { return 0 }
        return object.reduce(0) { sum, member in
            guard let d = member.1.doubleValue, d.isFinite, d >= 0, d <= 100_000 else { return sum }
            return sum + Int(d)
        }
    }

    // MARK: - NWS zones for alerts ahead sent without geometry (kept a day)

    /// Without a store: the zones asked in the last day, by path.
    private var zones: [String: (checkedAt: Date, footprint: AlertFootprint?)] = [:]

    func loadZone(_ path: String) async -> (checkedAt: Date, footprint: AlertFootprint?)? {
        guard let state else { return zones[path] }
        guard let text = try? await state.state(Self.zoneKey(path)), let json = try? JSONValue.parse(text),
            let checkedAt = json["checked_at"]?.stringValue.flatMap(UTCTime.parse)
        else { return nil }
        return (checkedAt, json["footprint"].flatMap(AlertFootprint.init(json:)))
    }

    /// Asks for one zone and keeps what it said (also "no geometry", so it is not asked again today);
    /// nil when it could not be asked (back-off, a failure: asked again next time).
    func askZone(_ path: String, now: Date) async -> AlertFootprint?? {
        guard let regions else { return nil }
        let backoff = backoffs[.nws] ?? SavedBackoff(key: Self.backoffKey(.nws), state: state)
        if await backoff.heldUntil(now: now) != nil { return nil }
        fetchCount += 1
        let footprint: AlertFootprint?
        do {
            footprint = try await regions.zone(path)
            await backoff.recordSuccess()
        } catch {
            if case .status(_, let code, _, let retryAfter) = error {
                // A zone the service does not know (404) is kept as one without geometry, as an answer
                // is: asked again at every forecast, it would be asked for nothing all day.
                if code == 404 {
                    await backoff.recordSuccess()
                    return await keptZone(path, footprint: nil, now: now)
                }
                await backoff.recordFailure(status: code, retryAfter: retryAfter, now: now)
            }
            return nil
        }
        return await keptZone(path, footprint: footprint, now: now)
    }

    /// Keeps what a zone said for a day (`zoneKeepS`), in the store when there is one.
    /// Without a store, the zones stay in memory as the store keeps them (`keptZones`: the last day's,
    /// at most 500); the store's are trimmed after each pass.
    private func keptZone(_ path: String, footprint: AlertFootprint?, now: Date) async -> AlertFootprint?? {
        guard let state else {
            zones[path] = (now, footprint)
            let times = zones.map { (key: $0.key, time: Optional($0.value.checkedAt)) }
            for old in Self.keptZones.keysToDrop(times, now: now) { zones[old] = nil }
            return .some(footprint)
        }
        let json = JSONValue.object([
            ("checked_at", .string(UTCTime.format(now))), ("footprint", footprint?.json ?? .null),
        ])
        try? await state.setState(Self.zoneKey(path), json.serialized())
        return .some(footprint)
    }

    /// Drops the stored zones `keptZones` does not keep.
    func trimKeptZones(now: Date) async {
        await state?.trim(Self.keptZones, now: now, time: StateFamilyLimit.checkedAt)
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
    private func saveFeedCheck(_ check: MeteoAlarmFeedCheck, key: String, isNew: Bool) async {
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

    private func saveCheck(_ check: AlertCheck) async {
        checks[check.source] = check
        try? await state?.setState(Self.checkKey(check.source), check.json.serialized())
    }
}
