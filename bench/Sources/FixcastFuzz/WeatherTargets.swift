import FixcastCore
import FixcastText
import FoundationEssentials

/// The weather decoders: Open-Meteo (current and daily), its multi-location ahead forecast, MET Norway's
/// locationforecast and OpenWeatherMap.
extension FuzzTargets {
    /// Where a case asks for weather: ordinary, on the antimeridian and at the poles.
    static let coordinates: [Coordinate] = [
        (52.52, 13.41), (55.75, 12.5), (60.1, 11.0), (39.53, -119.81), (0, 180), (0, -180), (90, 0), (-90, 0),
        (-33.9, 18.4), (71.0, -179.99),
    ].compactMap { Coordinate(lat: $0.0, lon: $0.1) }

    /// The times the seeds were fetched around (their first ISO time), and a few others: "now" decides
    /// which step is current and which day is today.
    static func fetchTimes(_ seeds: [[UInt8]]) -> [Date] {
        var times = ["2026-01-30T12:00:00Z", "2026-07-27T10:00:00Z", "1970-01-01T00:00:00Z", "2199-12-31T00:00:00Z"]
            .compactMap(UTCTime.parse)
        for seed in seeds {
            let text = String(decoding: seed.prefix(200_000), as: UTF8.self)
            guard let start = text.firstRange(of: "\"20") else { continue }
            let candidate = String(text[text.index(after: start.lowerBound)...].prefix(16))
            if let t = UTCTime.parse(candidate) { times.append(t.addingTimeInterval(3 * 3600)) }
        }
        return times
    }

    /// A weather decoder's target: JSON mutations of its recorded answers, decoded at one of `coordinates`
    /// and `fetchTimes` (chosen by the case's hash), and the report held to the house rules; `errorText`,
    /// the provider's reading of an error body, is asked of every case too.
    static func weatherTarget(
        name: String, about: String, seedNames: [String],
        errorText: @escaping @Sendable ([UInt8]) -> String? = { _ in nil },
        decode:
            @escaping @Sendable (_ bytes: [UInt8], _ seeds: [[UInt8]], _ hash: UInt64, Coordinate, Date)
            throws(WeatherDecodeError) -> WeatherReport
    ) -> FuzzTarget {
        jsonTarget(name: name, about: about, seedNames: seedNames) { seeds in
            let times = fetchTimes(seeds)
            return { bytes in
                let h = fnv(bytes)
                return FuzzCheck.judge { (check) throws(WeatherDecodeError) in
                    if let text = errorText(bytes) {
                        check.require(text.count <= 200, "the error text is \(text.count) characters")
                    }
                    check.report(
                        try decode(
                            bytes, seeds, h, coordinates[Int(h % UInt64(coordinates.count))],
                            times[Int(h / 7 % UInt64(times.count))]))
                }
            }
        }
    }

    static let openMeteo = weatherTarget(
        name: "open-meteo", about: "Open-Meteo /v1/forecast (current, daily, hourly) and its error body",
        seedNames: [
            "open-meteo-forecast.json", "open-meteo-forecast-minimal.json", "open-meteo-hourly-berlin-all.json",
            "open-meteo-hourly-toronto.json", "open-meteo-forecast-fahrenheit-kmh-inch.json",
            "open-meteo-error-docs-example.txt",
        ], errorText: OpenMeteoDecoder.errorReason
    ) { bytes, _, _, coordinate, fetchedAt throws(WeatherDecodeError) in
        try OpenMeteoDecoder.decode(bytes, coordinate: coordinate, fetchedAt: fetchedAt)
    }

    static let metNorway = weatherTarget(
        name: "metno", about: "MET Norway locationforecast 2.0 compact", seedNames: ["metno-compact.json"]
    ) { bytes, _, _, coordinate, fetchedAt throws(WeatherDecodeError) in
        try MetNorwayDecoder.decode(bytes, coordinate: coordinate, fetchedAt: fetchedAt)
    }

