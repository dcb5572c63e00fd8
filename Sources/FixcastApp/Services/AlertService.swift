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
    private let countries: any CountryLocating
    private let state: (any StateStore)?
    private let clock: any WallClock
    private let policy: AlertCheckPolicy

    /// Without a store: the last answers and back-offs live here, for this process only.
    private var checks: [AlertSourceID: AlertCheck] = [:]
    private let backoffs: [AlertSourceID: SavedBackoff]
    private var inFlight = RequestsInFlight<AlertSourceID, AlertOutcome>()

    /// How many requests were actually sent (for tests).
    public private(set) var fetchCount = 0

    public init(
        settings: Settings.Alerts, sources: [any AlertSource], countries: any CountryLocating, state: (any StateStore)?,
        clock: any WallClock
    ) {
        self.settings = settings
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

    /// The production wiring: NWS and MetAlerts over `http`, countries from the offline table.
    public static func make(
        settings: Settings.Alerts, http: any HTTPFetching, countries: any CountryLocating, state: (any StateStore)?,
        clock: any WallClock
    ) -> AlertService {
        AlertService(
            settings: settings,
            sources: [
                NWSAlertSource(baseURL: settings.nwsBaseURL, http: http),
                MetAlertsSource(baseURL: settings.metAlertsBaseURL, http: http),
            ],
            countries: countries, state: state, clock: clock)
    }

    static func checkKey(_ s: AlertSourceID) -> String { "alerts.last.\(s.rawValue)" }
    static func backoffKey(_ s: AlertSourceID) -> String { "alerts.backoff.\(s.rawValue)" }

    /// The source covering `coordinate` under the settings; `.success(nil)` is "not covered".
    public func source(at coordinate: Coordinate) -> Result<AlertSourceID?, AlertError> {
        if settings.source != .auto {
            return .success(AlertCoverage.source(countryCode: nil, setting: settings.source))
        }
        do {
            return .success(
                AlertCoverage.source(countryCode: try countries.countryCode(at: coordinate), setting: .auto))
        } catch {
            if case .offlineDataMissing(let d) = error { return .failure(.countryUnknown(detail: d)) }
            return .failure(.countryUnknown(detail: "the place table could not be read"))
        }
    }

    public func alerts(at coordinate: Coordinate, offline: Bool) async -> AlertOutcome {
        guard settings.enabled else { return AlertOutcome(report: nil, error: nil) }
        let sourceID: AlertSourceID
        switch source(at: coordinate) {
        case .failure(let e): return AlertOutcome(report: nil, error: e)
        case .success(nil): return AlertOutcome(report: .notCovered, error: nil)
        case .success(let id?): sourceID = id
        }
        guard let source = sources[sourceID] else { return AlertOutcome(report: .notCovered, error: nil) }
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
                fetched = alerts
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

    // MARK: - Store access (a failing store degrades to "nothing stored", never to no alerts)

    private func loadCheck(_ source: AlertSourceID) async -> AlertCheck? {
        guard let state else { return checks[source] }
        guard let text = try? await state.state(Self.checkKey(source)), let json = try? JSONValue.parse(text) else {
            return nil
        }
        return AlertCheck(json: json)
    }

    private func saveCheck(_ check: AlertCheck) async {
        checks[check.source] = check
        try? await state?.setState(Self.checkKey(check.source), check.json.serialized())
    }
}
