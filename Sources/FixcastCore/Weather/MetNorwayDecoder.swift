import FixcastText
import FoundationEssentials

/// Reads a MET Norway Locationforecast 2.0 `compact` response into a `WeatherReport`.
///
/// Units come from `properties.meta.units`. "Current" is the latest step at or before the fetch time
/// (the first step when all are in the future). MET gives no time zone, so days are cut at the
/// position's mean solar midnight (longitude / 15 h, rounded to the hour): within an hour of civil
/// time almost everywhere, and honest about being an approximation. Daily min/max come from the
/// instant temperatures of that day, precipitation from the 1-hour amounts (6-hour ones where the
/// series turns 6-hourly), the code from the most severe symbol.
/// - SeeAlso: https://api.met.no/weatherapi/locationforecast/2.0/documentation
public enum MetNorwayDecoder {
    /// The local-day offset fixcast uses for a position without a time zone, seconds east of UTC.
    public static func solarOffsetSeconds(longitude: Double) -> Int {
        Int(clamping: longitude / 15, to: -12...12, rounding: .toNearestOrAwayFromZero) * 3600
    }

    public static func decode(_ body: [UInt8], coordinate: Coordinate, fetchedAt: Date) throws(WeatherDecodeError)
        -> WeatherReport
    {
        try decode(JSONRead.parse(body), coordinate: coordinate, fetchedAt: fetchedAt)
    }

    private struct Step {
        var time: Date
        var details: JSONValue?
        var symbol1h: String?
        var symbol6h: String?
        var symbol12h: String?
        var precipitation1h: Double?
        var precipitation6h: Double?
    }

