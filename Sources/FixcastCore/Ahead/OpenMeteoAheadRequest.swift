import FoundationEssentials

/// The one request for every sample ahead: Open-Meteo's multi-location form.
///
/// Samples within `cellM` of a location already asked for share it: the public models' cells are
/// 1-11 km, so two samples 2 km apart would get the same numbers and cost a second call unit.
/// Only the hours from now's hour to the hour after the last ETA, and one spare, are asked for
/// (`forecast_hours`), in m/s, with `timezone=auto` so each location's `utc_offset_seconds` is its own.
public struct OpenMeteoAheadRequest: Sendable, Equatable {
    public static let path = "/v1/forecast"
    /// ~2 km (issue 20): within one model cell.
    public static let cellM = 2_000.0
    public static let hourlyVariables = [
        "temperature_2m", "precipitation", "precipitation_probability", "weather_code",
        "wind_speed_10m", "wind_gusts_10m", "wind_direction_10m",
    ]

    /// The distinct locations, in the order first met.
    public let locations: [Coordinate]
    /// For each sample, the index of its location in `locations`.
    public let locationOfSample: [Int]
    /// Hours from the current hour through the hour after the last ETA, and `spareHours`.
    public let forecastHours: Int

    /// Open-Meteo counts `forecast_hours` from the current hour of each location's own time zone
    /// (`timezone=auto`), not the UTC hour: in a half- or quarter-hour zone (India +5:30,
    /// Newfoundland −3:30, Adelaide +9:30, Nepal +5:45) that hour begins up to 45 min before the UTC
    /// one, and the series counted from the UTC hour ended before the last ETA (its values null).
    /// One hour more covers any offset; it costs no call unit (those count locations, not hours).
    public static let spareHours = 1

    /// nil without samples (nothing to ask).
    public init?(samples: [AheadSamplePoint], now: Date) {
        guard let lastETA = samples.map(\.eta).max() else { return nil }
        var locations: [Coordinate] = []
        var index: [Int] = []
        for s in samples {
            if let k = locations.firstIndex(where: { GreatCircle.distanceM($0, s.coordinate) <= Self.cellM }) {
                index.append(k)
            } else {
                locations.append(s.coordinate)
                index.append(locations.count - 1)
            }
        }
        let hourStart = (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600
        let hours = Int(((lastETA.timeIntervalSince1970 - hourStart) / 3600).rounded(.up)) + 1 + Self.spareHours
        self.locations = locations
        self.locationOfSample = index
        self.forecastHours = max(1, min(OpenMeteoAheadDecoder.maxHours, hours))
    }

    /// `baseURL` is scheme, host, optional port and path prefix, without a trailing slash.
    public func url(baseURL: String) -> String {
        let lats = locations.map { QueryEncoding.decimal($0.lat, places: 4) }.joined(separator: ",")
        let lons = locations.map { QueryEncoding.decimal($0.lon, places: 4) }.joined(separator: ",")
        return baseURL + Self.path + "?latitude=" + lats + "&longitude=" + lons
            + "&hourly=" + Self.hourlyVariables.joined(separator: ",")
            + "&wind_speed_unit=ms&timezone=auto&forecast_hours=\(forecastHours)"
    }
}
