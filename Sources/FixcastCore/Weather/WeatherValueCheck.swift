import FixcastText
import FoundationEssentials

/// A weather value the provider sent that fixcast does not believe, so it is shown as unknown.
///
/// The reading keeps everything else; this becomes one `errors` entry (component `weather`) naming
/// the field by its reading JSON key, so a person and a script can both see what is missing and why.
public struct WeatherValueProblem: UserFacingError, Hashable {
    public enum Cause: Sendable, Hashable {
        /// A number outside the field's physical range (`WeatherValueRanges`).
        case outOfRange(value: Double, range: WeatherValueRanges.Range)
        /// NaN, an infinity, or a magnitude no weather has (1e308).
        case absurd
        /// A weather code outside the WMO table.
        case unknownCode(Int)
        /// The value could not be read at all (wrong type, not a time, unknown unit); `detail` names
        /// the provider's JSON path.
        case unreadable(detail: String)
        /// The request that carries the value failed while the rest of the report came (OpenWeatherMap's
        /// `/forecast` beside its `/weather`); the weather service still backs off on its 429 or 5xx.
        case notFetched(WeatherError)
    }

    /// The reading's JSON key (`humidity_pct`, `daily[2].min_c`, `today.sunrise`).
    public var field: String
    public var cause: Cause

    public init(field: String, cause: Cause) {
        self.field = field
        self.cause = cause
    }

    public var component: Component { .weather }

    public var message: String {
        switch cause {
        case .outOfRange(let value, let range):
            return "weather: the provider sent \(field) \(Self.text(value)) \(range.unit), outside "
                + "\(Self.text(range.lower))–\(Self.text(range.upper)); shown as unknown."
        case .absurd:
            return
                "weather: the provider sent \(field) as an absurd number (not finite, or beyond any weather); shown as unknown."
        case .unknownCode(let code):
            return "weather: the provider sent \(field) \(code), which is not a WMO weather code; shown as unknown."
        case .unreadable(let detail):
            return
                "weather: the provider sent a \(field) that cannot be read (\(TerminalText.name(detail, maxCharacters: 160))); shown as unknown."
        case .notFetched(let error):
            return
                "weather: \(field) could not be fetched and is shown as unknown (\(ErrorText.clause(error.statement)))."
        }
    }

    /// The failed request's error when the value was not fetched (`Cause.notFetched`), else nil.
    public var fetchError: WeatherError? {
        guard case .notFetched(let error) = cause else { return nil }
        return error
    }

    /// Short text for a number already known to be of sane magnitude (|v| < 1e6).
    static func text(_ v: Double) -> String {
        let r = DecimalRounding.rounded(v, places: 1)
        if r == r.rounded(), let whole = Int(checked: r) { return String(whole) }
        return String(r)
    }
}

/// The physical range of every weather value, in one table, with the reason for each bound.
///
/// A value outside is a provider's fault (a unit mix-up, a sentinel such as -9999, a corrupted
/// mirror), not weather: it is dropped, never shown or stored as fact. The bounds sit beyond the
/// records on Earth so no real extreme is ever lost.
public enum WeatherValueRanges {
    public struct Range: Sendable, Hashable {
        public let lower: Double
        public let upper: Double
        public let unit: String

        public func contains(_ v: Double) -> Bool { v >= lower && v <= upper }

        /// `v` is believable for this range: finite and in it (what `problem` finds nothing wrong with).
        public func believes(_ v: Double) -> Bool { v.isFinite && contains(v) }
    }

    /// Air temperature: records are −89.2 °C (Vostok, 1983) and 56.7 °C (Death Valley, 1913).
    public static let temperature = Range(lower: -100, upper: 70, unit: "°C")
    /// Feels-like goes beyond air temperature: wind chill below −60 °C in Antarctic storms, and a
    /// heat index of 81 °C was reported at Dhahran (2003).
    public static let feelsLike = Range(lower: -120, upper: 90, unit: "°C")
    /// Relative humidity is a percentage.
    public static let humidity = Range(lower: 0, upper: 100, unit: "%")
    /// Sea-level pressure: records are 870 hPa (Typhoon Tip, 1979) and 1084.8 hPa (Tosontsengel, 2001).
    public static let pressure = Range(lower: 800, upper: 1100, unit: "hPa")
    /// Sustained wind: the strongest measured gust is 113 m/s (Barrow Island, 1996); no mean wind nears 120.
    public static let wind = Range(lower: 0, upper: 120, unit: "m/s")
    /// Gusts: 113 m/s on record, with room for a tornado's estimated 135 m/s.
    public static let gust = Range(lower: 0, upper: 150, unit: "m/s")
    /// Precipitation in an hour or less: the record is about 305 mm in 42 minutes (Holt, 1947).
    public static let precipitation = Range(lower: 0, upper: 500, unit: "mm")
    /// Precipitation in a day: the record is 1825 mm (Foc-Foc, Réunion, 1966).
    public static let dailyPrecipitation = Range(lower: 0, upper: 2000, unit: "mm")
    /// Cloud cover is a percentage.
    public static let cloudCover = Range(lower: 0, upper: 100, unit: "%")
    /// Wind direction as sent may be any turn (720° is north); beyond ten turns it is not a direction.
    public static let directionAsSent = Range(lower: -3600, upper: 3600, unit: "°")
    /// Beyond this magnitude a number is absurd whatever the field (and would print as 1e+308).
    static let absurdMagnitude = 1e6

