/// `alerts.source` (CONTRACT.md): `auto` chooses by country, the others force one source or none.
public enum AlertSourceSetting: String, Sendable, Hashable, CaseIterable {
    case auto, nws, metalerts, meteoalarm, eccc, none
}

/// Which alert source covers a position, chosen from the country of the nearest place in the
/// offline GeoNames table, so that no network is needed to decide (CONTRACT.md "Alerts").
public enum AlertCoverage {
    /// The United States and its territories (GeoNames codes): Puerto Rico, Guam, the US Virgin
    /// Islands, American Samoa, the Northern Mariana Islands and the Minor Outlying Islands, all
    /// served by NWS offices.
    public static let nwsCountries: Set<String> = ["US", "PR", "GU", "VI", "AS", "MP", "UM"]
    /// Norway and Svalbard & Jan Mayen, MET Norway's warning area.
    public static let metAlertsCountries: Set<String> = ["NO", "SJ"]
    /// Canada, ECCC's warning area.
    public static let ecccCountries: Set<String> = ["CA"]
    /// MeteoAlarm's members: every country with a legacy Atom feed (`MeteoAlarmFeeds`). Norway is one,
    /// but `auto` asks MET Norway there: its own service has the polygons and answers for a point.
    public static var meteoAlarmCountries: Set<String> { Set(MeteoAlarmFeeds.slugs.keys) }

    /// The source to ask, or nil for "not covered". `countryCode` is nil when no place is near
    /// enough to name the country (mid-ocean); `auto` then covers nothing. `meteoalarm` needs the
    /// country too (it picks the feed), and covers only its members.
    public static func source(countryCode: String?, setting: AlertSourceSetting) -> AlertSourceID? {
        let code = countryCode?.uppercased()
        switch setting {
        case .none: return nil
        case .nws: return .nws
        case .metalerts: return .metalerts
        case .eccc: return .eccc
        case .meteoalarm:
            guard let code, MeteoAlarmFeeds.slug(countryCode: code) != nil else { return nil }
            return .meteoalarm
        case .auto:
            guard let code else { return nil }
            if nwsCountries.contains(code) { return .nws }
            if metAlertsCountries.contains(code) { return .metalerts }
            if ecccCountries.contains(code) { return .eccc }
            if MeteoAlarmFeeds.slug(countryCode: code) != nil { return .meteoalarm }
            return nil
        }
    }

    /// Why `source(countryCode:setting:)` gives no source (or, for a forced MeteoAlarm, no feed) here.
    public static func cause(countryCode: String?, setting: AlertSourceSetting) -> NotCoveredCause {
        if setting == .none { return .sourceOff }
        guard let countryCode else { return .countryUnknown }
        return .country(countryCode.uppercased())
    }

    /// Whether `setting` needs the position's country to choose (and, for MeteoAlarm, the feed).
    public static func needsCountry(_ setting: AlertSourceSetting) -> Bool {
        setting == .auto || setting == .meteoalarm
    }

    /// What fixcast's sources cover, for "not covered" to say where alerts do exist (CONTRACT.md:
    /// "not covered" names the sources, and README lists the countries).
    public static let coverageSummary =
        "NWS covers the United States and its territories, MET Norway covers Norway and Svalbard, ECCC covers Canada, "
        + "MeteoAlarm covers its \(MeteoAlarmFeeds.slugs.count) European member countries"
}
