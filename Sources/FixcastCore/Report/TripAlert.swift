import FoundationEssentials

/// One alert as the report shows it: an official one (NWS, MET Norway MetAlerts, … — the reading's
/// `alerts`) or one a weather provider sent with its forecast (`weather.alerts`), brought to one
/// shape so the profile shades both and the table lists both.
public struct TripAlert: Sendable, Hashable {
    /// Identity across readings: the official source and its id (CONTRACT.md: one id is one alert),
    /// or a provider alert's title and times (they carry no id).
    public var key: String
    public var event: String
    public var severity: AlertSeverity
    public var starts: Date?
    /// When the hazard ends; for an official alert without `ends`, when its message expires.
    public var ends: Date?
    /// Who issued it, as people know them ("NWS", "MET Norway"); nil when not said.
    public var source: String?
    public var official: Bool

    public init(
        key: String, event: String, severity: AlertSeverity, starts: Date? = nil, ends: Date? = nil,
        source: String? = nil, official: Bool
    ) {
        self.key = key
        self.event = event
        self.severity = severity
        self.starts = starts
        self.ends = ends
        self.source = source
        self.official = official
    }

    /// An official alert from `source`.
    public init(_ alert: Alert, source: AlertSourceID?) {
        self.init(
            key: (source?.rawValue ?? "official") + "|" + alert.id, event: alert.event, severity: alert.severity,
            starts: alert.onset, ends: alert.ends ?? alert.expires, source: source?.displayName, official: true)
    }

    /// A weather provider's alert (its severity word read on CAP's scale).
    public init(_ alert: WeatherAlert) {
        func stamp(_ d: Date?) -> String { d.map(UTCTime.format) ?? "" }
        self.init(
            key: "provider|" + alert.title + "|" + stamp(alert.starts) + "|" + stamp(alert.ends), event: alert.title,
            severity: AlertSeverity(cap: alert.severity), starts: alert.starts, ends: alert.ends, source: alert.source,
            official: false)
    }

    /// A reading's alerts: the official ones first (most severe first, as stored), then the provider's.
    public static func of(_ reading: Reading) -> [TripAlert] {
        let official = (reading.alerts?.active ?? []).map { TripAlert($0, source: reading.alerts?.source) }
        return official + (reading.weather?.alerts ?? []).map(TripAlert.init)
    }
}

/// An alert over a trip: when it applied (its own times where it gave them, else the first and last
/// reading that listed it) and the most severe level any reading listed it at.
public struct TripAlertPeriod: Sendable, Hashable {
    public var alert: TripAlert
    public var from: Date
    public var to: Date

    /// Each alert once (by `key`), most severe first, then by start.
    public static func collect(_ readings: [TripReading]) -> [TripAlertPeriod] {
        var order: [String] = []
        var byKey: [String: (alert: TripAlert, first: Date, last: Date)] = [:]
        for r in readings {
            for a in r.alerts {
                if var seen = byKey[a.key] {
                    seen.first = min(seen.first, r.time)
                    seen.last = max(seen.last, r.time)
                    if a.severity > seen.alert.severity { seen.alert = a }
                    byKey[a.key] = seen
                } else {
                    order.append(a.key)
                    byKey[a.key] = (a, r.time, r.time)
                }
            }
        }
        let periods = order.compactMap { key -> TripAlertPeriod? in
            guard let seen = byKey[key] else { return nil }
            let from = seen.alert.starts ?? seen.first
            let to = max(seen.alert.ends ?? seen.last, from)
            return TripAlertPeriod(alert: seen.alert, from: from, to: to)
        }
        return periods.sorted {
            if $0.alert.severity != $1.alert.severity { return $0.alert.severity > $1.alert.severity }
            return $0.from != $1.from ? $0.from < $1.from : $0.alert.key < $1.alert.key
        }
    }
}
