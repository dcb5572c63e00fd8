import FixcastCore
import FixcastText
import FoundationEssentials

/// The human forms of the weather ahead: the headline ("Rain in about 45 min, 63 km ahead, near
/// Kyritz"), what it follows, the table of `fixcast ahead`, and the live screen's compact block.
/// Pure; every outside text (a place, a route's name) is cleaned for one terminal line.
public enum AheadDisplay {
    /// The headline: rain ahead when a sample reaches `ahead.rain_mm_h`, else that none does up to
    /// the last sample whose rain is known (`lastSampleWithKnownRain`), else that the rain ahead is
    /// unknown; "(stale)" when it is the last forecast kept after a failed refresh.
    public static func headline(_ f: AheadForecast, options: DisplayOptions) -> String {
        let u = options.formatter
        let w = AheadWords(options.language)
        var text: String
        if let rain = f.rain {
            text = w.rainIn(w.duration(minutes: rain.inMin))
            if f.basis != .stationary, rain.atKm > 0 { text += w.ahead(u.distance(km: rain.atKm)) }
            if let place = rain.place { text += w.near(TerminalText.line(place)) }
        } else if let known = f.lastSampleWithKnownRain {
            text = w.noRain(next: w.duration(minutes: known.minutes))
        } else if !f.samples.isEmpty {
            text = w.rainUnknown
        } else {
            // The route ends here only when less than a way of it is left: a reach too short for one
            // sample (a walk's hour, a short --hours) on a long route has nothing ahead yet, no end.
            let routeLeftM = (f.route?.remainingKm ?? 0) * 1000
            text = f.basis == .route && routeLeftM < AheadSampling.shortestWayM ? w.routeEnds : w.nothingAhead
        }
        return (f.stale ? w.stale : "") + text + w.fullStop
    }

    /// "Ahead as of 15:57: ", before the headline of a forecast shown after it was made (the live
    /// screen's block, a stored one `fixcast ahead` answers with): its minutes count from then.
    public static func asOf(_ f: AheadForecast, options: DisplayOptions) -> String {
        AheadWords(options.language).asOf(DisplayTime.clock(f.madeAt, options.utcOffset))
    }

    /// One line per alert ahead, soonest first: `Wind warning (severe) in about 1 h, 85 km ahead, near
    /// Kyritz.` The event and the place are the source's and the table's texts, cleaned for one line;
    /// the severity is the word every surface uses (`AlertSeverity.word`).
    public static func alertLines(_ f: AheadForecast, options: DisplayOptions) -> [String] {
        let u = options.formatter
        let w = AheadWords(options.language)
        return f.alerts.map { a in
            let severity = (AlertSeverity(rawValue: a.severity) ?? .unknown).word(options.language)
            var text = TerminalText.line(a.event) + " (" + severity + ")"
            text += a.inMin > 0 ? w.inAbout(w.duration(minutes: a.inMin)) : w.now
            if f.basis != .stationary, a.atKm > 0 { text += w.ahead(u.distance(km: a.atKm)) }
            if let place = a.place { text += w.near(TerminalText.line(place)) }
            return text + w.fullStop
        }
    }

    /// What the samples follow and how fast: `Along "Berlin - Hamburg", 231.4 km left, at 86.8 km/h (track)`.
    public static func basisLine(_ f: AheadForecast, options: DisplayOptions) -> String {
        let u = options.formatter
        let w = AheadWords(options.language)
        var text: String
        switch f.basis {
        case .route:
            let name = f.route?.name.map { " \"" + TerminalText.line($0) + "\"" } ?? ""
            text = w.alongTheRoute + name
            if let km = f.route?.remainingKm { text += w.left(u.distance(km: km)) }
        case .course:
            text = f.offRoute ? w.offRoute : w.followingCourse
        case .stationary:
            text = w.stayingHere
        }
        if f.basis != .stationary, let v = f.speedMps {
            text += w.at(u.speed(v)) + (f.speedSource == .history ? w.learned : w.receiver)
        }
        return text + w.fullStop
    }

