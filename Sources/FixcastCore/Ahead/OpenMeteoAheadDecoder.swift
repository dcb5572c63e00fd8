import FixcastText
import FoundationEssentials

/// Why the ahead forecast answer cannot be used; `message` is the one sentence for a person.
public struct AheadForecastDecodeError: Error, Sendable, Equatable {
    public let detail: String

    public init(_ detail: String) { self.detail = detail }

    public var message: String {
        "ahead: the forecast service's answer could not be read (\(ErrorText.clause(detail))); the last forecast ahead is kept, and it is asked again at the next refresh."
    }
}

/// Reads Open-Meteo's multi-location answer: a JSON array with one object per requested location,
/// in request order (a single location comes back as one object), each with its own
/// `utc_offset_seconds` (so a sample across a time-zone border gets its own) and `hourly` arrays.
///
/// Strict about shape (the array's length must be the number of locations asked for, every column
/// as long as `hourly.time`, times ascending), lenient about values: a `null` or out-of-range
/// value is that hour's unknown, never zero. Units follow `hourly_units`.
public enum OpenMeteoAheadDecoder {
    /// 4 MiB: 96 locations × 13 hours × 8 variables is about 150 kB; an answer far larger is not one
    /// fixcast asked for.
    public static let maxBytes = 4 << 20
    /// 384 hours (16 days, Open-Meteo's longest forecast) per location at most.
    public static let maxHours = 384

    public static func decode(_ body: [UInt8], locations: Int) throws(AheadForecastDecodeError) -> [AheadHourlySeries] {
        guard body.count <= maxBytes else {
            throw AheadForecastDecodeError("the answer is \(body.count) bytes, more than \(maxBytes)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(body) } catch { throw AheadForecastDecodeError(error.summary) }
        let items: [JSONValue]
        if let array = json.arrayValue {
            items = array
        } else if json.objectValue != nil {
            if json["error"]?.boolValue == true {
                throw AheadForecastDecodeError("it says: \(json["reason"]?.stringValue ?? "an error without a reason")")
            }
            items = [json]
        } else {
            throw AheadForecastDecodeError("the body is neither an array nor an object")
        }
        guard items.count == locations else {
            throw AheadForecastDecodeError("\(items.count) locations came back for the \(locations) asked for")
        }
        var out: [AheadHourlySeries] = []
        for (k, item) in items.enumerated() {
            do {
                out.append(try series(item))
            } catch {
                throw AheadForecastDecodeError("location \(k + 1): \(error.detail)")
            }
        }
        return out
    }

    static func series(_ item: JSONValue) throws(WeatherDecodeError) -> AheadHourlySeries {
        guard item.objectValue != nil else { throw WeatherDecodeError("not an object") }
        guard let sent = try JSONRead.int(item["utc_offset_seconds"], "utc_offset_seconds") else {
            throw WeatherDecodeError("utc_offset_seconds is missing")
        }
        // The current weather's rule (±18 h), which holds for Int.min too.
        guard let offset = WeatherReport.utcOffset(sent) else {
            throw WeatherDecodeError("utc_offset_seconds \(sent) is not an offset")
        }
        guard let hourly = try JSONRead.object(item["hourly"], "hourly") else {
            throw WeatherDecodeError("no \"hourly\" block")
        }
        let units = try JSONRead.object(item["hourly_units"], "hourly_units")
        guard let timeColumn = try JSONRead.array(hourly["time"], "hourly.time") else {
            throw WeatherDecodeError("hourly.time is missing")
        }
        guard timeColumn.count <= maxHours else {
            throw WeatherDecodeError("\(timeColumn.count) hours, more than \(maxHours)")
        }
        var times: [Date] = []
        for (i, t) in timeColumn.enumerated() {
            guard let text = try JSONRead.string(t, "hourly.time[\(i)]"),
                let parsed = UTCTime.parse(text, localOffsetS: offset),
                let utc = PlausibleTime.date(parsed.timeIntervalSince1970)
            else {
                throw WeatherDecodeError("hourly.time[\(i)] is not a time")
            }
            if let last = times.last, utc <= last {
                throw WeatherDecodeError("hourly.time[\(i)] is not after the hour before it")
            }
            times.append(utc)
        }

        func column(_ key: String) throws(WeatherDecodeError) -> [JSONValue]? {
            guard let col = try JSONRead.array(hourly[key], "hourly.\(key)") else { return nil }
            guard col.count == times.count else {
                throw WeatherDecodeError("hourly.\(key) has \(col.count) values for \(times.count) hours")
            }
            return col
        }
        func numbers(_ key: String, _ quantity: WeatherUnits.Quantity?, _ range: WeatherValueRanges.Range)
            throws(WeatherDecodeError) -> [Double?]
        {
            guard let col = try column(key) else { return Array(repeating: nil, count: times.count) }
            var unit: String?
            if quantity != nil {
                guard let u = try JSONRead.string(units?[key], "hourly_units.\(key)") else {
                    throw WeatherDecodeError("hourly_units.\(key) is missing")
                }
                unit = u
            }
            var out: [Double?] = []
            out.reserveCapacity(col.count)
            for (i, v) in col.enumerated() {
                let path = "hourly.\(key)[\(i)]"
                guard var x = try JSONRead.number(v, path) else {
                    out.append(nil)
                    continue
                }
                if let quantity, let unit { x = try WeatherUnits.toSI(x, unit: unit, quantity: quantity, path: path) }
                out.append(x.isFinite && range.contains(x) ? x : nil)
            }
            return out
        }

        var codes = [Int?](repeating: nil, count: times.count)
        if let col = try column("weather_code") {
            for (i, v) in col.enumerated() {
                let code = try JSONRead.int(v, "hourly.weather_code[\(i)]")
                codes[i] = code.flatMap { (0...99).contains($0) ? $0 : nil }
            }
        }
        let directions = try numbers("wind_direction_10m", nil, WeatherValueRanges.directionAsSent).map {
            $0.map(CompassDegrees.folded)
        }
        return AheadHourlySeries(
            times: times,
            temperatureC: try numbers("temperature_2m", .temperature, WeatherValueRanges.temperature),
            precipitationMmH: try numbers("precipitation", .precipitation, WeatherValueRanges.precipitation),
            precipitationProbabilityPct: try numbers("precipitation_probability", nil, WeatherValueRanges.humidity),
            weatherCode: codes,
            windSpeedMps: try numbers("wind_speed_10m", .speed, WeatherValueRanges.wind),
            windGustMps: try numbers("wind_gusts_10m", .speed, WeatherValueRanges.gust),
            windDirDeg: directions)
    }
}
