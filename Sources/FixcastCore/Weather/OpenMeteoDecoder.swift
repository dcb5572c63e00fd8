import FixcastText
import FoundationEssentials

/// Reads an Open-Meteo `/v1/forecast` response into a `WeatherReport`.
///
/// Every value is converted by the unit its `*_units` block names (the public API answers in km/h
/// unless asked otherwise; a mirror may differ). Local times (`timezone=auto`) become UTC with
/// `utc_offset_seconds`. A `null` in a daily array is that day's missing value, not zero.
/// - SeeAlso: https://open-meteo.com/en/docs
public enum OpenMeteoDecoder {
    /// The variables fixcast asks for (the provider puts them in the query).
    public static let currentVariables = [
        "temperature_2m", "apparent_temperature", "relative_humidity_2m", "dew_point_2m", "pressure_msl",
        "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "precipitation", "cloud_cover", "weather_code",
    ]
    public static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "sunrise", "sunset", "precipitation_sum",
    ]

    public static func decode(_ body: [UInt8], coordinate: Coordinate, fetchedAt: Date) throws(WeatherDecodeError)
        -> WeatherReport
    {
        try decode(JSONRead.parse(body), coordinate: coordinate, fetchedAt: fetchedAt)
    }

    public static func decode(_ json: JSONValue, coordinate: Coordinate, fetchedAt: Date) throws(WeatherDecodeError)
        -> WeatherReport
    {
        guard json.objectValue != nil else { throw WeatherDecodeError("the body is not a JSON object") }
        // One unreadable value costs that value only (named in `valueProblems`), not the report: an
        // offset that cannot be read leaves the dates in UTC (Open-Meteo's default), and says so.
        var log = WeatherValueLog()
        let givenOffset = WeatherReport.utcOffset(
            log.keep("utc_offset_seconds") { () throws(WeatherDecodeError) in
                try JSONRead.int(json["utc_offset_seconds"], "utc_offset_seconds")
            })
        let offset = givenOffset ?? 0
        guard let current = try JSONRead.object(json["current"], "current") else {
            throw WeatherDecodeError("no \"current\" block")
        }
        let currentUnits = try? JSONRead.object(json["current_units"], "current_units")

        func value(_ key: String, _ field: String, _ quantity: WeatherUnits.Quantity?) -> Double? {
            log.keep(field) { () throws(WeatherDecodeError) -> Double? in
                guard let v = try JSONRead.number(current[key], "current.\(key)") else { return nil }
                guard let quantity else { return v }
                guard let unit = try JSONRead.string(currentUnits?[key], "current_units.\(key)") else {
                    throw WeatherDecodeError("current_units.\(key) is missing")
                }
                return try WeatherUnits.toSI(v, unit: unit, quantity: quantity, path: "current.\(key)")
            }
        }

        let conditions = CurrentConditions(
            temperatureC: value("temperature_2m", "temperature_c", .temperature),
            feelsLikeC: value("apparent_temperature", "feels_like_c", .temperature),
            humidityPct: value("relative_humidity_2m", "humidity_pct", nil),
            dewPointC: value("dew_point_2m", "dew_point_c", .temperature),
            pressureHpa: value("pressure_msl", "pressure_hpa", .pressure),
            windSpeedMps: value("wind_speed_10m", "wind_speed_mps", .speed),
            windGustMps: value("wind_gusts_10m", "wind_gust_mps", .speed),
            windDirDeg: value("wind_direction_10m", "wind_dir_deg", nil),
            precipitationMm: value("precipitation", "precipitation_mm", .precipitation),
            cloudCoverPct: value("cloud_cover", "cloud_cover_pct", nil),
            weatherCode: log.keep("weather_code") { () throws(WeatherDecodeError) -> Int? in
                try JSONRead.int(current["weather_code"], "current.weather_code")
            }
        )

        var daily: [DailyForecast] = []
        var sunrises: [Date?] = []
        var sunsets: [Date?] = []
        if let block = try JSONRead.object(json["daily"], "daily") {
            let units = try? JSONRead.object(json["daily_units"], "daily_units")
            guard let times = try JSONRead.array(block["time"], "daily.time") else {
                throw WeatherDecodeError("daily.time is missing")
            }
            // A column that cannot be used (wrong type or length, unknown unit) loses that column only.
            func column(_ key: String, _ field: String) -> [JSONValue]? {
                log.keep("daily.\(field)") { () throws(WeatherDecodeError) -> [JSONValue]? in
                    guard let col = try JSONRead.array(block[key], "daily.\(key)") else { return nil }
                    guard col.count == times.count else {
                        throw WeatherDecodeError("daily.\(key) has \(col.count) values for \(times.count) days")
                    }
                    return col
                }
            }
            func numbers(_ key: String, _ field: String, _ quantity: WeatherUnits.Quantity) -> [Double?] {
                let none = [Double?](repeating: nil, count: times.count)
                guard let col = column(key, field) else { return none }
                let unit = log.keep("daily.\(field)") { () throws(WeatherDecodeError) -> String? in
                    guard let unit = try JSONRead.string(units?[key], "daily_units.\(key)") else {
                        throw WeatherDecodeError("daily_units.\(key) is missing")
                    }
                    return unit
                }
                guard let unit else { return none }
                return col.enumerated().map { (i, v) in
                    let path = "daily.\(key)[\(i)]"
                    return log.keep("daily[\(i)].\(field)") { () throws(WeatherDecodeError) -> Double? in
                        try JSONRead.number(v, path).map { (x) throws(WeatherDecodeError) in
                            try WeatherUnits.toSI(x, unit: unit, quantity: quantity, path: path)
                        }
                    }
                }
            }
            func localTimes(_ key: String) -> [Date?] {
                guard let col = column(key, key) else { return Array(repeating: nil, count: times.count) }
                return col.enumerated().map { (i, v) in
                    log.keep("daily[\(i)].\(key)") { () throws(WeatherDecodeError) -> Date? in
                        guard let text = try JSONRead.string(v, "daily.\(key)[\(i)]") else { return nil }
                        // Local time made UTC, then held to 1970–2200: a sunrise in year 0000 is not one.
                        guard let parsed = UTCTime.parse(text, localOffsetS: offset),
                            let time = PlausibleTime.date(parsed.timeIntervalSince1970)
                        else {
                            throw WeatherDecodeError("daily.\(key)[\(i)] is not a time")
                        }
                        return time
                    }
                }
            }
            let maxes = numbers("temperature_2m_max", "max_c", .temperature)
            let mins = numbers("temperature_2m_min", "min_c", .temperature)
            let precipitation = numbers("precipitation_sum", "precipitation_mm", .precipitation)
            var codes: [Int?] = Array(repeating: nil, count: times.count)
            if let col = column("weather_code", "weather_code") {
                for (i, v) in col.enumerated() {
                    codes[i] = log.keep("daily[\(i)].weather_code") { () throws(WeatherDecodeError) -> Int? in
                        try JSONRead.int(v, "daily.weather_code[\(i)]")
                    }
                }
            }
            sunrises = localTimes("sunrise")
            sunsets = localTimes("sunset")
            for (i, t) in times.enumerated() {
                guard let date = try JSONRead.string(t, "daily.time[\(i)]"), PlausibleTime.parse(date) != nil else {
                    throw WeatherDecodeError("daily.time[\(i)] is not a date")
                }
                daily.append(
                    DailyForecast(
                        date: String(date.prefix(10)), minC: mins[i], maxC: maxes[i], weatherCode: codes[i],
                        precipitationMm: precipitation[i]))
            }
        }

        // Today is the local calendar date at the position when the report was fetched.
        let localToday = UTCTime.formatDate(fetchedAt.addingTimeInterval(Double(offset)))
        var today: TodaySummary?
        if let i = daily.firstIndex(where: { $0.date == localToday }) {
            today = TodaySummary(minC: daily[i].minC, maxC: daily[i].maxC, sunrise: sunrises[i], sunset: sunsets[i])
        }
        // Without a daily row for today (no daily block, or a response from another day), today's
        // range is that of the hourly temperatures of the local date, where the response has them.
        if today?.minC == nil, today?.maxC == nil, let range = hourlyRange(json, localDate: localToday) {
            var t = today ?? TodaySummary()
            t.minC = range.min
            t.maxC = range.max
            today = t
        }

        var report = WeatherReport(
            provider: .openMeteo, fetchedAt: fetchedAt, coordinate: coordinate,
            current: conditions, today: today, daily: daily
        )
        // Without utc_offset_seconds the dates are UTC's (Open-Meteo's default time zone).
        report.utcOffsetS = givenOffset ?? 0
        report.valueProblems = log.problems
        return WeatherValueRanges.checked(report)
    }

    /// The lowest and highest `hourly.temperature_2m` on `localDate` (the hourly times are local with
    /// `timezone=auto`, like the daily ones); nil when the response has none for that date. A value that
    /// cannot be read or is out of range is left out, as for MET Norway's steps.
    static func hourlyRange(_ json: JSONValue, localDate: String) -> (min: Double, max: Double)? {
        guard let times = json["hourly"]?["time"]?.arrayValue,
            let temps = json["hourly"]?["temperature_2m"]?.arrayValue,
            times.count == temps.count, let unit = json["hourly_units"]?["temperature_2m"]?.stringValue
        else { return nil }
        var low = Double.infinity
        var high = -Double.infinity
        for (time, value) in zip(times, temps) {
            guard let text = time.stringValue, text.hasPrefix(localDate), let raw = value.doubleValue,
                let c = try? WeatherUnits.toSI(raw, unit: unit, quantity: .temperature, path: "hourly.temperature_2m"),
                WeatherValueRanges.temperature.believes(c)
            else { continue }
            low = min(low, c)
            high = max(high, c)
        }
        return low <= high ? (low, high) : nil
    }

    /// The API's own reason from an error body (`{"error":true,"reason":"..."}`), if the body is one.
    /// Open-Meteo's published example breaks a line inside the string, which is not JSON, so a body
    /// that does not parse is searched for the `"reason"` string leniently.
    public static func errorReason(_ body: [UInt8]) -> String? {
        if let json = try? JSONValue.parse(body) {
            return json["reason"]?.stringValue.map(ErrorText.oneLine)
        }
        return ErrorText.lenientStringMember("reason", in: body)
    }
}
