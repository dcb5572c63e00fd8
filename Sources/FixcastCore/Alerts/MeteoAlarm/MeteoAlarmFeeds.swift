/// Which MeteoAlarm (EUMETNET) country feed covers a country, by its ISO 3166-1 alpha-2 code as the
/// offline place table names it: the slug in `{meteoalarm_base_url}/feeds/meteoalarm-legacy-atom-<slug>`,
/// spelled as MeteoAlarm spells it (`bosnia-herzegovina`, `republic-of-north-macedonia`, `czechia`).
/// One feed per member country, so a position asks one feed, and the region ahead one feed per country
/// it crosses (CONTRACT.md "Alerts").
public enum MeteoAlarmFeeds {
    /// Every member country's feed, from MeteoAlarm's list of legacy Atom feeds (39). The United Kingdom is
    /// GB, as in ISO 3166-1 and GeoNames.
    public static let slugs: [String: String] = [
        "AD": "andorra", "AT": "austria", "BA": "bosnia-herzegovina", "BE": "belgium", "BG": "bulgaria",
        "CH": "switzerland", "CY": "cyprus", "CZ": "czechia", "DE": "germany", "DK": "denmark",
        "EE": "estonia", "ES": "spain", "FI": "finland", "FR": "france", "GB": "united-kingdom",
        "GR": "greece", "HR": "croatia", "HU": "hungary", "IE": "ireland", "IL": "israel", "IS": "iceland",
        "IT": "italy", "LT": "lithuania", "LU": "luxembourg", "LV": "latvia", "MD": "moldova",
        "ME": "montenegro", "MK": "republic-of-north-macedonia", "MT": "malta", "NL": "netherlands",
        "NO": "norway", "PL": "poland", "PT": "portugal", "RO": "romania", "RS": "serbia", "SE": "sweden",
        "SI": "slovenia", "SK": "slovakia", "UA": "ukraine",
    ]

    /// The feed's slug for `countryCode` (any case), or nil when MeteoAlarm has no feed for it.
    public static func slug(countryCode: String) -> String? {
        slugs[countryCode.uppercased()]
    }

    /// The feed's path under the base URL.
    public static func feedPath(slug: String) -> String { "/feeds/meteoalarm-legacy-atom-" + slug }

    /// The default of `meteoalarm_base_url` (CONTRACT.md).
    public static let defaultBaseURL = "https://feeds.meteoalarm.org"
}
