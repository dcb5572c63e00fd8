import FoundationEssentials

/// The local days of a forecast series as far as the series covers them, for the providers whose
/// days fixcast folds from steps (MET Norway's hourly-then-6-hourly series, OpenWeatherMap's 3-hourly
/// one). A series starts at or after the current hour: its first day, begun before it, is marked
/// `from` its first step, so its range and rain are said to be the rest of the day's. It ends where its
/// last step's window does: a last day it does not reach the end of is left out, as its "range" would
/// be a morning's or a night's hour or two, and its rain half a day's.
enum DailyCoverage {
    /// `days` in date order; `firstStep` the series' first time; `reach` where its last step's window
    /// ends; `offset` the days' seconds east of UTC.
    static func covered(_ days: [DailyForecast], firstStep: Date, reach: Date, offset: Double) -> [DailyForecast] {
        guard var first = days.first else { return days }
        var out = days
        if let start = dayStart(first.date, offset: offset), firstStep > start {
            first.from = firstStep
            out[0] = first
        }
        if out.count > 1, let last = out.last, let start = dayStart(last.date, offset: offset),
            reach < start.addingTimeInterval(86400)
        {
            out.removeLast()
        }
        return out
    }

    /// Local midnight of `date` (`YYYY-MM-DD`) at `offset` seconds east of UTC.
    static func dayStart(_ date: String, offset: Double) -> Date? {
        UTCTime.parse(date + "T00:00:00Z").map { $0.addingTimeInterval(-offset) }
    }
}

extension DailyForecast {
    /// One step of a series folded into its day: its temperatures widen the day's range, its condition
    /// stands if it is worse than the day's so far (`WMOCode.severity`: a day with one thunderstorm is
    /// a thunderstorm day), its precipitation is added. nil leaves that part of the day as it is.
    mutating func include(minC lo: Double?, maxC hi: Double?, weatherCode code: Int?, precipitationMm amount: Double?) {
        if let lo { minC = min(minC ?? .infinity, lo) }
        if let hi { maxC = max(maxC ?? -.infinity, hi) }
        if let code, weatherCode.map({ WMOCode.severity(code) > WMOCode.severity($0) }) ?? true { weatherCode = code }
        if let amount { precipitationMm = (precipitationMm ?? 0) + amount }
    }
}
