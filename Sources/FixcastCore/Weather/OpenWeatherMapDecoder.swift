import FixcastText
import FoundationEssentials

/// Reads OpenWeatherMap's `/data/2.5/weather` (current) and `/data/2.5/forecast` (3-hourly, 5 days)
/// into one `WeatherReport`.
///
/// OWM sends no units in the body: they follow the request's `units` parameter, and fixcast sends
/// none, so the response is in the documented "standard" units (K, m/s, hPa, mm). The forecast's
/// steps are folded into days by the local calendar date (`city.timezone`, seconds east of UTC):
/// min of `temp_min`, max of `temp_max`, the sum of rain and snow, and the most severe condition.
/// - SeeAlso: https://openweathermap.org/current, https://openweathermap.org/forecast5
public enum OpenWeatherMapDecoder {
    public static func decode(
        current currentBody: [UInt8], forecast forecastBody: [UInt8]?, coordinate: Coordinate, fetchedAt: Date
    )
        throws(WeatherDecodeError) -> WeatherReport
    {
        let current = try JSONRead.parse(currentBody)
        let forecast = try forecastBody.map { (b) throws(WeatherDecodeError) in try JSONRead.parse(b) }
        return try decode(current: current, forecast: forecast, coordinate: coordinate, fetchedAt: fetchedAt)
    }

