import FixcastText
import FoundationEssentials

// The JSON form of a reading (CONTRACT.md "A reading, as JSON"): fixed key order, SI units,
// UTC times with `Z`, `null` for the unknown. The same form is what the store keeps, so a stored
// reading reads back exactly as it was printed.

extension Reading {
    public func json(language: Language) -> JSONValue {
        .object([
            ("id", .string(id)),
            ("time", .string(UTCTime.format(time))),
            ("trigger", .string(trigger.rawValue)),
            ("position", position.map { $0.json(at: time) } ?? .null),
            ("place", place?.json ?? .null),
            ("weather", weather.map { $0.json(language: language) } ?? .null),
            ("alerts", alerts?.json ?? .null),
            ("ahead", ahead.map { $0.json(language: language) } ?? .null),
            (
                "errors",
                .array(
                    errors.map {
                        .object([("component", .string($0.component.rawValue)), ("message", .string($0.message))])
                    })
            ),
        ])
    }

    /// Reads back what `json(language:)` wrote; nil when the shape is not a reading.
    public init?(json: JSONValue) {
        guard let timeText = json["time"]?.stringValue, let time = UTCTime.parse(timeText),
            let trig = json["trigger"]?.stringValue.flatMap(Trigger.init(rawValue:))
        else { return nil }
        var position: Position?
        if let p = json["position"], !p.isNull {
            guard let decoded = Position(json: p, readingTime: time) else { return nil }
            position = decoded
        }
        var place: Place?
        if let p = json["place"], !p.isNull { place = Place(json: p) }
        var weather: WeatherReport?
        if let w = json["weather"], !w.isNull { weather = WeatherReport(json: w) }
        var alerts: AlertReport?
        if let a = json["alerts"], !a.isNull { alerts = AlertReport(json: a) }
        var ahead: AheadForecast?
        if let a = json["ahead"], !a.isNull { ahead = AheadForecast(json: a) }
        let errors: [ReadingIssue] = (json["errors"]?.arrayValue ?? []).compactMap {
            guard let c = $0["component"]?.stringValue.flatMap(Component.init(rawValue:)),
                let m = $0["message"]?.stringValue
            else { return nil }
            return ReadingIssue(component: c, message: m)
        }
        self.init(
            time: time, trigger: trig, position: position, place: place, weather: weather, alerts: alerts,
            ahead: ahead, errors: errors, id: json["id"]?.stringValue)
    }
}

extension Position {
    /// `age_s` is measured at `now` (the reading's time).
    public func json(at now: Date) -> JSONValue {
        .object([
            ("lat", .double(coordinate.lat)),
            ("lon", .double(coordinate.lon)),
            ("alt_m", .number(altitudeM)),
            ("speed_mps", .number(speedMps)),
            ("track_deg", .number(trackDeg)),
            ("mode", .string(mode?.rawValue)),
            ("fix_time", .string(fixTime.map(UTCTime.format))),
            ("source", .string(source.rawValue)),
            ("age_s", .int(ageSeconds(at: now))),
            ("eph_m", .number(horizontalErrorM)),
            ("satellites_used", .number(satellitesUsed)),
        ])
    }

    public init?(json p: JSONValue, readingTime: Date) {
        guard let lat = p["lat"]?.doubleValue, let lon = p["lon"]?.doubleValue,
            let coordinate = Coordinate(lat: lat, lon: lon),
            let source = p["source"]?.stringValue.flatMap(PositionSource.init(rawValue:))
        else { return nil }
        let age = Double(p["age_s"]?.intValue ?? 0)
        self.init(
            coordinate: coordinate, altitudeM: p["alt_m"]?.doubleValue, speedMps: p["speed_mps"]?.doubleValue,
            trackDeg: p["track_deg"]?.doubleValue, mode: p["mode"]?.stringValue.flatMap(FixMode.init(rawValue:)),
            fixTime: p["fix_time"]?.stringValue.flatMap(UTCTime.parse),
            obtainedAt: readingTime.addingTimeInterval(-age),
            source: source, horizontalErrorM: p["eph_m"]?.doubleValue, satellitesUsed: p["satellites_used"]?.intValue)
    }
}

