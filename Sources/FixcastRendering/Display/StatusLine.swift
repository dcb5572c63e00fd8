import FixcastCore
import FixcastText
import FoundationEssentials

/// One status-bar line from the last stored reading (`fixcast line`, CONTRACT.md "Status bars"): the
/// `--format` codes of wttr.in where they mean the same, plus fixcast's `%a`, `%A`, `%r`.
///
/// Pure: the reading, the time and the options are passed in. A reading older than twice
/// `trigger.periodic_min` is stale (`~` before the text, class `stale`): `run` takes one at least every
/// `periodic_min`, so missing two in a row means it is not running or cannot get weather. So is one
/// whose weather was marked stale (served from the store because a fetch failed). Otherwise the
/// class is `ok`. No reading, or a reading without a position, is `no-fix`. Place names pass
/// `TerminalText.name` and `BarMarkup.inert` here, in every output mode; the modes only escape for
/// their own syntax (`StatusLineOutput`).
public struct StatusLine: Sendable, Hashable {
    /// The codes and the default, as `--help` lists them.
    public static let defaultFormat = "%l %c %t %w"
    /// The most columns `%l` takes in the line ("…" where cut; the tooltip keeps it whole): a bar is
    /// for the weather, and a 58-letter Welsh name or 30 ideographs filled tmux's 60-column
    /// `status-right` (README's setting) alone. 32 leaves the default line within 60.
    public static let placeColumns = 32

    public var text: String
    /// A longer, multi-line description (waybar's tooltip).
    public var tooltip: String
    /// CSS classes for waybar: `ok` or `stale` (or `no-fix` alone), `rain-ahead`, `alert-<severity>`.
    public var classes: [String]
    /// One word for waybar's `format-icons` (`alt`): the condition's kind, or `no-fix`.
    public var alt: String
    /// The condition symbol and temperature alone (i3blocks' short text).
    public var shortText: String
    /// The most severe active alert, for i3blocks' colour.
    public var alertSeverity: AlertSeverity?
    public var stale: Bool
    public var noFix: Bool

    public init(
        reading: Reading?, format: String = defaultFormat, now: Date, options: DisplayOptions, periodicMin: Double
    ) {
        let labels = options.labels
        guard var reading, reading.position != nil else {
            text = labels.noFixShort
            tooltip = reading == nil ? labels.noReadingStored : labels.noFixShort
            classes = ["no-fix"]
            alt = "no-fix"
            shortText = text
            alertSeverity = nil
            stale = false
            noFix = true
            return
        }
        // An alert that has expired since the reading is not shown, as on the live screen's banner: a
        // bar asks every few seconds, and `run` may take the next reading half an hour later.
        reading.alerts = reading.alerts.map { $0.aged(to: now, stale: $0.stale) }
        // Its days as of now: `%S`/`%s` after midnight are the new day's sunrise and sunset.
        reading.weather = reading.weather.map { WeatherDayShift.shown($0, at: now) }
        let age = now.timeIntervalSince(reading.time)
        // Weather the reading was given from the store because a fetch failed is stale however new
        // the reading is: `run` without network stores a reading every periodic_min over old weather.
        // A reading stamped ahead of the clock is of an age not known (`ClockStep`): stale too.
        stale =
            age > 2 * periodicMin * 60 || reading.weather?.stale == true
            || ClockStep.isAhead(secondsAgo: Int(clamping: age, to: Int.min...Int.max))
        noFix = false
        let fields = StatusLineFields(reading: reading, now: now, options: options)
        let body = StatusLineFormat.expand(format, fields)
        text = (stale ? "~" : "") + body
        alertSeverity = reading.alerts?.maxSeverity
        var classes: [String] = []
        classes.append(stale ? "stale" : "ok")
        if !fields.rainAhead.isEmpty { classes.append("rain-ahead") }
        if let s = alertSeverity { classes.append("alert-" + s.rawValue) }
        self.classes = classes
        alt = fields.conditionKind
        shortText = StatusLineFormat.expand("%c %t", fields)
        let tooltipLines = [
            "%l", "%C, %t (" + labels.feelsLike + " %f)", labels.humidity + " %h · " + labels.wind + " %w", "%a", "%A",
        ]
        var whole = fields
        whole.placeColumns = nil
        var lines = tooltipLines.map { StatusLineFormat.expand($0, whole) }.filter { !$0.isEmpty }
        // The weather's own age when it is not the reading's ("open-meteo · updated 24 h ago · cached · stale").
        if let w = reading.weather, w.stale { lines.append(ReadingParts(options: options, now: now).freshnessLine(w)) }
        tooltip = lines.joined(separator: "\n")
    }
}

