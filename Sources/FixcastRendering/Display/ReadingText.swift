import FixcastCore
import FixcastText
import FoundationEssentials

/// The human output of `fixcast now`: a reading as plain lines of text (`--json` prints ReadingJSON instead).
///
/// Pure: the same reading, time and options always give the same text. Everything unknown is "—";
/// cached and stale data say so, with their age, because a fresh-looking old forecast was the
/// seed's whole complaint.
public enum ReadingText {
    /// - Parameter colour: colour the alert severities (only when stdout is a terminal).
    public static func render(
        _ reading: Reading, now: Date, options: DisplayOptions = DisplayOptions(), colour: Bool = false
    ) -> String {
        let parts = ReadingParts(options: options, now: now)
        let labels = parts.labels
        var lines: [String] = []
        lines.append(parts.placeLine(reading.place))
        if let position = reading.position {
            lines.append(parts.positionLine(position))
        } else {
            lines.append(labels.noPosition)
        }
        if let weather = reading.weather.map({ WeatherDayShift.shown($0, at: now) }) {
            lines.append("")
            lines.append(parts.conditionsLine(weather.current))
            lines.append(parts.humidityLine(weather.current))
            lines.append(parts.windLine(weather.current))
            lines.append(parts.precipitationLine(weather.current))
            lines.append(parts.todayLine(weather.today))
            if !weather.daily.isEmpty {
                lines.append("")
                lines.append(labels.nextDays + ":")
                lines += parts.dayLines(weather.daily).map { "  " + $0 }
            }
            if !weather.alerts.isEmpty {
                lines.append("")
                lines.append(labels.alerts + ":")
                lines += weather.alerts.map { "  " + parts.alertLine($0) }
            }
            lines.append("")
            lines.append(parts.freshnessLine(weather))
        } else {
            lines.append("")
            lines.append(labels.noWeather)
        }
        // Alert lines are cleaned inside `AlertDisplay` (their text before their colour codes).
        let alertLines = AlertDisplay.readingLines(reading.alerts, now: now, options: options, colour: colour)
        var cleaned = lines.map(TerminalText.line)
        if !alertLines.isEmpty {
            cleaned.append("")
            cleaned += alertLines
        }
        lines = []
        if !reading.errors.isEmpty {
            lines.append("")
            lines.append(labels.errors + ":")
            lines += reading.errors.map { "  " + ReadingParts.issueLine($0) }
        }
        // Alert titles and problem texts come from outside: a line break in one must not split
        // the display, and no control character may reach the terminal (TerminalText).
        return (cleaned + lines.map(TerminalText.line)).joined(separator: "\n") + "\n"
    }
}