extension Place {
    public var json: JSONValue {
        .object([
            ("name", .string(name)),
            ("region", .string(region)),
            ("country", .string(country)),
            ("country_code", .string(countryCode)),
            ("source", .string(source.rawValue)),
        ])
    }

    public init?(json p: JSONValue) {
        guard let name = p["name"]?.stringValue,
            let source = p["source"]?.stringValue.flatMap(PlaceSource.init(rawValue:))
        else { return nil }
        self.init(
            name: name, region: p["region"]?.stringValue, country: p["country"]?.stringValue,
            countryCode: p["country_code"]?.stringValue, source: source)
    }
}

extension PlaceMatch {
    /// One element of `search --json` (CONTRACT.md).
    public var json: JSONValue {
        .object([
            ("name", .string(name)),
            ("region", .string(region)),
            ("country", .string(country)),
            ("country_code", .string(countryCode)),
            ("lat", .double(coordinate.lat)),
            ("lon", .double(coordinate.lon)),
            ("population", .number(population)),
            ("source", .string(source.rawValue)),
        ])
    }
}

extension WeatherReport {
    public func json(language: Language) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("provider", .string(provider.rawValue)),
            ("fetched_at", .string(UTCTime.format(fetchedAt))),
            ("cached", .bool(cached)),
            ("stale", .bool(stale)),
            ("lat", .double(coordinate.lat)),
            ("lon", .double(coordinate.lon)),
            ("current", current.json(language: language)),
            ("today", today?.json ?? .null),
            ("derived", .array(derived.map { .string($0.rawValue) })),
            ("daily", .array(daily.map { $0.json(language: language) })),
        ]
        // Alerts a weather provider itself sent, only when there are some (no provider fixcast asks
        // sends any today). An always-empty list beside the reading's own `alerts` read as "no alerts
        // here" where the official source said otherwise, or covered nothing (CONTRACT.md: never so).
        if !alerts.isEmpty { members.append(("alerts", .array(alerts.map(\.json)))) }
        return .object(members)
    }

    /// The key the weather cache keeps `utcOffsetS` under, beside the reading JSON's members.
    public static let storedUTCOffsetKey = "utc_offset_s"

    /// The JSON the store's weather cache keeps: the reading JSON's weather object and `utcOffsetS`.
    public func storedJSON(language: Language) -> JSONValue {
        guard case .object(var members) = json(language: language) else { return json(language: language) }
        if let utcOffsetS { members.append((Self.storedUTCOffsetKey, .int(utcOffsetS))) }
        return .object(members)
    }

    public init?(json w: JSONValue) {
        guard let provider = w["provider"]?.stringValue.flatMap(WeatherProviderID.init(rawValue:)),
            let fetchedAt = w["fetched_at"]?.stringValue.flatMap(UTCTime.parse),
            let lat = w["lat"]?.doubleValue, let lon = w["lon"]?.doubleValue,
            let coordinate = Coordinate(lat: lat, lon: lon),
            let c = w["current"]
        else { return nil }
        let current = CurrentConditions(
            temperatureC: c["temperature_c"]?.doubleValue, feelsLikeC: c["feels_like_c"]?.doubleValue,
            humidityPct: c["humidity_pct"]?.doubleValue, dewPointC: c["dew_point_c"]?.doubleValue,
            pressureHpa: c["pressure_hpa"]?.doubleValue, windSpeedMps: c["wind_speed_mps"]?.doubleValue,
            windGustMps: c["wind_gust_mps"]?.doubleValue, windDirDeg: c["wind_dir_deg"]?.doubleValue,
            precipitationMm: c["precipitation_mm"]?.doubleValue, cloudCoverPct: c["cloud_cover_pct"]?.doubleValue,
            weatherCode: c["weather_code"]?.intValue)
        var today: TodaySummary?
        if let t = w["today"], !t.isNull {
            today = TodaySummary(
                minC: t["min_c"]?.doubleValue, maxC: t["max_c"]?.doubleValue,
                sunrise: t["sunrise"]?.stringValue.flatMap(UTCTime.parse),
                sunset: t["sunset"]?.stringValue.flatMap(UTCTime.parse),
                daylight: t["daylight"]?.stringValue.flatMap(PolarDaylight.init(rawValue:)),
                from: t["from"]?.stringValue.flatMap(UTCTime.parse))
        }
        let daily: [DailyForecast] = (w["daily"]?.arrayValue ?? []).compactMap { d in
            guard let date = d["date"]?.stringValue else { return nil }
            return DailyForecast(
                date: date, minC: d["min_c"]?.doubleValue, maxC: d["max_c"]?.doubleValue,
                weatherCode: d["weather_code"]?.intValue, precipitationMm: d["precipitation_mm"]?.doubleValue,
                from: d["from"]?.stringValue.flatMap(UTCTime.parse))
        }
        let alerts: [WeatherAlert] = (w["alerts"]?.arrayValue ?? []).compactMap { a in
            guard let title = a["title"]?.stringValue else { return nil }
            return WeatherAlert(
                title: title, severity: a["severity"]?.stringValue,
                starts: a["starts"]?.stringValue.flatMap(UTCTime.parse),
                ends: a["ends"]?.stringValue.flatMap(UTCTime.parse), source: a["source"]?.stringValue)
        }
        self.init(
            provider: provider, fetchedAt: fetchedAt, coordinate: coordinate, cached: w["cached"]?.boolValue ?? false,
            stale: w["stale"]?.boolValue ?? false, current: current, today: today, daily: daily, alerts: alerts)
        // Kept in `DerivedValue` order; a name this version does not know is left out.
        let names = Set((w["derived"]?.arrayValue ?? []).compactMap { $0.stringValue })
        derived = DerivedValue.allCases.filter { names.contains($0.rawValue) }
        utcOffsetS = WeatherReport.utcOffset(w[WeatherReport.storedUTCOffsetKey]?.intValue)
    }
}

