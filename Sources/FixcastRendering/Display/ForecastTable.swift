import FixcastCore
import FoundationEssentials

/// The human output of `fixcast forecast`: one row a day with date, description, min, max and
/// precipitation, columns aligned (numbers flush right), in the display units and language.
public enum ForecastTable {
    /// - Parameter title: a first line, usually the place (`Berlin, Germany`); nil for none.
    public static func render(
        _ days: [DailyForecast], title: String? = nil, options: DisplayOptions = DisplayOptions()
    ) -> String {
        let parts = ReadingParts(options: options, now: Date(timeIntervalSince1970: 0))
        let labels = parts.labels
        let units = parts.units
        var out: [String] = []
        if let title { out.append(title) }
        guard !days.isEmpty else { return (out + [labels.noForecast]).joined(separator: "\n") + "\n" }
        let header = [labels.date, labels.weather, labels.minHeader, labels.maxHeader, labels.precipitationHeader]
        let rows: [[String]] = days.map { day in
            let weekday = DisplayTime.days(ofDate: day.date).map { labels.weekdays[DisplayTime.weekdayIndex(days: $0)] }
            return [
                day.date + (weekday.map { " " + $0 } ?? "") + parts.fromClock(day.from),
                parts.description(code: day.weatherCode) ?? DisplayUnits.unknown,
                units.temperature(day.minC),
                units.temperature(day.maxC),
                units.precipitation(day.precipitationMm),
            ]
        }
        out += TextColumns.table(header: header, rows: rows, rightAligned: [2, 3, 4], rule: true)
        return out.joined(separator: "\n") + "\n"
    }
}
