import FoundationEssentials

/// How bad an official alert is, on CAP's scale (NWS uses it as is; MET Norway's awareness colours
/// map onto it: yellow → moderate, orange → severe, red → extreme). Ordered so that the most severe
/// compares greatest; `unknown` is least, because a source that does not say cannot outrank one that does.
public enum AlertSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    case extreme, severe, moderate, minor, unknown

    /// extreme 4 … unknown 0.
    public var rank: Int {
        switch self {
        case .extreme: return 4
        case .severe: return 3
        case .moderate: return 2
        case .minor: return 1
        case .unknown: return 0
        }
    }

    public static func < (lhs: AlertSeverity, rhs: AlertSeverity) -> Bool { lhs.rank < rhs.rank }

    /// CAP's `Extreme|Severe|Moderate|Minor|Unknown` in any case; anything else is `unknown`.
    public init(cap text: String?) {
        self = text.flatMap { AlertSeverity(rawValue: $0.lowercased()) } ?? .unknown
    }

    /// MET Norway's awareness colour (`yellow`, `orange`, `red`; `green` is "no particular danger").
    public init?(awarenessColour text: String) {
        switch text.lowercased().trimmingAlertSpace {
        case "green": self = .minor
        case "yellow": self = .moderate
        case "orange": self = .severe
        case "red": self = .extreme
        default: return nil
        }
    }
}

/// Which official alert service an answer came from (CONTRACT.md `alerts.source`).
public enum AlertSourceID: String, Sendable, Hashable, CaseIterable {
    /// The US National Weather Service (api.weather.gov), public domain.
    case nws
    /// MET Norway MetAlerts 2.0 (api.met.no), CC BY 4.0.
    case metalerts
    /// MeteoAlarm (EUMETNET), the member countries' warnings as one Atom feed per country.
    case meteoalarm
    /// Environment and Climate Change Canada, MSC GeoMet's `weather-alerts` collection.
    case eccc

    public var displayName: String {
        switch self {
        case .nws: return "NWS"
        case .metalerts: return "MET Norway"
        case .meteoalarm: return "MeteoAlarm"
        case .eccc: return "ECCC"
        }
    }

    /// The attribution each service's terms ask for where its warnings are shown.
    public var credit: String {
        switch self {
        case .nws: return "US National Weather Service (public domain)"
        case .metalerts: return "MET Norway (CC BY 4.0)"
        case .meteoalarm: return "MeteoAlarm / EUMETNET (meteoalarm.org)"
        case .eccc: return "Environment and Climate Change Canada"
        }
    }

    /// The key of `[alerts]` that points fixcast at this source (for a message that says what to check).
    public var baseURLKey: String {
        switch self {
        case .nws: return "alerts.nws_base_url"
        case .metalerts: return "alerts.metalerts_base_url"
        case .meteoalarm: return "alerts.meteoalarm_base_url"
        case .eccc: return "alerts.eccc_base_url"
        }
    }
}

/// One official weather alert, as the sources' formats come down to (CONTRACT.md `alerts.active[]`).
/// Times may be missing or out of order (NWS sends `expires` before `onset` on updates); nothing is
/// made up for a missing one.
public struct Alert: Sendable, Hashable {
    /// The source's own identifier (CAP identifier); a new id means a new alert.
    public var id: String
    public var event: String
    public var headline: String?
    public var severity: AlertSeverity
    public var certainty: String?
    public var urgency: String?
    public var onset: Date?
    /// When the message stops being current; past it the alert is dropped, even from the store.
    public var expires: Date?
    /// When the hazard itself is expected to end.
    public var ends: Date?
    public var area: String?
    public var description: String?
    public var instruction: String?
    public var url: String?
    /// The other ids this alert has had: the messages of its chain that `id` (its first) does not
    /// name (`AlertIdentity`). Kept with the store's last answer so a later update is joined to it;
    /// not part of the reading JSON.
    public var aliases: [String] = []
    /// Where the alert applies, as its source drew it (its polygons, or the bundled table's areas it
    /// names), for alerts ahead (`AlertsAhead`); nil when the source said nothing the matcher can use.
    /// Kept with the store's last answer (`AlertCheck`); not part of the reading JSON, nor of `==`.
    public var footprint: AlertFootprint? = nil

    /// Every text is capped here (`TextCap`), where each source's messages and the store's copies
    /// become an `Alert`: the id to `alertID`, one-line fields to `alertLine`, the description and
    /// the instruction to `alertParagraph`.
    public init(
        id: String, event: String, headline: String? = nil, severity: AlertSeverity, certainty: String? = nil,
        urgency: String? = nil, onset: Date? = nil, expires: Date? = nil, ends: Date? = nil, area: String? = nil,
        description: String? = nil, instruction: String? = nil, url: String? = nil
    ) {
        func line(_ text: String?) -> String? { TextCap.capped(text, maxBytes: TextCap.alertLine) }
        self.id = TextCap.capped(id, maxBytes: TextCap.alertID)
        self.event = TextCap.capped(event, maxBytes: TextCap.alertLine)
        self.headline = line(headline)
        self.severity = severity
        self.certainty = line(certainty)
        self.urgency = line(urgency)
        self.onset = onset
        self.expires = expires
        self.ends = ends
        self.area = line(area)
        self.description = TextCap.capped(description, maxBytes: TextCap.alertParagraph)
        self.instruction = TextCap.capped(instruction, maxBytes: TextCap.alertParagraph)
        self.url = line(url)
    }

