import FixcastCore
import FixcastText
import FoundationEssentials

/// The pieces of text a reading is shown with, shared by `ReadingText` (`fixcast now`) and
/// `LiveScreen` (`fixcast run`), so both say the same thing the same way.
package struct ReadingParts {
    let options: DisplayOptions
    let now: Date

    package init(options: DisplayOptions, now: Date) {
        self.options = options
        self.now = now
    }

    var units: DisplayUnits { options.formatter }
    package var labels: DisplayLabels { options.labels }

    /// `Berlin, Berlin, Germany`; the same name twice is said once. Each name comes from outside
    /// (Nominatim, Open-Meteo, the offline table), so it is cleaned and capped (`TerminalText.name`).
    package func placeLine(_ place: Place?) -> String {
        guard let place else { return labels.unknownPlace }
        var parts = [TerminalText.name(place.name)]
        for extra in [place.region, place.country] {
            if let e = extra.map({ TerminalText.name($0) }), !e.isEmpty, !parts.contains(e) { parts.append(e) }
        }
        return parts.joined(separator: ", ")
    }

    /// `52.5200° N, 13.4138° E`.
    static func coordinate(_ c: Coordinate) -> String {
        var text = ""
        appendCoordinate(c, to: &text)
        return text
    }

    /// `coordinate`, appended to `text` (the live screen's position line, at every fix: one string
    /// grown in place instead of eight made and joined).
    static func appendCoordinate(_ c: Coordinate, to text: inout String) {
        NumberText.appendFixed(abs(c.lat), decimals: 4, to: &text)
        text += c.lat < 0 ? "° S, " : "° N, "
        NumberText.appendFixed(abs(c.lon), decimals: 4, to: &text)
        text += c.lon < 0 ? "° W" : "° E"
    }

    /// `3D fix, 9 sats`, appended to `text` (see `appendCoordinate`).
    func appendFixQuality(mode: FixMode?, satellites: Int?, to text: inout String) {
        if let mode { text += mode == .threeD ? "3D " : "2D " }
        text += labels.fix
        if let satellites {
            text += ", "
            text += String(satellites)
            text += " "
            text += labels.satellites
        }
    }

    /// Where a position came from and how old it is.
    func positionSource(_ p: Position) -> String {
        var text = ""
        appendPositionSource(p, to: &text)
        return text
    }

    /// `positionSource`, appended to `text` (see `appendCoordinate`).
    func appendPositionSource(_ p: Position, to text: inout String) {
        switch p.source {
        case .gps:
            text += "GPS "
            appendFixQuality(mode: p.mode, satellites: p.satellitesUsed, to: &text)
            text += ", "
            text += labels.age(seconds: p.secondsSinceObtained(at: now))
        case .lastKnown:
            text += labels.lastKnownPosition
            text += ", "
            text += labels.age(seconds: p.secondsSinceObtained(at: now))
        case .manual:
            text += labels.fixedPosition
        }
    }

    func positionLine(_ p: Position) -> String {
        Self.coordinate(p.coordinate) + " · " + positionSource(p)
    }

    /// The WMO description in the display language; the code itself when the table has no words for it.
    func description(code: Int?) -> String? {
        guard let code else { return nil }
        return WMOCode.description(code, language: options.language) ?? labels.weatherCode(code)
    }

    /// `Overcast, 3 °C, feels like 0 °C`.
    func conditionsLine(_ c: CurrentConditions) -> String {
        var parts: [String] = []
        if let d = description(code: c.weatherCode) { parts.append(d) }
        parts.append(units.temperature(c.temperatureC))
        parts.append(labels.feelsLike + " " + units.temperature(c.feelsLikeC))
        return parts.joined(separator: ", ")
    }

    func humidityLine(_ c: CurrentConditions) -> String {
        [
            labels.humidity + " " + units.percent(c.humidityPct),
            labels.dewPoint + " " + units.temperature(c.dewPointC),
            labels.pressure + " " + units.pressure(c.pressureHpa),
        ].joined(separator: " · ")
    }

    /// `Wind 4.2 m/s WSW (250°), gusts 9.0 m/s`.
    func windLine(_ c: CurrentConditions) -> String {
        var text = labels.wind + " " + units.speed(c.windSpeedMps)
        if let point = CompassPoint.name(degrees: c.windDirDeg, language: options.language), let deg = c.windDirDeg {
            text += " \(point) (\(NumberText.fixed(deg, decimals: 0))°)"
        }
        return text + ", " + labels.gusts + " " + units.speed(c.windGustMps)
    }

    func precipitationLine(_ c: CurrentConditions) -> String {
        labels.precipitation + " " + units.precipitation(c.precipitationMm) + " · "
            + labels.cloudCover + " " + units.percent(c.cloudCoverPct)
    }

    /// `Today: min -1 °C, max 5 °C · sunrise 07:45 · sunset 16:30`; on a day without either,
    /// `Today: min -12 °C, max -8 °C · polar night`.
    func todayLine(_ today: TodaySummary?) -> String {
        let range =
            labels.today + fromClock(today?.from) + ": " + labels.min + " " + units.temperature(today?.minC) + ", "
            + labels.max + " "
            + units.temperature(today?.maxC)
        switch today?.daylight {
        case .polarDay?: return range + " · " + labels.polarDay
        case .polarNight?: return range + " · " + labels.polarNight
        case nil: break
        }
        let sunrise = today?.sunrise.map { DisplayTime.clock($0, options.utcOffset) } ?? DisplayUnits.unknown
        let sunset = today?.sunset.map { DisplayTime.clock($0, options.utcOffset) } ?? DisplayUnits.unknown
        return range + " · " + labels.sunrise + " " + sunrise + " · " + labels.sunset + " " + sunset
    }

    /// ` from 18:00` for a day the forecast covers only from then on (`DailyForecast.from`), else empty.
    func fromClock(_ from: Date?) -> String {
        from.map { " " + labels.from + " " + DisplayTime.clock($0, options.utcOffset) } ?? ""
    }

    /// `Fri 30` from `2026-01-30` (the date text itself if it is malformed).
    func dayLabel(_ date: String) -> String {
        guard let days = DisplayTime.days(ofDate: date) else { return date }
        return labels.weekdays[DisplayTime.weekdayIndex(days: days)] + " " + String(DisplayTime.dayOfMonth(days: days))
    }

    /// `-1 … 5 °C`.
    func range(_ minC: Double?, _ maxC: Double?) -> String {
        units.temperatureNumber(minC) + " … " + units.temperatureNumber(maxC) + " " + units.temperatureSymbol
    }

    /// One line per day, columns aligned: `Fri 30  Overcast          -1 … 5 °C   0.2 mm`.
    func dayLines(_ days: [DailyForecast]) -> [String] {
        let rows = days.map { day in
            (
                dayLabel(day.date) + fromClock(day.from), description(code: day.weatherCode) ?? DisplayUnits.unknown,
                range(day.minC, day.maxC),
                units.precipitation(day.precipitationMm)
            )
        }
        let w0 = rows.map { TextColumns.width($0.0) }.max() ?? 0
        let w1 = Swift.min(22, rows.map { TextColumns.width($0.1) }.max() ?? 0)
        let w2 = rows.map { TextColumns.width($0.2) }.max() ?? 0
        let w3 = rows.map { TextColumns.width($0.3) }.max() ?? 0
        return rows.map {
            TextColumns.padRight($0.0, to: w0) + "  " + TextColumns.padRight($0.1, to: w1) + "  "
                + TextColumns.padLeft($0.2, to: w2) + "  " + TextColumns.padLeft($0.3, to: w3)
        }
    }

    /// `! Storm warning (severe), until Sat 31 12:00 — DWD`.
    func alertLine(_ alert: WeatherAlert) -> String {
        var text = "! " + alert.title
        if let severity = alert.severity, !severity.isEmpty { text += " (\(severity))" }
        if let ends = alert.ends {
            let days = DisplayTime.localDays(ends, options.utcOffset)
            text +=
                ", " + labels.until + " " + labels.weekdays[DisplayTime.weekdayIndex(days: days)] + " "
                + String(DisplayTime.dayOfMonth(days: days)) + " "
                + DisplayTime.clock(ends, options.utcOffset)
        }
        if let source = alert.source, !source.isEmpty { text += " — " + source }
        return text
    }

    /// `open-meteo · updated 3 min ago · cached · stale: could not refresh`: never hides the age.
    package func freshnessLine(_ weather: WeatherReport) -> String {
        let age = Int(clamping: now.timeIntervalSince(weather.fetchedAt), to: Int.min...Int.max, rounding: .down)
        var parts = [weather.provider.rawValue, labels.updated(labels.age(seconds: age))]
        if weather.cached { parts.append(labels.cached) }
        if weather.stale { parts.append(labels.stale) }
        return parts.joined(separator: " · ")
    }

    /// `! weather: open-meteo answered 503; …`: the message as it is, since every message starts with
    /// its component (`UserFacingError.message`); nothing here reads the text to decide.
    static func issueLine(_ issue: ReadingIssue) -> String {
        "! " + issue.message
    }
}