    public static func decode(_ json: JSONValue, coordinate: Coordinate, fetchedAt: Date) throws(WeatherDecodeError)
        -> WeatherReport
    {
        guard let properties = try JSONRead.object(json["properties"], "properties") else {
            throw WeatherDecodeError("no \"properties\" block")
        }
        let units = try? JSONRead.object(properties["meta"]?["units"], "properties.meta.units")
        // One unreadable value costs that value only (named in `valueProblems`), not the report.
        var log = WeatherValueLog()
        guard let series = try JSONRead.array(properties["timeseries"], "properties.timeseries"), !series.isEmpty else {
            throw WeatherDecodeError("properties.timeseries is missing or empty")
        }
        func unit(_ key: String) throws(WeatherDecodeError) -> String {
            guard let u = try JSONRead.string(units?[key], "meta.units.\(key)") else {
                throw WeatherDecodeError("meta.units.\(key) is missing")
            }
            return u
        }
        func si(_ value: Double?, _ key: String, _ quantity: WeatherUnits.Quantity, _ path: String)
            throws(WeatherDecodeError) -> Double?
        {
            guard let value else { return nil }
            return try WeatherUnits.toSI(value, unit: unit(key), quantity: quantity, path: path)
        }

        var steps: [Step] = []
        for (i, item) in series.enumerated() {
            let path = "timeseries[\(i)]"
            // A step outside 1970–2200 is not a time either: its day would be shown as a forecast for year 1.
            guard let timeText = try JSONRead.string(item["time"], "\(path).time"),
                let time = PlausibleTime.parse(timeText)
            else {
                throw WeatherDecodeError("\(path).time is missing or not a time")
            }
            let data = try JSONRead.object(item["data"], "\(path).data")
            let details = try JSONRead.object(data?["instant"]?["details"], "\(path).data.instant.details")
            func symbol(_ window: String) -> String? {
                log.keep("weather_code") { () throws(WeatherDecodeError) in
                    try JSONRead.string(
                        data?[window]?["summary"]?["symbol_code"], "\(path).data.\(window).summary.symbol_code")
                }
            }
            func amount(_ window: String) -> Double? {
                let p = "\(path).data.\(window).details.precipitation_amount"
                return log.keep("precipitation_mm") { () throws(WeatherDecodeError) in
                    try si(
                        JSONRead.number(data?[window]?["details"]?["precipitation_amount"], p), "precipitation_amount",
                        .precipitation, p)
                }
            }
            steps.append(
                Step(
                    time: time, details: details,
                    symbol1h: symbol("next_1_hours"), symbol6h: symbol("next_6_hours"),
                    symbol12h: symbol("next_12_hours"),
                    precipitation1h: amount("next_1_hours"), precipitation6h: amount("next_6_hours")
                ))
        }
        steps.sort { $0.time < $1.time }

        let now = steps.last(where: { $0.time <= fetchedAt }) ?? steps[0]
        let d = now.details
        func instant(_ key: String, _ field: String, _ quantity: WeatherUnits.Quantity?) -> Double? {
            log.keep(field) { () throws(WeatherDecodeError) -> Double? in
                let path = "instant.details.\(key)"
                let v = try JSONRead.number(d?[key], path)
                guard let quantity else { return v }
                return try si(v, key, quantity, path)
            }
        }
        let symbol = now.symbol1h ?? now.symbol6h ?? now.symbol12h
        let conditions = CurrentConditions(
            temperatureC: instant("air_temperature", "temperature_c", .temperature),
            feelsLikeC: nil,
            humidityPct: instant("relative_humidity", "humidity_pct", nil),
            dewPointC: instant("dew_point_temperature", "dew_point_c", .temperature),
            pressureHpa: instant("air_pressure_at_sea_level", "pressure_hpa", .pressure),
            windSpeedMps: instant("wind_speed", "wind_speed_mps", .speed),
            windGustMps: instant("wind_speed_of_gust", "wind_gust_mps", .speed),
            windDirDeg: instant("wind_from_direction", "wind_dir_deg", nil),
            precipitationMm: now.precipitation1h,
            cloudCoverPct: instant("cloud_area_fraction", "cloud_cover_pct", nil),
            weatherCode: symbol.flatMap(MetNorwaySymbols.wmoCode)
        )

        // Days, by mean solar time at the position.
        let offset = Double(solarOffsetSeconds(longitude: coordinate.lon))
        var days: [String: DailyForecast] = [:]
        // Days whose precipitation had a step amount out of range: unknown, not the sum of the others.
        var unbelievable: [String: WeatherValueProblem] = [:]
        for step in steps {
            let date = UTCTime.formatDate(step.time.addingTimeInterval(offset))
            var day = days[date] ?? DailyForecast(date: date)
            // A step temperature that cannot be read or is out of range is left out of the day's range.
            let path = "instant.details.air_temperature"
            let c =
                (try? si(
                    JSONRead.number(step.details?["air_temperature"], path), "air_temperature", .temperature, path))
                .flatMap { WeatherValueRanges.temperature.believes($0) ? $0 : nil }
            // Hourly steps carry next_1_hours; once the series turns 6-hourly only next_6_hours is there.
            let windowHours: Double = step.precipitation1h != nil ? 1 : 6
            var amount = step.precipitation1h ?? (step.symbol1h == nil ? step.precipitation6h : nil)
            if let a = amount,
                let bad = WeatherValueRanges.problem(
                    a, WeatherValueRanges.stepPrecipitation(windowHours: windowHours), field: "daily")
            {
                if unbelievable[date] == nil { unbelievable[date] = bad }
                amount = nil
            }
            day.include(
                minC: c, maxC: c, weatherCode: (step.symbol1h ?? step.symbol6h).flatMap(MetNorwaySymbols.wmoCode),
                precipitationMm: amount)
            days[date] = day
        }
        let daily = log.withoutUnbelievablePrecipitation(
            Self.covered(days.values.sorted { $0.date < $1.date }, steps: steps, offset: offset), unbelievable)
        let localToday = UTCTime.formatDate(fetchedAt.addingTimeInterval(offset))
        let today = daily.first(where: { $0.date == localToday }).map {
            TodaySummary(minC: $0.minC, maxC: $0.maxC, from: $0.from)
        }
        var report = WeatherReport(
            provider: .metNorway, fetchedAt: fetchedAt, coordinate: coordinate, current: conditions, today: today,
            daily: daily)
        report.utcOffsetS = Int(offset)
        report.valueProblems = log.problems
        return WeatherValueRanges.checked(report)
    }

    /// The days as far as the series covers them (`DailyCoverage`); the fixture's last step is one
    /// instant at 01:00 local. A step's forecast reaches as far as its longest window; an instant
    /// alone, no further.
    private static func covered(_ days: [DailyForecast], steps: [Step], offset: Double) -> [DailyForecast] {
        guard let firstStep = steps.first, let lastStep = steps.last else { return days }
        let windowH: Double
        if lastStep.symbol12h != nil {
            windowH = 12
        } else if lastStep.symbol6h != nil || lastStep.precipitation6h != nil {
            windowH = 6
        } else if lastStep.symbol1h != nil || lastStep.precipitation1h != nil {
            windowH = 1
        } else {
            windowH = 0
        }
        return DailyCoverage.covered(
            days, firstStep: firstStep.time, reach: lastStep.time.addingTimeInterval(windowH * 3600), offset: offset)
    }
}