    /// Equal when they say the same: `aliases` are the identity's bookkeeping and `footprint` the
    /// matcher's, which the reading JSON leaves out, so an alert read back from a reading equals the one written.
    public static func == (a: Alert, b: Alert) -> Bool {
        a.id == b.id && a.event == b.event && a.headline == b.headline && a.severity == b.severity
            && a.certainty == b.certainty && a.urgency == b.urgency && a.onset == b.onset && a.expires == b.expires
            && a.ends == b.ends && a.area == b.area && a.description == b.description
            && a.instruction == b.instruction && a.url == b.url
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(event)
        hasher.combine(headline)
        hasher.combine(severity)
        hasher.combine(onset)
        hasher.combine(expires)
    }

    /// The same alert with `footprint` (what the decoders write where they read the area).
    public func placed(_ footprint: AlertFootprint?) -> Alert {
        var copy = self
        copy.footprint = footprint
        return copy
    }

    /// Whether the alert is over at `now`: past `expires`, or past `ends` when no `expires` was sent.
    /// An alert with neither is current as long as the source lists it.
    public func isExpired(at now: Date) -> Bool {
        if let expires { return now >= expires }
        if let ends { return now >= ends }
        return false
    }

    /// Most severe first; then the earliest onset (unknown last); then by id, so the order is stable.
    public static func displayOrder(_ a: Alert, _ b: Alert) -> Bool {
        if a.severity != b.severity { return a.severity > b.severity }
        switch (a.onset, b.onset) {
        case (let x?, let y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.id < b.id
        }
    }

    /// The alerts still current at `now`, most severe first.
    public static func active(_ alerts: [Alert], at now: Date) -> [Alert] {
        alerts.filter { !$0.isExpired(at: now) }.sorted(by: displayOrder)
    }
}

/// The alerts at a position, or that no source covers it (CONTRACT.md's `alerts` object).
/// "Not covered" is its own state, never an empty list, so that it cannot be read as "no alerts".
/// Why no alert source covers a position, so that "not covered" says the true reason: a country no
/// source covers is named; a position too far from every place in the table to tell its country (the
/// open sea, the western Aleutians) is not blamed on a country; a lookup switched off says so.
public enum NotCoveredCause: Sendable, Hashable {
    /// No source covers this country (ISO 3166-1 alpha-2).
    case country(String)
    /// No place in the table is near enough to tell the country, so `auto` chose no source.
    case countryUnknown
    /// `alerts.source = "none"`.
    case sourceOff
}

public struct AlertReport: Sendable, Hashable {
    public var source: AlertSourceID?
    public var covered: Bool
    public var fetchedAt: Date?
    /// The source is failing and these are the last alerts it gave (none past its `expires`).
    public var stale: Bool
    /// Current alerts, most severe first.
    public var active: [Alert]
    /// How many current alerts the source listed beyond `maxAlerts` and that are not in `active`
    /// (the least severe ones); 0 when nothing was cut. JSON `omitted`, present only when not 0.
    public var omitted: Int
    /// Why "not covered" was said, for the human text; nil when not known (a report read back from a
    /// stored reading). Not part of the JSON (CONTRACT.md's not-covered object).
    public var notCoveredBecause: NotCoveredCause? = nil

    /// More current alerts than this at one point is not a real answer (a busy NWS point has a
    /// handful, a whole-country MetAlerts feed a few dozen); the rest are left out, and counted in
    /// `omitted`, so that a hostile body cannot grow a reading without bound. The cut comes after
    /// every filter (status, Cancel, polygon, one per id, expiry) and keeps the most severe, so the
    /// alert that applies here is never the one cut (issue 24).
    public static let maxAlerts = 100

    public init(source: AlertSourceID?, covered: Bool, fetchedAt: Date?, stale: Bool, active: [Alert], omitted: Int = 0)
    {
        self.source = source
        self.covered = covered
        self.fetchedAt = fetchedAt
        self.stale = stale
        self.active = active
        self.omitted = omitted
    }

    /// No alert source covers the position.
    public static let notCovered = AlertReport(source: nil, covered: false, fetchedAt: nil, stale: false, active: [])

    /// What `source` answered at `fetchedAt`, with what has expired by `now` dropped, the rest ordered
    /// and cut to `maxAlerts` (`omitted` counts the cut, plus `alreadyOmitted` from an earlier cut of
    /// the same answer, as a 304 Not Modified reuses it).
    public static func fetched(
        _ alerts: [Alert], source: AlertSourceID, fetchedAt: Date, now: Date, alreadyOmitted: Int = 0
    ) -> AlertReport {
        let current = Alert.active(alerts, at: now)
        let kept = Array(current.prefix(maxAlerts))
        return AlertReport(
            source: source, covered: true, fetchedAt: fetchedAt, stale: false, active: kept,
            omitted: current.count - kept.count + max(0, alreadyOmitted))
    }

    /// The same report at a later moment: alerts expired by `now` dropped, `stale` as given.
    public func aged(to now: Date, stale: Bool) -> AlertReport {
        var copy = self
        copy.active = Alert.active(active, at: now)
        copy.stale = covered && stale
        return copy
    }

    /// The highest severity among the active alerts; nil when there are none.
    public var maxSeverity: AlertSeverity? { active.map(\.severity).max() }
}
