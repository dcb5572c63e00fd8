import FixcastCore
import FixcastText
import FoundationEssentials

/// What one case came to: decoded (a value came out) or refused (a typed error), and every house rule
/// the decoded value breaks. A trap, a hang or runaway memory is not a result: the process dies, and the
/// case written before it ran is the reproducer.
public struct FuzzCaseResult: Sendable, Equatable {
    public enum Outcome: String, Sendable { case decoded, refused }
    public var outcome: Outcome
    public var violations: [String]
}

/// The house rules, checked on what a decoder gave: no control character in text that is shown, no
/// number that is not finite or outside its physical range, no time outside 1970–2200, caps held.
struct FuzzCheck {
    var violations: [String] = []

    mutating func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition, violations.count < 20 { violations.append(message()) }
    }

    func result(_ outcome: FuzzCaseResult.Outcome) -> FuzzCaseResult {
        FuzzCaseResult(outcome: outcome, violations: violations)
    }

    /// Text a terminal will show: no C0 or C1 control, DEL, line or paragraph separator (newlines only
    /// where `newlines`), and at most `maxBytes` of UTF-8.
    mutating func controlFree(_ text: String?, _ field: String, newlines: Bool = false, maxBytes: Int = .max) {
        guard let text else { return }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if newlines, v == 0x0A { continue }
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                require(false, "\(field) holds the control character U+\(String(v, radix: 16, uppercase: true))")
                return
            }
        }
        require(text.utf8.count <= maxBytes, "\(field) is \(text.utf8.count) bytes, over its cap of \(maxBytes)")
    }

    /// Text `TerminalText` would print raw: every scalar it calls unsafe (bidi controls too).
    mutating func terminalSafe(_ text: String?, _ field: String) {
        guard let text else { return }
        if let bad = text.unicodeScalars.first(where: { $0 != "\n" && TerminalText.isUnsafe($0) }) {
            require(false, "\(field) holds the unsafe character U+\(String(bad.value, radix: 16, uppercase: true))")
        }
    }

    mutating func finite(_ value: Double?, _ field: String) {
        guard let value else { return }
        require(value.isFinite, "\(field) is \(value)")
    }

    mutating func within(_ value: Double?, _ range: ClosedRange<Double>, _ field: String) {
        guard let value else { return }
        require(value.isFinite && range.contains(value), "\(field) is \(value), outside \(range)")
    }

    mutating func within(_ value: Double?, _ range: WeatherValueRanges.Range, _ field: String) {
        within(value, range.lower...range.upper, field)
    }

    /// A time fixcast believes: 1970 up to 2200 (`PlausibleTime`).
    mutating func plausible(_ date: Date?, _ field: String) {
        guard let date else { return }
        require(
            PlausibleTime.contains(date.timeIntervalSince1970),
            "\(field) is \(date.timeIntervalSince1970) s, outside 1970–2200")
    }

    mutating func weatherCode(_ code: Int?, _ field: String) {
        guard let code else { return }
        require(WMOCode.description(code, language: .en) != nil, "\(field) \(code) is not a WMO code")
    }

    /// Every value of a weather report against its range, every time against 1970–2200, every sentence
    /// safe to show; and the report survives the store's JSON and back.
    mutating func report(_ r: WeatherReport) {
        let c = r.current
        within(c.temperatureC, WeatherValueRanges.temperature, "temperature_c")
        within(c.feelsLikeC, WeatherValueRanges.feelsLike, "feels_like_c")
        within(c.humidityPct, WeatherValueRanges.humidity, "humidity_pct")
        within(c.dewPointC, WeatherValueRanges.temperature, "dew_point_c")
        within(c.pressureHpa, WeatherValueRanges.pressure, "pressure_hpa")
        within(c.windSpeedMps, WeatherValueRanges.wind, "wind_speed_mps")
        within(c.windGustMps, WeatherValueRanges.gust, "wind_gust_mps")
        if let d = c.windDirDeg { require(d >= 0 && d < 360, "wind_dir_deg is \(d)") }
        within(c.precipitationMm, WeatherValueRanges.precipitation, "precipitation_mm")
        within(c.cloudCoverPct, WeatherValueRanges.cloudCover, "cloud_cover_pct")
        weatherCode(c.weatherCode, "weather_code")
        if let t = r.today {
            within(t.minC, WeatherValueRanges.temperature, "today.min_c")
            within(t.maxC, WeatherValueRanges.temperature, "today.max_c")
            plausible(t.sunrise, "today.sunrise")
            plausible(t.sunset, "today.sunset")
            plausible(t.from, "today.from")
        }
        for (i, d) in r.daily.enumerated() {
            require(
                d.date.utf8.count == 10 && UTCTime.parse(d.date) != nil,
                "daily[\(i)].date is \(d.date.debugDescription)")
            // A local date: a day on either side of the 1970–2200 window (a time's date at its offset).
            if let day = UTCTime.parse(d.date)?.timeIntervalSince1970 {
                require(day >= -86_400 && day < PlausibleTime.latestSeconds + 86_400, "daily[\(i)].date is \(d.date)")
            }
            within(d.minC, WeatherValueRanges.temperature, "daily[\(i)].min_c")
            within(d.maxC, WeatherValueRanges.temperature, "daily[\(i)].max_c")
            within(d.precipitationMm, WeatherValueRanges.dailyPrecipitation, "daily[\(i)].precipitation_mm")
            weatherCode(d.weatherCode, "daily[\(i)].weather_code")
            plausible(d.from, "daily[\(i)].from")
        }
        if let offset = r.utcOffsetS {
            require(WeatherReport.utcOffset(offset) == offset, "utc_offset_s is \(offset)")
        }
        for problem in r.valueProblems {
            terminalSafe(problem.message, "the value problem \(problem.field)")
            require(problem.message.count < 1000, "a value problem's message is \(problem.message.count) characters")
        }
        let text = r.storedJSON(language: .en).serialized()
        terminalSafe(text, "the report's JSON")
        if let back = try? JSONValue.parse(text) {
            require(WeatherReport(json: back) != nil, "the report's JSON does not read back")
        } else {
            require(false, "the report's JSON does not parse")
        }
    }

    /// An alert as the decoders promise it: one-line fields without control characters, capped; times
    /// in 1970–2200; a footprint within its limits.
    mutating func alert(_ a: Alert, _ field: String) {
        require(!a.id.isEmpty, "\(field).id is empty")
        controlFree(a.id, "\(field).id", maxBytes: TextCap.alertID)
        controlFree(a.event, "\(field).event", maxBytes: TextCap.alertLine)
        for (name, text) in [
            ("headline", a.headline), ("certainty", a.certainty), ("urgency", a.urgency), ("area", a.area),
            ("url", a.url),
        ] {
            controlFree(text, "\(field).\(name)", maxBytes: TextCap.alertLine)
        }
        controlFree(a.description, "\(field).description", newlines: true, maxBytes: TextCap.alertParagraph)
        controlFree(a.instruction, "\(field).instruction", newlines: true, maxBytes: TextCap.alertParagraph)
        for alias in a.aliases { controlFree(alias, "\(field).alias", maxBytes: TextCap.alertID) }
        require(a.aliases.count <= AlertIdentity.maxReferences, "\(field) has \(a.aliases.count) aliases")
        plausible(a.onset, "\(field).onset")
        plausible(a.expires, "\(field).expires")
        plausible(a.ends, "\(field).ends")
        if case .polygons(let polygons)? = a.footprint {
            var vertices = 0
            for ring in polygons.joined() {
                vertices += ring.count
                for p in ring {
                    require(
                        p.lat.isFinite && abs(p.lat) <= 90 && p.lon.isFinite && abs(p.lon) <= 540,
                        "\(field) has the vertex \(p)")
                }
            }
            require(
                polygons.count <= 200 && vertices <= 50_000,
                "\(field)'s footprint is \(polygons.count) polygons, \(vertices) vertices")
        }
    }

    /// A place's texts are capped where they enter (`TextCap.placeName`).
    mutating func place(name: String, region: String?, country: String?, countryCode: String?, _ field: String) {
        require(!name.isEmpty, "\(field).name is empty")
        for (key, text) in [("name", name), ("region", region), ("country", country), ("country_code", countryCode)] {
            if let text {
                require(text.utf8.count <= TextCap.placeName, "\(field).\(key) is \(text.utf8.count) bytes")
            }
        }
    }
}

extension FuzzCheck {
    /// One case's verdict: decoded when `decode` returns (with the rules it checked on what came out),
    /// refused when it throws its typed error (which `refused` may judge too).
    static func judge<E: Error>(
        _ decode: (inout FuzzCheck) throws(E) -> Void, refused: (E, inout FuzzCheck) -> Void = { _, _ in }
    ) -> FuzzCaseResult {
        var check = FuzzCheck()
        do throws(E) {
            try decode(&check)
            return check.result(.decoded)
        } catch {
            refused(error, &check)
            return check.result(.refused)
        }
    }
}

/// A cheap, stable hash of a case's bytes, for the choices a runner makes (which point to ask about,
/// which time it is): the same bytes always run the same way, so a saved case reproduces.
func fnv(_ bytes: [UInt8]) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes.prefix(4096) { h = (h ^ UInt64(b)) &* 0x0100_0000_01B3 }
    return h ^ UInt64(bytes.count)
}