    static let openWeatherMap = weatherTarget(
        name: "owm", about: "OpenWeatherMap /weather and /forecast, and its error body",
        seedNames: ["owm-current.json", "owm-forecast.json", "owm-error-401.json"],
        errorText: OpenWeatherMapDecoder.errorMessage
    ) { bytes, seeds, h, coordinate, fetchedAt throws(WeatherDecodeError) in
        // A case that looks like a forecast is read beside the recorded current weather, any other case as
        // the current weather beside the recorded forecast (or none).
        func holds(_ key: String, _ body: [UInt8]) -> Bool {
            String(decoding: body.prefix(100_000), as: UTF8.self).contains("\"\(key)\"")
        }
        let isForecast = holds("list", bytes)
        return try OpenWeatherMapDecoder.decode(
            current: isForecast ? (seeds.first { holds("main", $0) } ?? []) : bytes,
            forecast: isForecast ? bytes : (h % 3 == 0 ? nil : seeds.first { holds("list", $0) }),
            coordinate: coordinate, fetchedAt: fetchedAt)
    }

    static let openMeteoAhead = jsonTarget(
        name: "open-meteo-ahead", about: "Open-Meteo's multi-location hourly answer (weather ahead)",
        seedNames: [
            "open-meteo-ahead-multi-location.json", "open-meteo-hourly-berlin-all.json",
            "open-meteo-hourly-toronto.json",
        ]
    ) { _ in
        { bytes in
            let h = fnv(bytes)
            // The locations asked for: as many as the answer holds, or one more (a short answer).
            var locations = (try? JSONValue.parse(bytes))?.arrayValue?.count ?? 1
            if h % 8 == 0 { locations += 1 }
            return FuzzCheck.judge { (check) throws(AheadForecastDecodeError) in
                let series = try OpenMeteoAheadDecoder.decode(bytes, locations: locations)
                check.require(series.count == locations, "\(series.count) series for \(locations) locations")
                for (k, s) in series.enumerated() { check.aheadSeries(s, "location \(k)", bearing: Double(h % 360)) }
            } refused: { error, check in
                check.terminalSafe(error.message, "the ahead decode error")
            }
        }
    }
}

extension FuzzCheck {
    /// One location's hours: ascending times in 1970–2200, every value finite and in its range, and the
    /// values at times between the hours (what the samples ahead read) finite too.
    mutating func aheadSeries(_ s: AheadHourlySeries, _ field: String, bearing: Double) {
        let n = s.times.count
        let columns = [
            s.temperatureC.count, s.precipitationMmH.count, s.precipitationProbabilityPct.count, s.weatherCode.count,
            s.windSpeedMps.count, s.windGustMps.count, s.windDirDeg.count,
        ]
        guard columns.allSatisfy({ $0 == n }) else {
            require(false, "\(field) has columns of \(columns) values for \(n) hours")
            return
        }
        for (i, t) in s.times.enumerated() {
            plausible(t, "\(field).time[\(i)]")
            if i > 0 { require(t > s.times[i - 1], "\(field).time[\(i)] is not after the hour before") }
            within(s.temperatureC[i], WeatherValueRanges.temperature, "\(field).temperature[\(i)]")
            within(s.precipitationMmH[i], WeatherValueRanges.precipitation, "\(field).precipitation[\(i)]")
            within(s.precipitationProbabilityPct[i], 0...100, "\(field).precipitation_probability[\(i)]")
            within(s.windSpeedMps[i], WeatherValueRanges.wind, "\(field).wind_speed[\(i)]")
            within(s.windGustMps[i], WeatherValueRanges.gust, "\(field).wind_gust[\(i)]")
            within(s.windDirDeg[i], 0...360, "\(field).wind_dir[\(i)]")
            if let code = s.weatherCode[i] {
                require((0...99).contains(code), "\(field).weather_code[\(i)] is \(code)")
            }
        }
        guard let first = s.times.first, let last = s.times.last else { return }
        var etas = [first, last, first.addingTimeInterval(-1), last.addingTimeInterval(1)]
        for i in stride(from: 1, to: n, by: max(1, n / 8)) {
            etas.append(s.times[i - 1].addingTimeInterval(s.times[i].timeIntervalSince(s.times[i - 1]) / 3))
        }
        for eta in etas {
            guard let c = s.conditions(at: eta, travelBearingDeg: bearing) else { continue }
            for (name, v) in [
                ("temperature", c.temperatureC), ("precipitation", c.precipitationMmH), ("wind", c.windSpeedMps),
                ("gust", c.windGustMps), ("direction", c.windDirDeg), ("headwind", c.headwindMps),
                ("crosswind", c.crosswindMps),
            ] {
                finite(v, "\(field) at an ETA: \(name)")
            }
        }
    }
}