/// Each format code's text for one reading; "" for `%A` and `%r` when there is nothing to say, the
/// display's "—" for an unknown value.
struct StatusLineFields {
    let reading: Reading
    let now: Date
    let options: DisplayOptions
    /// `%l`'s budget in columns (`StatusLine.placeColumns`); nil: the whole name (the tooltip).
    var placeColumns: Int? = StatusLine.placeColumns

    var units: DisplayUnits { DisplayUnits(options.units) }
    var current: CurrentConditions? { reading.weather?.current }

    var place: String {
        if let name = reading.place?.name {
            // A bar reads markup in a place name as its own (`BarMarkup`): a name's `#(` must not run.
            // Cut after: the inert twins are wide characters, whole ones. A right-to-left name is
            // isolated (`BidiIsolate`) for waybar, whose Pango would reorder the weather around it; a
            // terminal's line drops the isolates (`Console`).
            let clean = BarMarkup.inert(TerminalText.name(name))
            if !clean.isEmpty {
                return BidiIsolate.wrap(placeColumns.map { TextColumns.truncate(clean, to: $0) } ?? clean)
            }
        }
        guard let c = reading.position?.coordinate else { return DisplayUnits.unknown }
        return NumberText.fixed(c.lat, decimals: 2) + "," + NumberText.fixed(c.lon, decimals: 2)
    }

    var conditionText: String {
        current?.weatherCode.flatMap { WMOCode.description($0, language: options.language) } ?? DisplayUnits.unknown
    }

    var conditionSymbol: String { current?.weatherCode.map(ConditionSymbol.symbol) ?? "" }
    var conditionKind: String { current?.weatherCode.map(ConditionSymbol.kind) ?? "unknown" }

    /// wttr.in's arrow (the way the wind blows, from `wind_dir_deg`, where it comes from) and the speed.
    var wind: String {
        let speed = units.speed(current?.windSpeedMps)
        guard let from = current?.windDirDeg, from.isFinite else { return speed }
        let arrows = ["↓", "↙", "←", "↖", "↑", "↗", "→", "↘"]
        return arrows[Int((CompassDegrees.folded(from) / 45).rounded()) % 8] + speed
    }

    func sun(_ rising: Bool) -> String {
        let today = reading.weather?.today
        switch today?.daylight {
        case .polarDay?: return options.labels.polarDay
        case .polarNight?: return options.labels.polarNight
        case nil: break
        }
        guard let t = rising ? today?.sunrise : today?.sunset else { return DisplayUnits.unknown }
        return DisplayTime.clock(t, options.utcOffset)
    }

    var age: String {
        options.labels.age(seconds: Int(clamping: now.timeIntervalSince(reading.time), to: Int.min...Int.max))
    }

    /// `⚠ 2 severe`: how many alerts are active and the most severe; "" when none. `~⚠ 2 severe` when
    /// they are the last answer served because the source failed (as the live screen's banner says
    /// "stale"): a warning cancelled since would otherwise pass for one in force.
    var alerts: String {
        guard let report = reading.alerts, !report.active.isEmpty,
            let worst = report.maxSeverity
        else { return "" }
        return (report.stale ? "~" : "") + "⚠ \(report.active.count) " + options.labels.severityWord(worst)
    }

