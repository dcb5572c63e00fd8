/// `alerts.source` (CONTRACT.md): `auto` chooses by country, the others force one source or none.
public enum AlertSourceSetting: String, Sendable, Hashable, CaseIterable {
    case auto, nws, metalerts, none
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

    /// The source to ask, or nil for "not covered". `countryCode` is nil when no place is near
    /// enough to name the country (mid-ocean); `auto` then covers nothing.
    public static func source(countryCode: String?, setting: AlertSourceSetting) -> AlertSourceID? {
        switch setting {
        case .none: return nil
        case .nws: return .nws
        case .metalerts: return .metalerts
        case .auto:
            guard let code = countryCode?.uppercased() else { return nil }
            if nwsCountries.contains(code) { return .nws }
            if metAlertsCountries.contains(code) { return .metalerts }
            return nil
        }
    }
}