    public static func decode(current: JSONValue, forecast: JSONValue?, coordinate: Coordinate, fetchedAt: Date)
        throws(WeatherDecodeError) -> WeatherReport
    {
        guard current.objectValue != nil else {
            throw WeatherDecodeError("the current-weather body is not a JSON object")
        }
        guard let main = try JSONRead.object(current["main"], "main") else {
            throw WeatherDecodeError("no \"main\" block")
        }
        // One unreadable value costs that value only (named in `valueProblems`), not the report.
        var log = WeatherValueLog()
        let wind = log.keep("wind_speed_mps") { () throws(WeatherDecodeError) in
            try JSONRead.object(current["wind"], "wind")
        }
        let clouds = log.keep("cloud_cover_pct") { () throws(WeatherDecodeError) in
            try JSONRead.object(current["clouds"], "clouds")
        }
        let sys = log.keep("today.sunrise") { () throws(WeatherDecodeError) in
            try JSONRead.object(current["sys"], "sys")
        }
        func number(_ v: JSONValue?, _ path: String, _ field: String) -> Double? {
            log.keep(field) { () throws(WeatherDecodeError) in try JSONRead.number(v, path) }
        }
        let seaLevel = number(main["sea_level"], "main.sea_level", "pressure_hpa")
        let stationPressure = number(main["pressure"], "main.pressure", "pressure_hpa")
        func kelvin(_ v: JSONValue?, _ path: String, _ field: String) -> Double? {
            log.keep(field) { () throws(WeatherDecodeError) in
                try JSONRead.number(v, path).map { (k) throws(WeatherDecodeError) in
                    try WeatherUnits.toSI(k, unit: "K", quantity: .temperature, path: path)
                }
            }
        }
        let currentParts = log.keep("precipitation_mm") { () throws(WeatherDecodeError) in
            try precipitationParts(current, window: "1h", path: "")
        }
        let currentPrecipitation = log.believableSum(
            currentParts ?? [], WeatherValueRanges.precipitation, "precipitation_mm")
        let conditions = CurrentConditions(
            temperatureC: kelvin(main["temp"], "main.temp", "temperature_c"),
            feelsLikeC: kelvin(main["feels_like"], "main.feels_like", "feels_like_c"),
            humidityPct: number(main["humidity"], "main.humidity", "humidity_pct"),
            dewPointC: nil,
            // `sea_level` is the MSL pressure; older answers have only `pressure` (also at sea level).
            pressureHpa: seaLevel ?? stationPressure,
            windSpeedMps: number(wind?["speed"], "wind.speed", "wind_speed_mps"),
            windGustMps: number(wind?["gust"], "wind.gust", "wind_gust_mps"),
            windDirDeg: number(wind?["deg"], "wind.deg", "wind_dir_deg"),
            precipitationMm: currentPrecipitation,
            cloudCoverPct: number(clouds?["all"], "clouds.all", "cloud_cover_pct"),
            weatherCode: log.keep("weather_code") { () throws(WeatherDecodeError) in
                try conditionCode(current["weather"], path: "weather")
            }
        )
        // An offset beyond ±18 h is none (and could not be added to a time: 9223372036854775807 traps).
        let currentOffset = WeatherReport.utcOffset(try? JSONRead.int(current["timezone"], "timezone"))

        var daily: [DailyForecast] = []
        var offset = currentOffset ?? 0
        if let forecast {
            guard forecast.objectValue != nil else {
                throw WeatherDecodeError("the forecast body is not a JSON object")
            }
            let city = try JSONRead.object(forecast["city"], "city")
            if let cityOffset = WeatherReport.utcOffset(try JSONRead.int(city?["timezone"], "city.timezone")) {
                offset = cityOffset
            }
            guard let list = try JSONRead.array(forecast["list"], "list") else {
                throw WeatherDecodeError("the forecast has no \"list\"")
            }
            daily = fold(list, offset: offset, log: &log)
        }

        let localToday = UTCTime.formatDate(fetchedAt.addingTimeInterval(Double(offset)))
        let todayForecast = daily.first(where: { $0.date == localToday })
        let currentMin = kelvin(main["temp_min"], "main.temp_min", "today.min_c")
        let currentMax = kelvin(main["temp_max"], "main.temp_max", "today.max_c")
        func time(_ key: String) -> Date? {
            log.keep("today.\(key)") { () throws(WeatherDecodeError) in
                try JSONRead.int(sys?[key], "sys.\(key)").map { (seconds) throws(WeatherDecodeError) in
                    guard let time = PlausibleTime.date(Double(seconds)) else {
                        throw WeatherDecodeError("sys.\(key) \(seconds) is not a time from 1970 to 2200")
                    }
                    return time
                }
            }
        }
        // Today's range is the forecast day's widened by the current answer's, each value in range:
        // a sentinel (0 K is -273.15 °C) would win the min and then cost the whole value. One that is
        // not believable is left to the range check only when there is nothing else to show.
        func believable(_ values: [Double?]) -> [Double] {
            values.compactMap { $0 }.filter(WeatherValueRanges.temperature.believes)
        }
        // The forecast's day is said to cover today only from its first step when it does (`from`, as
        // `daily[0]` is): the range of the rest of a day is not passed off as the whole day's.
        let today = TodaySummary(
            minC: believable([todayForecast?.minC, currentMin]).min() ?? currentMin,
            maxC: believable([todayForecast?.maxC, currentMax]).max() ?? currentMax,
            sunrise: time("sunrise"),
            sunset: time("sunset"),
            from: todayForecast?.from
        )
        var report = WeatherReport(
            provider: .openWeatherMap, fetchedAt: fetchedAt, coordinate: coordinate, current: conditions, today: today,
            daily: daily)
        report.utcOffsetS = WeatherReport.utcOffset(offset)
        report.valueProblems = log.problems
        return WeatherValueRanges.checked(report)
    }

    /// The 3-hourly steps folded into local days, in date order, as far as they cover them
    /// (`DailyCoverage`: the first day from the first step, no last day the steps stop in). A step
    /// that cannot be read is left out and named once in `log` (`daily`), as one unreadable value of
    /// the current conditions costs that value only, not the report; a step temperature out of range
    /// is left out of its day's range; a step's rain or snow out of range makes its day's
    /// precipitation unknown and named (`daily[i].precipitation_mm`), not the sum of the others.
    static func fold(_ list: [JSONValue], offset: Int, log: inout WeatherValueLog) -> [DailyForecast] {
        var days: [String: DailyForecast] = [:]
        var unbelievable: [String: WeatherValueProblem] = [:]
        var first: Date?
        var last: Date?
        let amounts = WeatherValueRanges.stepPrecipitation(windowHours: Self.stepS / 3600)
        for (i, item) in list.enumerated() {
            let path = "list[\(i)]"
            let step = log.keep("daily") { () throws(WeatherDecodeError) in try Self.step(item, path: path) }
            guard let step else { continue }
            first = min(first ?? step.time, step.time)
            last = max(last ?? step.time, step.time)
            let date = UTCTime.formatDate(step.time.addingTimeInterval(Double(offset)))
            var day = days[date] ?? DailyForecast(date: date)
            // A step without rain or snow is a dry step (OWM omits the blocks), so it counts as 0.
            var amount: Double? = 0
            let parts = step.precipitationParts.compactMap { $0 }
            if let bad = parts.lazy.compactMap({ WeatherValueRanges.problem($0, amounts, field: "daily") }).first {
                if unbelievable[date] == nil { unbelievable[date] = bad }
                amount = nil
            } else {
                amount = parts.reduce(0, +)
            }
            day.include(minC: step.minC, maxC: step.maxC, weatherCode: step.code, precipitationMm: amount)
            days[date] = day
        }
        let sorted = days.values.sorted { $0.date < $1.date }
        guard let first, let last else { return sorted }
        let covered = DailyCoverage.covered(
            sorted, firstStep: first, reach: last.addingTimeInterval(Self.stepS), offset: Double(offset))
        return log.withoutUnbelievablePrecipitation(covered, unbelievable)
    }