extension CurrentConditions {
    public func json(language: Language) -> JSONValue {
        .object([
            ("temperature_c", .number(temperatureC)),
            ("feels_like_c", .number(feelsLikeC)),
            ("humidity_pct", .whole(humidityPct)),
            ("dew_point_c", .number(dewPointC)),
            ("pressure_hpa", .number(pressureHpa)),
            ("wind_speed_mps", .number(windSpeedMps)),
            ("wind_gust_mps", .number(windGustMps)),
            ("wind_dir_deg", .wholeBearing(windDirDeg)),
            ("precipitation_mm", .number(precipitationMm)),
            ("cloud_cover_pct", .whole(cloudCoverPct)),
            ("weather_code", .number(weatherCode)),
            ("description", .string(weatherCode.flatMap { WMOCode.description($0, language: language) })),
        ])
    }
}

extension WeatherReport {
    /// `from` (`DailyForecast.from`, `TodaySummary.from`): a member only where the day is covered from a
    /// time on, so that a whole day's JSON stays CONTRACT.md's shape.
    static func fromMember(_ from: Date?) -> [(String, JSONValue)] {
        from.map { [("from", .string(UTCTime.format($0)))] } ?? []
    }
}

extension TodaySummary {
    public var json: JSONValue {
        .object(
            [
                ("min_c", .number(minC)),
                ("max_c", .number(maxC)),
                ("sunrise", .string(sunrise.map(UTCTime.format))),
                ("sunset", .string(sunset.map(UTCTime.format))),
                ("daylight", .string(daylight?.rawValue)),
            ] + WeatherReport.fromMember(from))
    }
}

extension DailyForecast {
    public func json(language: Language) -> JSONValue {
        .object(
            [
                ("date", .string(date)),
                ("min_c", .number(minC)),
                ("max_c", .number(maxC)),
                ("weather_code", .number(weatherCode)),
                ("description", .string(weatherCode.flatMap { WMOCode.description($0, language: language) })),
                ("precipitation_mm", .number(precipitationMm)),
            ] + WeatherReport.fromMember(from))
    }
}

extension WeatherAlert {
    public var json: JSONValue {
        .object([
            ("title", .string(title)),
            ("severity", .string(severity)),
            ("starts", .string(starts.map(UTCTime.format))),
            ("ends", .string(ends.map(UTCTime.format))),
            ("source", .string(source)),
        ])
    }
}