    /// The decimals a value is kept to: 0.01 is finer than any provider sends its own values
    /// (0.1 °C, 0.1 km/h, 0.1 hPa), so nothing it sent is lost, while the noise of a unit conversion
    /// or a sum is (15 km/h is 4.17 m/s, not 4.166666666666667; 298.48 K is 25.33 °C, not
    /// 25.33000000000004; three rain steps make 1.32 mm, not 1.3199999999999998).
    public static let keptPlaces = 2

    /// `report` with every value outside its range made nil and each such value added to
    /// `valueProblems`, the others kept to `keptPlaces` decimals; directions normalised to [0, 360).
    public static func checked(_ report: WeatherReport) -> WeatherReport {
        var r = report
        var problems: [WeatherValueProblem] = []
        func check(_ v: inout Double?, _ range: Range, _ field: String) {
            guard let x = v else { return }
            if let problem = problem(x, range, field: field) {
                problems.append(problem)
                v = nil
            } else {
                v = DecimalRounding.rounded(x, places: keptPlaces)
            }
        }
        func checkCode(_ code: inout Int?, _ field: String) {
            guard let c = code, WMOCode.description(c, language: .en) == nil else { return }
            problems.append(WeatherValueProblem(field: field, cause: .unknownCode(c)))
            code = nil
        }
        check(&r.current.temperatureC, temperature, "temperature_c")
        check(&r.current.feelsLikeC, feelsLike, "feels_like_c")
        check(&r.current.humidityPct, humidity, "humidity_pct")
        check(&r.current.dewPointC, temperature, "dew_point_c")
        check(&r.current.pressureHpa, pressure, "pressure_hpa")
        check(&r.current.windSpeedMps, wind, "wind_speed_mps")
        check(&r.current.windGustMps, gust, "wind_gust_mps")
        check(&r.current.windDirDeg, directionAsSent, "wind_dir_deg")
        r.current.windDirDeg = r.current.windDirDeg.map(CompassDegrees.folded)
        check(&r.current.precipitationMm, precipitation, "precipitation_mm")
        check(&r.current.cloudCoverPct, cloudCover, "cloud_cover_pct")
        checkCode(&r.current.weatherCode, "weather_code")
        if var today = r.today {
            check(&today.minC, temperature, "today.min_c")
            check(&today.maxC, temperature, "today.max_c")
            r.today = today
        }
        for i in r.daily.indices {
            check(&r.daily[i].minC, temperature, "daily[\(i)].min_c")
            check(&r.daily[i].maxC, temperature, "daily[\(i)].max_c")
            check(&r.daily[i].precipitationMm, dailyPrecipitation, "daily[\(i)].precipitation_mm")
            checkCode(&r.daily[i].weatherCode, "daily[\(i)].weather_code")
        }
        r.valueProblems += problems
        return r
    }

    /// What is wrong with `x` as a value of `field` whose range is `range`: absurd (not finite, or
    /// beyond any weather) or out of range; nil when it is believable.
    static func problem(_ x: Double, _ range: Range, field: String) -> WeatherValueProblem? {
        if !x.isFinite || abs(x) >= absurdMagnitude { return WeatherValueProblem(field: field, cause: .absurd) }
        if !range.contains(x) { return WeatherValueProblem(field: field, cause: .outOfRange(value: x, range: range)) }
        return nil
    }

    /// The range of one step's precipitation in a series: an hour's or less by `precipitation`, a
    /// longer window's (MET Norway's 6 h, OpenWeatherMap's 3 h) by a day's, which no such window exceeds.
    static func stepPrecipitation(windowHours: Double) -> Range {
        windowHours <= 1 ? precipitation : dailyPrecipitation
    }
}

/// Collects the values a decoder could not read, so that one bad field costs only that field.
struct WeatherValueLog {
    var problems: [WeatherValueProblem] = []

    /// `read()`'s value, or nil with a problem for `field` when it throws. A field is named once,
    /// however many of a series' steps are bad (the first problem says enough).
    mutating func keep<T>(_ field: String, _ read: () throws(WeatherDecodeError) -> T?) -> T? {
        do {
            return try read()
        } catch {
            record(WeatherValueProblem(field: field, cause: .unreadable(detail: error.detail)))
            return nil
        }
    }

    /// The problem, unless its field is already named.
    mutating func record(_ problem: WeatherValueProblem) {
        if !problems.contains(where: { $0.field == problem.field }) { problems.append(problem) }
    }

    /// The sum of a value's parts (rain and snow) when each is believable in `range`, else nil with the
    /// first unbelievable part named for `field`: -1 mm of rain and 3 mm of snow are not 2 mm. nil
    /// too when no part is there.
    mutating func believableSum(_ parts: [Double?], _ range: WeatherValueRanges.Range, _ field: String) -> Double? {
        let present = parts.compactMap { $0 }
        guard !present.isEmpty else { return nil }
        for part in present {
            if let problem = WeatherValueRanges.problem(part, range, field: field) {
                record(problem)
                return nil
            }
        }
        return present.reduce(0, +)
    }

    /// `days` with the precipitation of each day in `unbelievable` (date → a step amount out of range
    /// that was left out of its sum) made unknown and named (`daily[i].precipitation_mm`): the rest of
    /// the steps' sum is not the day's.
    mutating func withoutUnbelievablePrecipitation(
        _ days: [DailyForecast], _ unbelievable: [String: WeatherValueProblem]
    ) -> [DailyForecast] {
        var out = days
        for i in out.indices {
            guard let problem = unbelievable[out[i].date] else { continue }
            out[i].precipitationMm = nil
            record(WeatherValueProblem(field: "daily[\(i)].precipitation_mm", cause: problem.cause))
        }
        return out
    }
}