    /// `rain in 45 min`: the reading's ahead forecast's rain, counted from now (the forecast was made
    /// with the reading; one stamped after now, by a clock set back, counts from when it was made);
    /// "" when no rain is ahead, or its time has passed (the forecast says no more).
    var rainAhead: String {
        guard let ahead = reading.ahead, let rain = ahead.rain,
            let left = Int(
                checked: (Double(rain.inMin) * 60 - max(0, now.timeIntervalSince(ahead.madeAt))) / 60,
                rounding: .toNearestOrAwayFromZero), left >= 0
        else { return "" }
        return options.language.pick("rain in \(left) min", "дождь через \(left) мин", "\(left) 分钟后有雨")
    }

    func value(_ code: Character) -> String? {
        switch code {
        case "c": return conditionSymbol
        case "C": return conditionText
        case "t": return units.temperature(current?.temperatureC)
        case "f": return units.temperature(current?.feelsLikeC)
        case "h": return units.percent(current?.humidityPct)
        case "w": return wind
        case "l": return place
        case "p": return units.precipitation(current?.precipitationMm)
        case "P": return units.pressure(current?.pressureHpa)
        case "S": return sun(true)
        case "s": return sun(false)
        case "a": return age
        case "A": return alerts
        case "r": return rainAhead
        case "%": return "%"
        default: return nil
        }
    }
}

/// The `--format` language: `%` and one letter; `%%` is a percent sign; any other `%x` (and a `%`
/// at the end) is kept as written, as wttr.in does.
enum StatusLineFormat {
    static let codes: [Character] = ["c", "C", "t", "f", "h", "w", "l", "p", "P", "S", "s", "a", "A", "r", "%"]

    /// Whether `format` shows `code` (`%%a` is a percent sign and an "a", not the age).
    static func uses(_ code: Character, in format: String) -> Bool {
        var chars = format.makeIterator()
        while let ch = chars.next() {
            guard ch == "%" else { continue }
            guard let next = chars.next() else { return false }
            if next == code { return true }
        }
        return false
    }

    static func expand(_ format: String, _ fields: StatusLineFields) -> String {
        // The format comes from the command line or a bar's config and the values from outside: neither
        // may carry control characters to the bar (`TerminalText.line`), but for the isolates `%l`'s
        // cleaned name is given (`BidiIsolate`), which are fixcast's own and balanced.
        var out = ""
        var text = ""
        var chars = format.makeIterator()
        while let ch = chars.next() {
            guard ch == "%" else {
                text.append(ch)
                continue
            }
            guard let code = chars.next() else {
                text.append("%")
                break
            }
            if code == "l" {
                out += TerminalText.line(text) + fields.place
                text = ""
            } else if let v = fields.value(code) {
                text += v
            } else {
                text.append("%")
                text.append(code)
            }
        }
        return out + TerminalText.line(text)
    }
}

/// wttr.in's condition symbols for the WMO codes, and one word per kind for waybar's `alt`.
enum ConditionSymbol {
    static func kind(_ code: Int) -> String {
        switch code {
        case 0: return "clear"
        case 1, 2: return "partly-cloudy"
        case 3: return "cloudy"
        case 45, 48: return "fog"
        case 51...57: return "drizzle"
        case 61...67, 80...82: return "rain"
        case 71...77, 85, 86: return "snow"
        case 95...99: return "thunder"
        default: return "unknown"
        }
    }

    static func symbol(_ code: Int) -> String {
        switch kind(code) {
        case "clear": return "☀️"
        case "partly-cloudy": return "⛅️"
        case "cloudy": return "☁️"
        case "fog": return "🌫"
        case "drizzle": return "🌦"
        case "rain": return "🌧"
        case "snow": return "🌨"
        case "thunder": return "⛈"
        default: return "✨"
        }
    }
}