    /// `fixcast ahead`'s table: in, km, place, temperature, rain, wind against you, conditions.
    public static func table(_ f: AheadForecast, options: DisplayOptions) -> [String] {
        let u = options.formatter
        let w = AheadWords(options.language)
        let rows = f.samples.map { s -> [String] in
            [
                w.duration(minutes: s.minutes), NumberText.fixed(distance(s.distanceKm, options), decimals: 1),
                s.place.map(TextColumns.cellName) ?? DisplayUnits.unknown, u.temperature(s.temperatureC),
                rain(s, options), against(s.headwindMps, options),
                s.weatherCode.flatMap { WMOCode.description($0, language: options.language) } ?? DisplayUnits.unknown,
            ]
        }
        let km = options.units == .metric ? "km" : "mi"
        return TextColumns.table(
            header: w.header(distanceUnit: km), rows: rows,
            rightAligned: [0, 1, 3, 4, 5], rule: true)
    }

    /// The live screen's block: the headline, the first `maxAlerts` alerts ahead (and how many more),
    /// and the next `maxSamples` samples in aligned columns (`AheadScreenSamples`), every line within
    /// `width` columns.
    ///
    /// The headline and each alert end in where ("near Truckee"), so one too wide for the terminal is
    /// wrapped onto a second, indented line rather than cut; each such extra line takes the place of
    /// a sample (at least one stays), so the block keeps its height. A sample line gives way in its
    /// place name, then is cut.
    public static func screenLines(
        _ f: AheadForecast, options: DisplayOptions, width: Int, maxSamples: Int = 3, maxAlerts: Int = 2
    ) -> [String] {
        let w = AheadWords(options.language)
        // The block stays up until the next refresh (up to `ahead.refresh_min` later), so it says when
        // it was made: "in about 45 min" is counted from then, never passed off as from now.
        let title = asOf(f, options: options) + headline(f, options: options)
        var lines = TextColumns.wrap(title, to: width, indent: "  ", maxLines: 2)
        var extraLines = lines.count - 1
        let alerts = alertLines(f, options: options)
        for alert in alerts.prefix(maxAlerts) {
            let wrapped = TextColumns.wrap("  " + w.alertAhead + alert, to: width, indent: "    ", maxLines: 2)
            extraLines += wrapped.count - 1
            lines += wrapped
        }
        if alerts.count > maxAlerts { lines.append("  " + w.moreAlerts(alerts.count - maxAlerts)) }
        lines += AheadScreenSamples.lines(
            Array(f.samples.prefix(max(1, maxSamples - extraLines))), basis: f.basis, options: options, width: width)
        return lines.map { TextColumns.truncate($0, to: width) }
    }

    static func distance(_ km: Double, _ options: DisplayOptions) -> Double {
        options.units == .metric ? km : UnitConversion.miles(km: km)
    }

    /// `1.2 mm/h` / `0.05 in/h`.
    static func rain(_ s: AheadForecast.Sample, _ options: DisplayOptions) -> String {
        guard let mm = s.precipitationMmH, mm.isFinite else { return DisplayUnits.unknown }
        switch options.units {
        case .metric: return NumberText.fixed(mm, decimals: 1) + " mm/h"
        case .imperial: return NumberText.fixed(UnitConversion.inches(millimetres: mm), decimals: 2) + " in/h"
        }
    }

    /// The table's headwind, signed under its "against you" column: `+4.9 m/s` against, `-2.0 m/s`
    /// behind (the screen words it, `AheadScreenSamples.wind`); a wind that rounds to nothing
    /// is `0.0 m/s`, neither (the sign is taken after rounding: never "-0.0").
    static func against(_ headwind: Double?, _ options: DisplayOptions) -> String {
        guard let (speed, behind) = Self.headwind(headwind, options) else { return DisplayUnits.unknown }
        guard let behind else { return speed }
        return (behind ? "-" : "+") + speed
    }

    /// A headwind's speed as the display writes it, without a sign, and which way the wind blows once
    /// rounded: behind (a tailwind) or not, nil when it rounds to nothing; nil for no wind. One rule for
    /// the table's sign and the screen's words (`AheadScreenSamples.wind`).
    static func headwind(_ headwind: Double?, _ options: DisplayOptions) -> (speed: String, behind: Bool?)? {
        guard let v = headwind, v.isFinite else { return nil }
        let speed = options.formatter.speed(abs(v))
        guard speed.contains(where: { ("1"..."9").contains($0) }) else { return (speed, nil) }
        return (speed, v < 0)
    }
}
