import FixcastCore
import FoundationEssentials

/// How a reading maps onto a `readings` row: the fields people query in their own columns, and
/// the whole reading as the JSON of CONTRACT.md, which is what is read back (so a stored reading
/// comes back exactly as it was printed).
enum ReadingRow {
    static let columns = [
        "time", "trigger", "lat", "lon", "alt_m", "speed_mps", "track_deg", "mode", "fix_time", "position_source",
        "place_name", "place_region", "place_country", "place_country_code", "place_source",
        "weather_provider", "fetched_at", "cached", "stale",
        "temperature_c", "feels_like_c", "humidity_pct", "dew_point_c", "pressure_hpa",
        "wind_speed_mps", "wind_gust_mps", "wind_dir_deg", "precipitation_mm", "cloud_cover_pct", "weather_code",
        "errors", "json", "alerts_count", "alerts_max_severity",
    ]

    static let insertSQL: String = {
        let placeholders = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        return "INSERT INTO readings (\(columns.joined(separator: ", "))) VALUES (\(placeholders))"
    }()

    /// The stored JSON's language: descriptions are derived from the weather code, so the
    /// language only affects the `description` text inside the JSON, which exports recompute.
    static let storedLanguage = Language.en

    static func values(of r: Reading) -> [SQLiteValue] {
        let p = r.position
        let c = r.weather?.current
        let values: [SQLiteValue] = [
            .of(r.time), .text(r.trigger.rawValue),
            .of(p?.coordinate.lat), .of(p?.coordinate.lon), .of(p?.altitudeM), .of(p?.speedMps), .of(p?.trackDeg),
            .of(p?.mode?.rawValue), .of(p?.fixTime), .of(p?.source.rawValue),
            .of(r.place?.name), .of(r.place?.region), .of(r.place?.country), .of(r.place?.countryCode),
            .of(r.place?.source.rawValue),
            .of(r.weather?.provider.rawValue), .of(r.weather?.fetchedAt), .of(r.weather?.cached), .of(r.weather?.stale),
            .of(c?.temperatureC), .of(c?.feelsLikeC), .of(c?.humidityPct), .of(c?.dewPointC), .of(c?.pressureHpa),
            .of(c?.windSpeedMps), .of(c?.windGustMps), .of(c?.windDirDeg), .of(c?.precipitationMm),
            .of(c?.cloudCoverPct), .of(c?.weatherCode),
            .of(
                r.errors.isEmpty
                    ? nil : r.errors.map { "\($0.component.rawValue): \($0.message)" }.joined(separator: "\n")),
            .text(r.json(language: storedLanguage).serialized()),
            // NULL when the reading has no alerts object (off or failed); 0 and NULL when covered and calm.
            .of(r.alerts.map { $0.active.count }), .of(r.alerts?.maxSeverity?.rawValue),
        ]
        assert(values.count == columns.count)
        return values
    }
}
