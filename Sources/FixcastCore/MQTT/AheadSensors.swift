import FixcastText
import FoundationEssentials

/// The values of Home Assistant's ahead sensors (CONTRACT.md "MQTT"), decided here from the reading's
/// `ahead` forecast and published, retained, to `<topic_prefix>/<device_id>/ahead`, so the
/// discovery templates only read a field: `rain_in_min` (nil, "unknown", when no sample reaches the
/// rain threshold), the lowest and highest temperature and the highest gust over the samples, and
/// how many alerts lie ahead. No forecast (ahead off for this reading, or none could be made): every
/// value is unknown, never 0.
public struct AheadSensors: Sendable, Hashable {
    public var rainInMin: Int?
    public var temperatureMinC: Double?
    public var temperatureMaxC: Double?
    public var gustMaxMps: Double?
    public var alertCount: Int?
    public var forecast: AheadForecast?

    public init(_ forecast: AheadForecast?) {
        self.forecast = forecast
        guard let forecast else { return }
        rainInMin = forecast.rain?.inMin
        let temperatures = forecast.samples.compactMap(\.temperatureC).filter(\.isFinite)
        // The forecast's own extremes where it has them (`worst`), the samples otherwise.
        temperatureMinC = forecast.worst.minTemperatureC ?? temperatures.min()
        temperatureMaxC = temperatures.max()
        gustMaxMps = forecast.worst.maxGustMps ?? forecast.samples.compactMap(\.windGustMps).filter(\.isFinite).max()
        alertCount = forecast.alerts.count
    }

    /// The `ahead` topic's payload: the values, then the samples and alerts as attributes.
    public var payload: JSONValue {
        let samples: [JSONValue] = (forecast?.samples ?? []).map { s in
            .object([
                ("minutes", .int(s.minutes)),
                ("eta", .string(UTCTime.format(s.eta))),
                ("distance_km", .number(s.distanceKm)),
                ("place", .string(s.place)),
                ("temperature_c", .number(s.temperatureC)),
                ("precipitation_mm_h", .number(s.precipitationMmH)),
                ("wind_gust_mps", .number(s.windGustMps)),
            ])
        }
        let alerts: [JSONValue] = (forecast?.alerts ?? []).map { a in
            .object([
                ("id", .string(a.id)),
                ("event", .string(a.event)),
                ("severity", .string(a.severity)),
                ("in_min", .int(a.inMin)),
                ("at_km", .number(a.atKm)),
                ("place", .string(a.place)),
            ])
        }
        return .object([
            ("rain_in_min", .number(rainInMin)),
            ("temperature_min_c", .number(temperatureMinC)),
            ("temperature_max_c", .number(temperatureMaxC)),
            ("gust_max_mps", .number(gustMaxMps)),
            ("alerts_count", .number(alertCount)),
            ("samples", .array(samples)),
            ("alerts", .array(alerts)),
        ])
    }
}
