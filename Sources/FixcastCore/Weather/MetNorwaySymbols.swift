/// MET Norway symbol codes (`clearsky_day`, `heavyrainshowersandthunder`, …) mapped onto WMO codes.
///
/// The suffix `_day`/`_night`/`_polartwilight` is dropped; the base names are those of the official
/// legend (metno/weathericons `legend.csv`), including its two misspellings (`lightssleet…`,
/// `lightssnow…`), which the API really sends. WMO has no sleet, so sleet takes freezing rain (66/67);
/// thunder of any strength is 95 (96/99 mean hail, which MET does not forecast).
public enum MetNorwaySymbols {
    public static func wmoCode(_ symbol: String) -> Int? {
        var base = Substring(symbol)
        for suffix in ["_day", "_night", "_polartwilight"] where base.hasSuffix(suffix) {
            base = base.dropLast(suffix.count)
        }
        return table[String(base)]
    }

    static let table: [String: Int] = [
        "clearsky": 0, "fair": 1, "partlycloudy": 2, "cloudy": 3, "fog": 45,
        "lightrainshowers": 80, "rainshowers": 81, "heavyrainshowers": 82,
        "lightrainshowersandthunder": 95, "rainshowersandthunder": 95, "heavyrainshowersandthunder": 95,
        "lightsleetshowers": 66, "sleetshowers": 66, "heavysleetshowers": 67,
        "lightssleetshowersandthunder": 95, "lightsleetshowersandthunder": 95, "sleetshowersandthunder": 95,
        "heavysleetshowersandthunder": 95,
        "lightsnowshowers": 85, "snowshowers": 85, "heavysnowshowers": 86,
        "lightssnowshowersandthunder": 95, "lightsnowshowersandthunder": 95, "snowshowersandthunder": 95,
        "heavysnowshowersandthunder": 95,
        "lightrain": 61, "rain": 63, "heavyrain": 65,
        "lightrainandthunder": 95, "rainandthunder": 95, "heavyrainandthunder": 95,
        "lightsleet": 66, "sleet": 66, "heavysleet": 67,
        "lightsleetandthunder": 95, "sleetandthunder": 95, "heavysleetandthunder": 95,
        "lightsnow": 71, "snow": 73, "heavysnow": 75,
        "lightsnowandthunder": 95, "snowandthunder": 95, "heavysnowandthunder": 95,
    ]
}
