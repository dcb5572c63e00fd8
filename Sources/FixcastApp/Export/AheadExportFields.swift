import FixcastCore
import FixcastText
import FoundationEssentials

/// The ahead forecast's headline in the exports (CONTRACT.md "Store and exports", issue 20): when
/// it was made and on what basis, the rain ahead (in how long, how far, where, how much), the
/// lowest temperature and the strongest gust ahead. One place for the three formats' fields, so CSV
/// columns, GPX extensions and GeoJSON properties say the same.
enum AheadExportFields {
    static let csvHeader = [
        "ahead_made_at", "ahead_basis", "ahead_stale", "ahead_rain_in_min", "ahead_rain_at_km", "ahead_rain_place",
        "ahead_rain_mm_h", "ahead_min_temperature_c", "ahead_max_gust_mps",
    ]

    /// The CSV cells, in `csvHeader` order: empty without a forecast, the rain cells empty when no
    /// rain is ahead. The place is text from outside, so it goes through the formula guard.
    static func csvCells(_ ahead: AheadForecast?) -> [String] {
        guard let a = ahead else { return Array(repeating: "", count: csvHeader.count) }
        return [
            UTCTime.format(a.madeAt), a.basis.rawValue, a.stale ? "true" : "false", ExportText.number(a.rain?.inMin),
            ExportText.number(a.rain?.atKm), CSVCell.text(a.rain?.place ?? ""), ExportText.number(a.rain?.mmH),
            ExportText.number(a.worst.minTemperatureC), ExportText.number(a.worst.maxGustMps),
        ]
    }

    /// `<fixcast:ahead made_at=… basis=… stale=…>` holding `<fixcast:rain in_min=… at_km=… mm_h=…>place</…>`
    /// (absent when no rain is ahead) and the extremes; empty without a forecast.
    static func gpxExtension(_ ahead: AheadForecast?) -> String {
        guard let a = ahead else { return "" }
        var s =
            "<fixcast:ahead made_at=\"\(UTCTime.format(a.madeAt))\" basis=\"\(a.basis.rawValue)\" stale=\"\(a.stale)\">"
        if let rain = a.rain {
            s +=
                "<fixcast:rain in_min=\"\(rain.inMin)\" at_km=\"\(ExportText.number(rain.atKm))\" mm_h=\"\(ExportText.number(rain.mmH))\">"
                + ExportText.xml(rain.place ?? "") + "</fixcast:rain>"
        }
        if let t = a.worst.minTemperatureC, t.isFinite {
            s += "<fixcast:min_temperature_c>\(ExportText.number(t))</fixcast:min_temperature_c>"
        }
        if let g = a.worst.maxGustMps, g.isFinite {
            s += "<fixcast:max_gust_mps>\(ExportText.number(g))</fixcast:max_gust_mps>"
        }
        return s + "</fixcast:ahead>"
    }

    /// The GeoJSON feature's `ahead_headline` property: the headline (the samples stay in `fixcast ahead`
    /// and the store; a year of readings with a dozen samples each would swamp a map tool); `null`
    /// without a forecast.
    static func geoJSON(_ ahead: AheadForecast?) -> JSONValue {
        guard let a = ahead else { return .null }
        let rain: JSONValue =
            a.rain.map {
                .object([
                    ("in_min", .int($0.inMin)), ("at_km", .double($0.atKm)), ("place", .string($0.place)),
                    ("mm_h", .double($0.mmH)),
                ])
            } ?? .null
        return .object([
            ("made_at", .string(UTCTime.format(a.madeAt))),
            ("basis", .string(a.basis.rawValue)),
            ("stale", .bool(a.stale)),
            ("rain", rain),
            ("min_temperature_c", .number(a.worst.minTemperatureC)),
            ("max_gust_mps", .number(a.worst.maxGustMps)),
        ])
    }

    /// The reading's properties with its `ahead` object (CONTRACT.md's, with every sample) replaced by
    /// `ahead_headline` (in its place, or before `errors` when the reading's JSON has none). Under its
    /// own name: a consumer that reads the properties as a reading (fixcast's own `Reading(json:)`
    /// included) finds no `ahead` rather than one of another shape, without `from`, `samples` or `worst`.
    static func withAhead(_ properties: JSONValue, _ ahead: AheadForecast?) -> JSONValue {
        guard case .object(var members) = properties else { return properties }
        if let at = members.firstIndex(where: { $0.0 == "ahead" }) {
            members[at] = ("ahead_headline", geoJSON(ahead))
        } else {
            let at = members.firstIndex { $0.0 == "errors" } ?? members.endIndex
            members.insert(("ahead_headline", geoJSON(ahead)), at: at)
        }
        return .object(members)
    }
}
