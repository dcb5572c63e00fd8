import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// CSV per RFC 4180: a header, one reading a row, CRLF line ends, units in the column names
/// (always SI/metric, like the JSON). Empty fields are unknown values; `weather_derived` names the
/// values fixcast computed because the provider gave none, as the JSON's `weather.derived` does.
/// Text cells that would start a formula get a leading `'` (CSVCell). The track is not written:
/// CSV is for the readings; GPX and GeoJSON carry the track.
struct CSVWriter: ExportWriter {
    static let header =
        [
            "time", "trigger", "lat", "lon", "alt_m", "speed_mps", "track_deg", "mode", "fix_time", "position_source",
            "position_age_s", "place_name", "place_region", "place_country", "place_country_code", "place_source",
            "weather_provider", "weather_fetched_at", "weather_cached", "weather_stale", "weather_derived",
            "temperature_c",
            "feels_like_c",
            "humidity_pct", "dew_point_c", "pressure_hpa", "wind_speed_mps", "wind_gust_mps", "wind_dir_deg",
            "precipitation_mm", "cloud_cover_pct", "weather_code", "description", "today_min_c", "today_max_c",
            "errors",
            "alerts_count", "alerts_max_severity",
        ] + AheadExportFields.csvHeader

    let language: Language
    var includesTrack: Bool { false }

    init(language: Language) { self.language = language }

    mutating func begin(_ out: ExportSink) throws(ExportError) {
        try out.write(Self.header.joined(separator: ",") + "\r\n")
    }

    mutating func reading(_ r: Reading, at time: Date, _ out: ExportSink) throws(ExportError) {
        let p = r.position
        let w = r.weather
        let c = w?.current
        let n = ExportText.number as (Double?) -> String
        // Text from outside (names, descriptions, error texts) is made spreadsheet- and
        // terminal-safe (CSVCell); numbers and fixcast's own words are written as they are.
        let t: (String?) -> String = { CSVCell.text($0 ?? "") }
        let fields: [String] =
            [
                UTCTime.format(r.time), r.trigger.rawValue,
                n(p?.coordinate.lat), n(p?.coordinate.lon), n(p?.altitudeM), n(p?.speedMps), n(p?.trackDeg),
                p?.mode?.rawValue ?? "", p?.fixTime.map(UTCTime.format) ?? "", p?.source.rawValue ?? "",
                p.map { String($0.ageSeconds(at: r.time)) } ?? "",
                t(r.place?.name), t(r.place?.region), t(r.place?.country), t(r.place?.countryCode),
                r.place?.source.rawValue ?? "",
                w?.provider.rawValue ?? "", w.map { UTCTime.format($0.fetchedAt) } ?? "",
                w.map { $0.cached ? "true" : "false" } ?? "", w.map { $0.stale ? "true" : "false" } ?? "",
                // CONTRACT.md `derived`: the values fixcast computed, by their JSON names, space-separated.
                w.map { $0.derived.map(\.rawValue).joined(separator: " ") } ?? "",
                n(c?.temperatureC), n(c?.feelsLikeC), n(c?.humidityPct), n(c?.dewPointC), n(c?.pressureHpa),
                n(c?.windSpeedMps), n(c?.windGustMps), n(c?.windDirDeg), n(c?.precipitationMm), n(c?.cloudCoverPct),
                c?.weatherCode.map { String($0) } ?? "", t(ExportText.description(w, language: language)),
                n(w?.today?.minC), n(w?.today?.maxC), t(ExportText.errors(r.errors)),
                // Empty when alerts were off or failed; "0" and empty when covered and calm; "not-covered" says so.
                r.alerts.map { $0.covered ? String($0.active.count) : "" } ?? "",
                r.alerts.map { $0.covered ? ($0.maxSeverity?.rawValue ?? "") : "not-covered" } ?? "",
            ] + AheadExportFields.csvCells(r.ahead)
        try out.write(fields.map(CSVCell.field).joined(separator: ",") + "\r\n")
    }

    mutating func trackPoint(_ fix: Fix, at time: Date, _ out: ExportSink) throws(ExportError) {}

    mutating func end(_ out: ExportSink) throws(ExportError) {}
}
