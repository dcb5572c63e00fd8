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
                day.date + (weekday.map { " " + $0 } ?? ""),
                parts.description(code: day.weatherCode) ?? DisplayUnits.unknown,
                units.temperature(day.minC),
                units.temperature(day.maxC),
                units.precipitation(day.precipitationMm),
            ]
        }
        let widths = (0..<header.count).map { col in
            ([header] + rows).map { TextColumns.width($0[col]) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let text = cells.enumerated().map { col, cell in
                col < 2 ? TextColumns.padRight(cell, to: widths[col]) : TextColumns.padLeft(cell, to: widths[col])
            }
            return text.joined(separator: "  ")
        }
        out.append(line(header))
        out.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "))
        out += rows.map(line)
        return out.joined(separator: "\n") + "\n"
    }
}
