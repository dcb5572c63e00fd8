import FixcastCore
import FixcastText
import FoundationEssentials

/// How `fixcast line` prints a `StatusLine` for each bar: plain text (tmux, polybar, anything), waybar's
/// custom-module JSON (one object a line; `return-type: json`), or i3blocks' lines (full text, short
/// text, colour). The text is already clean of control and bidi characters (`StatusLine`); each mode
/// escapes only for its own syntax.
public enum StatusLineOutput: Sendable, Hashable {
    case plain, waybar, i3blocks

    /// i3blocks' colour: red for an extreme or severe alert, orange for a moderate one, grey when the
    /// line is stale or has no fix; none otherwise (the bar's own colour).
    static func colour(_ line: StatusLine) -> String? {
        switch line.alertSeverity {
        case .extreme?, .severe?: return "#FF5555"
        case .moderate?: return "#FFB86C"
        default: return line.stale || line.noFix ? "#888888" : nil
        }
    }

    /// The output for one line, ending in a newline. `persistent`: for a bar that keeps reading
    /// (`line --watch`); i3blocks then takes each line it reads as the block's whole text (its
    /// `interval=persist`), so only the full text is printed, never the short text or the colour.
    public func render(_ line: StatusLine, persistent: Bool = false) -> String {
        switch self {
        case .plain:
            return line.text + "\n"
        case .waybar:
            // waybar reads text and tooltip as Pango markup: a place called "<b>" must stay text.
            let json: JSONValue = .object([
                ("text", .string(Self.pangoEscaped(line.text))),
                ("tooltip", .string(Self.pangoEscaped(line.tooltip))),
                ("class", .array(line.classes.map { .string($0) })),
                ("alt", .string(line.alt)),
            ])
            return json.serialized() + "\n"
        case .i3blocks where persistent:
            return line.text + "\n"
        case .i3blocks:
            // The short text is for a crowded bar: the condition symbol and the temperature.
            let short = line.noFix ? line.text : (line.stale ? "~" : "") + line.shortText
            return line.text + "\n" + short + "\n" + (Self.colour(line).map { $0 + "\n" } ?? "")
        }
    }

    static func pangoEscaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }
}

extension StatusLineOutput {
    /// The first moment after `now` at which the line for `reading` can read otherwise though no new
    /// reading is stored, so `line --watch` wakes then and at no other time: the reading turns stale
    /// (`~`); an alert the output shows expires; the rain ahead the output shows passes (waybar's class
    /// goes) or, when `%r` is shown, its minutes count down; when the age is shown (`%a`, or waybar's tooltip, which always holds it), the
    /// next whole minute of it (a day, past two); when `%S`/`%s` is shown, the next day's start in the
    /// weather's calendar (`WeatherDayShift`: that day's sunrise and sunset); a reading stamped ahead of
    /// the clock, when the clock comes within `ClockStep`'s minute of it (no longer stale). nil when
    /// nothing can change before the next reading. One second after each moment, so the line is past it
    /// when drawn.
    public func nextChange(of reading: Reading?, format: String, now: Date, periodicMin: Double) -> Date? {
        guard let reading, reading.position != nil else { return nil }
        var moments: [Date] = []
        if reading.weather?.stale != true {
            moments.append(reading.time.addingTimeInterval(2 * periodicMin * 60))
        }
        if ClockStep.isAhead(reading.time, of: now) {
            moments.append(reading.time.addingTimeInterval(-ClockStep.toleranceS))
        }
        if StatusLineFormat.uses("S", in: format) || StatusLineFormat.uses("s", in: format),
            let weather = reading.weather
        {
            moments.append(WeatherDayShift.nextChange(of: weather, after: now))
        }
        // Alerts show in waybar's class and i3blocks' colour, and in any text with `%A`.
        if self != .plain || StatusLineFormat.uses("A", in: format) {
            for alert in reading.alerts?.active ?? [] {
                if let end = alert.expires ?? alert.ends { moments.append(end) }
            }
        }
        if self == .waybar || StatusLineFormat.uses("a", in: format) {
            let age = max(0, now.timeIntervalSince(reading.time))
            let step: Double = age >= Double(DisplayLabels.ageInDaysFromS) ? 86_400 : 60
            moments.append(reading.time.addingTimeInterval(((age / step).rounded(.down) + 1) * step))
        }
        // The rain ahead shows in waybar's class, and in any text with `%r`.
        if self == .waybar || StatusLineFormat.uses("r", in: format), let ahead = reading.ahead, let rain = ahead.rain {
            let elapsed = max(0, now.timeIntervalSince(ahead.madeAt))
            let left = ((Double(rain.inMin) * 60 - elapsed) / 60).rounded(.toNearestOrAwayFromZero)
            if left >= 0 {
                // "rain in N min" turns N − 1 half a minute before N whole minutes are left; past 0 it goes.
                let counting = StatusLineFormat.uses("r", in: format)
                let at = Double(rain.inMin) * 60 - (counting ? left - 0.5 : -0.5) * 60
                moments.append(ahead.madeAt.addingTimeInterval(at))
            }
        }
        return moments.filter { $0 > now }.min()?.addingTimeInterval(1)
    }
}