    /// 3 hours: each step of `/forecast` holds the three hours from its `dt`.
    static let stepS = 3.0 * 3600

    /// One step of `/forecast`, read: its time, range (°C, nil when out of range), condition and
    /// rain and snow as sent (`precipitationParts`).
    struct Step {
        var time: Date
        var minC: Double?
        var maxC: Double?
        var code: Int?
        var precipitationParts: [Double?]
    }

    static func step(_ item: JSONValue, path: String) throws(WeatherDecodeError) -> Step {
        guard let dt = try JSONRead.int(item["dt"], "\(path).dt") else {
            throw WeatherDecodeError("\(path).dt is missing")
        }
        // A step from before 1970 or after 2200 is no step (9223372036854775807 + the offset trapped).
        guard let time = PlausibleTime.date(Double(dt)) else {
            throw WeatherDecodeError("\(path).dt \(dt) is not a time from 1970 to 2200")
        }
        let main = try JSONRead.object(item["main"], "\(path).main")
        let temp = try JSONRead.number(main?["temp"], "\(path).main.temp")
        func celsius(_ kelvin: Double?) -> Double? {
            kelvin.flatMap { try? WeatherUnits.toSI($0, unit: "K", quantity: .temperature, path: path) }
                .flatMap { WeatherValueRanges.temperature.believes($0) ? $0 : nil }
        }
        let lo = celsius(try JSONRead.number(main?["temp_min"], "\(path).main.temp_min") ?? temp)
        let hi = celsius(try JSONRead.number(main?["temp_max"], "\(path).main.temp_max") ?? temp)
        return Step(
            time: time, minC: lo, maxC: hi, code: try conditionCode(item["weather"], path: "\(path).weather"),
            precipitationParts: try precipitationParts(item, window: "3h", path: "\(path)."))
    }

    /// Rain and snow over `window` ("1h", "3h"), each as sent, nil where its block is not there; they
    /// are summed only once each is believable (`WeatherValueLog.believableSum`).
    static func precipitationParts(_ item: JSONValue, window: String, path: String) throws(WeatherDecodeError)
        -> [Double?]
    {
        let rain = try JSONRead.number(JSONRead.object(item["rain"], "\(path)rain")?[window], "\(path)rain.\(window)")
        let snow = try JSONRead.number(JSONRead.object(item["snow"], "\(path)snow")?[window], "\(path)snow.\(window)")
        return [rain, snow]
    }

    static func conditionCode(_ weather: JSONValue?, path: String) throws(WeatherDecodeError) -> Int? {
        guard let list = try JSONRead.array(weather, path), let first = list.first else { return nil }
        guard let id = try JSONRead.int(first["id"], "\(path)[0].id") else { return nil }
        return OpenWeatherMapConditions.wmoCode(id)
    }

    /// The API's own message from an error body (`{"cod":401,"message":"..."}`).
    public static func errorMessage(_ body: [UInt8]) -> String? {
        guard let json = try? JSONValue.parse(body), let message = json["message"]?.stringValue, !message.isEmpty else {
            return nil
        }
        return ErrorText.oneLine(message)
    }
}
