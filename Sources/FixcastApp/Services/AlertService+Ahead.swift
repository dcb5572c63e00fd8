import FixcastCore
import FoundationEssentials

/// The alerts ahead, and why a region ahead could not be asked (its stored copy, when fit to show, is
/// matched instead); nil when every region answered or stood.
public struct AlertsAheadOutcome: Sendable, Hashable {
    public var alerts: [AheadForecast.AlertAhead]
    public var error: AlertError?

    public init(alerts: [AheadForecast.AlertAhead], error: AlertError?) {
        self.alerts = alerts
        self.error = error
    }
}

extension AlertService {
    /// The most regions asked for one forecast: a 12-hour drive crosses a handful of states or
    /// countries; more is not a drive, and must not become a burst of requests.
    static let maxRegionsAhead = 8

    /// The active alerts on the way (CONTRACT.md "Alerts ahead"): the alerts of the region fixcast is
    /// in (the current source's last answer, the current country's MeteoAlarm feed) and of every
    /// region the samples pass through (`AlertRegionsAhead`: each asked whole, at most once per
    /// `check_min`, with its validators and the source's back-off), matched to the samples by
    /// `AlertsAhead.match`. Offline, the stored copies only. Nothing when alerts are off.
    public func alertsAhead(
        _ samples: [AheadForecast.Sample], from position: Coordinate, offline: Bool
    ) async -> AlertsAheadOutcome {
        guard settings.enabled, !samples.isEmpty else { return AlertsAheadOutcome(alerts: [], error: nil) }
        // The current answer first (joined to a request in flight, or reused under the policy).
        _ = await alerts(at: position, offline: offline)
        let now = clock.now()
        let table = try? areas.areaTable().get()
        var candidates: [AlertsAhead.Candidate] = []
        var planned: [AlertRegion] = []
        if case .success(let (source?, country)) = coverage(at: position) {
            if source == .meteoalarm, let slug = country.flatMap(MeteoAlarmFeeds.slug(countryCode:)) {
                planned.append(.meteoAlarmFeed(slug))
            } else if let last = await loadCheck(source) {
                candidates += last.report.aged(to: now, stale: false).active.compactMap { alert in
                    alert.footprint.map { AlertsAhead.Candidate(alert: alert, footprint: $0) }
                }
            }
        }
        let spots = samples.map { s in
            (try? countries.spot(at: s.coordinate))
                ?? AlertRegionsAhead.Spot(coordinate: s.coordinate, country: nil, region: nil)
        }
        for region in AlertRegionsAhead.plan(spots, setting: settings.source) where !planned.contains(region) {
            planned.append(region)
        }
        var problem: AlertError?
        for region in planned.prefix(Self.maxRegionsAhead) {
            let copy: MeteoAlarmFeedCheck?
            if offline {
                copy = await loadFeedCheck(Self.regionKey(region)).flatMap {
                    Self.fitToShow($0.checkedAt, now: now) ? $0 : nil
                }
            } else {
                let refresh = await refreshWhole(region, at: position)
                copy = refresh.check
                problem = problem ?? refresh.error
            }
            guard let copy else { continue }
            candidates += self.candidates(of: region, copy: copy, table: table, now: now)
        }
        candidates = await resolvingZones(candidates, offline: offline, now: now)
        let ahead = AlertsAhead.match(
            candidates, samples: samples,
            areasAt: { point in table.map { MeteoAlarmFeedFootprints.areaCodes(at: point, table: $0) } ?? [] })
        return AlertsAheadOutcome(alerts: ahead, error: problem)
    }

    /// A region's stored answer as candidates: every current alert with a footprint (none from a copy
    /// that cannot be read).
    func candidates(of region: AlertRegion, copy: MeteoAlarmFeedCheck, table: AlertAreaTable?, now: Date)
        -> [AlertsAhead.Candidate]
    {
        if case .meteoAlarmFeed = region {
            guard let tree = try? feedTree(copy, key: Self.regionKey(region)) else { return [] }
            return MeteoAlarmFeedFootprints.candidates(in: tree, table: table, now: now)
        }
        let alerts = (try? AlertRegionsAhead.alerts(of: region, body: Array(copy.body.utf8), language: "en")) ?? []
        return Alert.active(alerts, at: now).compactMap { alert in
            alert.footprint.map { AlertsAhead.Candidate(alert: alert, footprint: $0) }
        }
    }

    /// A zone's geometry is kept this long: NWS zones change a few times a year.
    static let zoneKeepS = 86_400.0
    /// The zones kept in the store: those asked in the last day (older ones are asked again), at most
    /// 500 (a day's drive across the US crosses a few hundred zones; each keeps its geometry).
    static let keptZones = StateFamilyLimit(prefix: zoneKey("/"), maxAgeS: zoneKeepS, limit: 500)
    /// The most zones asked for in one pass; the rest are asked on the next forecast.
    static let maxZoneRequests = 40

    static func zoneKey(_ path: String) -> String { "alerts.zone.nws" + path.replacing("/", with: ".") }

    /// Candidates whose footprint is NWS zones (an alert sent without geometry) with the zones'
    /// polygons instead: each zone from the store when asked within a day, else asked once (under
    /// `alerts.nws_base_url`, the source's back-off respected). A zone that cannot be had is left out.
    func resolvingZones(_ candidates: [AlertsAhead.Candidate], offline: Bool, now: Date) async
        -> [AlertsAhead.Candidate]
    {
        var asked = 0
        // Zones that could not be had in this pass: two alerts of one region name the same zones.
        var failed = Set<String>()
        var out: [AlertsAhead.Candidate] = []
        for candidate in candidates {
            guard case .zones(let paths) = candidate.footprint else {
                out.append(candidate)
                continue
            }
            var polygons: [[[AlertFootprint.Point]]] = []
            for path in paths {
                if let kept = await loadZone(path), kept.checkedAt <= now,
                    now.timeIntervalSince(kept.checkedAt) < Self.zoneKeepS
                {
                    if case .polygons(let p)? = kept.footprint { polygons += p }
                    continue
                }
                guard !offline, asked < Self.maxZoneRequests, !failed.contains(path) else { continue }
                asked += 1
                switch await askZone(path, now: now) {
                case .some(.some(.polygons(let p))): polygons += p
                case .some: break
                case nil: failed.insert(path)
                }
            }
            if !polygons.isEmpty {
                out.append(AlertsAhead.Candidate(alert: candidate.alert, footprint: .polygons(polygons)))
            }
        }
        if asked > 0 { await trimKeptZones(now: now) }
        return out
    }
}
