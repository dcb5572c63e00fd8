import FoundationEssentials

/// Fills the values a provider left out that physics gives from the ones it sent (CONTRACT.md
/// `derived`): dew point from temperature and humidity (`DewPoint`), feels-like from temperature,
/// humidity and wind (`ApparentTemperature`), and today's sunrise and sunset from the position and the
/// date (`SolarTimes`; in polar day or night both stay nil and `today.daylight` says which).
///
/// A provider's own value always wins (one it sent out of range stays unknown, as its error says), and
/// each value filled is named in `derived`, so nothing computed passes for measured. A derived temperature is kept to 0.1 °C, as the providers send theirs: the
/// formulas are no closer than that (`DewPoint`), and 18.913416636332983 °C in a reading's JSON, the
/// store and a CSV export would claim a precision nobody measured. Applied once to every fetched report
/// (`WeatherService`), whatever the provider; applying it again changes nothing.
public enum WeatherDerivation {
    public static func completed(_ report: WeatherReport) -> WeatherReport {
        var r = report
        var derived = Set(r.derived)
        let c = r.current
        // A value the provider sent and the range check refused stays unknown, as its error says
        // ("… shown as unknown"): it was given, wrongly; `derived` is for values not given.
        let refused = Set(r.valueProblems.map(\.field))
        if c.dewPointC == nil, !refused.contains("dew_point_c"), let t = c.temperatureC, let rh = c.humidityPct,
            let dew = DewPoint.celsius(temperatureC: t, humidityPct: rh), WeatherValueRanges.temperature.contains(dew)
        {
            r.current.dewPointC = DecimalRounding.rounded(dew, places: 1)
            derived.insert(.dewPoint)
        }
        if c.feelsLikeC == nil, !refused.contains("feels_like_c"), let t = c.temperatureC, let rh = c.humidityPct,
            let ws = c.windSpeedMps,
            let feels = ApparentTemperature.celsius(temperatureC: t, humidityPct: rh, windSpeedMps: ws),
            WeatherValueRanges.feelsLike.contains(feels)
        {
            r.current.feelsLikeC = DecimalRounding.rounded(feels, places: 1)
            derived.insert(.feelsLike)
        }
        var today = r.today ?? TodaySummary()
        // A pair that is no day's is not given: Open-Meteo marks polar night with both at the day's
        // 00:00 and polar day with 00:00 to the next 00:00, OpenWeatherMap with 0 (1970-01-01) for
        // both. NOAA's times, or `daylight`, stand in, named in `derived`.
        if let rise = today.sunrise, let set = today.sunset, !SolarTimes.isOneDay(sunrise: rise, sunset: set) {
            today.sunrise = nil
            today.sunset = nil
            if r.today != nil { r.today = today }
        }
        let sunRefused = refused.contains("today.sunrise") || refused.contains("today.sunset")
        if !sunRefused, today.sunrise == nil, today.sunset == nil, today.daylight == nil,
            fillSunTimes(&today, on: localDate(of: r.fetchedAt, in: r), for: r)
        {
            // Both were decided here, a time or that there is none today (polar day or night, or the
            // day it begins or ends, when the sun only rises or only sets).
            derived.formUnion([.sunrise, .sunset])
            r.today = today
        }
        r.derived = DerivedValue.allCases.filter(derived.contains)
        return r
    }

    /// Puts NOAA's sunrise and sunset of `date`, a day of `report`'s own calendar (`localDate(of:in:)`),
    /// at its position (`SolarTimes`) into `today`, or, in polar day or night, its `daylight`; false
    /// (and `today` unchanged) when the date cannot be read. For the fetch day here, and for a later
    /// day a stored report is shown on (`WeatherDayShift`).
    static func fillSunTimes(_ today: inout TodaySummary, on date: String, for report: WeatherReport) -> Bool {
        switch SolarTimes.day(solarDate(of: date, in: report), at: report.coordinate) {
        case .times(let rise, let set):
            today.sunrise = rise
            today.sunset = set
        case .polar(let daylight):
            today.daylight = daylight
        case nil:
            return false
        }
        return true
    }

    /// The solar date (`SolarTimes` counts days by the sun) whose noon falls on `date` of `report`'s
    /// calendar: the same date, except where the clock is far from the sun. In Samoa (UTC + 13 h, the
    /// sun at UTC − 11.45 h) Friday's sunrise is that of the sun's Thursday; passed as it is, the date
    /// gave Saturday's.
    static func solarDate(of date: String, in report: WeatherReport) -> String {
        guard let offset = report.utcOffsetS, let midnight = UTCTime.parse(String(date.prefix(10))) else {
            return date
        }
        return localDate(of: midnight.addingTimeInterval(12 * 3600 - Double(offset)), at: report.coordinate)
    }

    /// The calendar date of `time` in `report`'s own calendar, the one its `daily` rows and `today`
    /// are in: its time zone (`utcOffsetS`) when known, else the mean solar date at its position. The
    /// day today's derived sunrise and sunset are for, and the day a stored report is shown on
    /// (`WeatherDayShift`): one rule for both.
    public static func localDate(of time: Date, in report: WeatherReport) -> String {
        UTCTime.formatDate(time.addingTimeInterval(calendarOffsetS(of: report)))
    }

    /// The first instant after `time` at which `localDate(of:in:)` turns to the next day: midnight
    /// in `report`'s own calendar.
    public static func nextDayStart(after time: Date, in report: WeatherReport) -> Date {
        let offset = calendarOffsetS(of: report)
        let localDay = ((time.timeIntervalSince1970 + offset) / 86_400).rounded(.down)
        return Date(timeIntervalSince1970: (localDay + 1) * 86_400 - offset)
    }

    /// How far `report`'s calendar is from UTC: its time zone, else mean solar time at its position.
    private static func calendarOffsetS(of report: WeatherReport) -> TimeInterval {
        report.utcOffsetS.map(Double.init) ?? solarOffsetS(at: report.coordinate)
    }

    private static func solarOffsetS(at coordinate: Coordinate) -> TimeInterval { coordinate.lon / 15 * 3600 }

    /// The calendar date at the position by mean solar time (longitude / 15 h), for a report that
    /// carries no time zone: the solar day is the one whose sunrise and sunset belong together. It
    /// differs from the civil date for an hour or two around midnight, and by a day where the date
    /// line bends (Samoa, Tonga, Kiribati).
    public static func localDate(of time: Date, at coordinate: Coordinate) -> String {
        UTCTime.formatDate(time.addingTimeInterval(solarOffsetS(at: coordinate)))
    }
}
