import FixcastText
import FoundationEssentials

// The reading's `ahead` object (CONTRACT.md "Weather ahead"), and `ahead --json`: fixed key order,
// SI units, UTC times with `Z`, `null` for the unknown. Interpolated values are rounded to what a
// forecast can tell (0.1 °C, 0.1 m/s, 0.1 km, 1°, 5 decimals of a degree ≈ 1 m) so the output does
// not pretend to more; the same form is what the store keeps, so it reads back as it was printed.

extension AheadForecast {
    public func json(language: Language) -> JSONValue {
        .object([
            ("basis", .string(basis.rawValue)),
            ("off_route", .bool(offRoute)),
            ("made_at", .string(UTCTime.format(madeAt))),
            ("stale", .bool(stale)),
            (
                "from",
                .object([
                    ("lat", .number(DecimalRounding.rounded(from.coordinate.lat, places: 5))),
                    ("lon", .number(DecimalRounding.rounded(from.coordinate.lon, places: 5))),
                    ("fix_time", .string(from.fixTime.map(UTCTime.format))),
                ])
            ),
            ("speed_mps", .number(speedMps.map { DecimalRounding.rounded($0, places: 1) })),
            ("speed_source", .string(speedSource?.rawValue)),
            (
                "route",
                route.map {
                    .object([
                        ("name", .string($0.name)),
                        ("remaining_km", .number(DecimalRounding.rounded($0.remainingKm, places: 1))),
                    ])
                } ?? .null
            ),
            ("samples", .array(samples.map { $0.json(language: language) })),
            (
                "rain",
                rain.map {
                    .object([
                        ("in_min", .int($0.inMin)), ("at_km", .number(DecimalRounding.rounded($0.atKm, places: 1))),
                        ("place", .string($0.place)), ("mm_h", .number(DecimalRounding.rounded($0.mmH, places: 1))),
                    ])
                } ?? .null
            ),
            (
                "worst",
                .object([
                    (
                        "min_temperature_c",
                        .number(worst.minTemperatureC.map { DecimalRounding.rounded($0, places: 1) })
                    ),
                    ("max_gust_mps", .number(worst.maxGustMps.map { DecimalRounding.rounded($0, places: 1) })),
                    (
                        "max_precipitation_mm_h",
                        .number(worst.maxPrecipitationMmH.map { DecimalRounding.rounded($0, places: 1) })
                    ),
                ])
            ),
            (
                "alerts",
                .array(
                    alerts.map {
                        .object([
                            ("id", .string($0.id)), ("event", .string($0.event)), ("severity", .string($0.severity)),
                            ("in_min", .int($0.inMin)), ("at_km", .number(DecimalRounding.rounded($0.atKm, places: 1))),
                            ("place", .string($0.place)),
                        ])
                    })
            ),
        ])
    }

    /// Reads back what `json(language:)` wrote; nil when the shape is not an ahead object.
    public init?(json j: JSONValue) {
        guard let basis = j["basis"]?.stringValue.flatMap(AheadBasis.init(rawValue:)),
            let made = j["made_at"]?.stringValue.flatMap(UTCTime.parse),
            let lat = j["from"]?["lat"]?.doubleValue, let lon = j["from"]?["lon"]?.doubleValue,
            let origin = Coordinate(lat: lat, lon: lon), let sampleList = j["samples"]?.arrayValue
        else { return nil }
        var samples: [Sample] = []
        for s in sampleList {
            guard let sample = Sample(json: s) else { return nil }
            samples.append(sample)
        }
        var route: Route?
        if let r = j["route"], !r.isNull, let km = r["remaining_km"]?.doubleValue {
            route = Route(name: r["name"]?.stringValue, remainingKm: km)
        }
        var rain: Rain?
        if let r = j["rain"], !r.isNull, let inMin = r["in_min"]?.intValue, let atKm = r["at_km"]?.doubleValue,
            let mm = r["mm_h"]?.doubleValue
        {
            rain = Rain(inMin: inMin, atKm: atKm, place: r["place"]?.stringValue, mmH: mm)
        }
        let w = j["worst"]
        let alerts: [AlertAhead] = (j["alerts"]?.arrayValue ?? []).compactMap {
            guard let id = $0["id"]?.stringValue, let event = $0["event"]?.stringValue,
                let severity = $0["severity"]?.stringValue, let inMin = $0["in_min"]?.intValue,
                let atKm = $0["at_km"]?.doubleValue
            else { return nil }
            return AlertAhead(
                id: id, event: event, severity: severity, inMin: inMin, atKm: atKm, place: $0["place"]?.stringValue)
        }
        self.init(
            basis: basis, offRoute: j["off_route"]?.boolValue ?? false, madeAt: made,
            from: Origin(coordinate: origin, fixTime: j["from"]?["fix_time"]?.stringValue.flatMap(UTCTime.parse)),
            speedMps: j["speed_mps"]?.doubleValue,
            speedSource: j["speed_source"]?.stringValue.flatMap(SpeedSource.init(rawValue:)), route: route,
            samples: samples, rain: rain,
            worst: Worst(
                minTemperatureC: w?["min_temperature_c"]?.doubleValue, maxGustMps: w?["max_gust_mps"]?.doubleValue,
                maxPrecipitationMmH: w?["max_precipitation_mm_h"]?.doubleValue),
            alerts: alerts, stale: j["stale"]?.boolValue ?? false)
    }
}

extension AheadForecast.Sample {
    public func json(language: Language) -> JSONValue {
        let r: (Double, Int) -> Double = { DecimalRounding.rounded($0, places: $1) }
        return .object(
            [
                ("minutes", .int(minutes)),
                ("eta", .string(UTCTime.format(eta))),
                ("distance_km", .number(r(distanceKm, 1))),
                ("lat", .number(r(coordinate.lat, 5))),
                ("lon", .number(r(coordinate.lon, 5))),
                ("place", .string(place)),
            ] + conditions.jsonFields(language: language))
    }

    public init?(json s: JSONValue) {
        guard let minutes = s["minutes"]?.intValue, let eta = s["eta"]?.stringValue.flatMap(UTCTime.parse),
            let km = s["distance_km"]?.doubleValue, let lat = s["lat"]?.doubleValue, let lon = s["lon"]?.doubleValue,
            let c = Coordinate(lat: lat, lon: lon)
        else { return nil }
        self.init(
            minutes: minutes, eta: eta, distanceKm: km, coordinate: c, place: s["place"]?.stringValue,
            conditions: AheadConditions(json: s))
    }
}

extension AheadConditions {
    /// A sample's weather fields of the `ahead` object (CONTRACT.md), in its order.
    func jsonFields(language: Language) -> [(String, JSONValue)] {
        let r: (Double, Int) -> Double = { DecimalRounding.rounded($0, places: $1) }
        return [
            ("temperature_c", .number(temperatureC.map { r($0, 1) })),
            ("precipitation_mm_h", .number(precipitationMmH.map { r($0, 1) })),
            ("precipitation_probability_pct", .whole(precipitationProbabilityPct)),
            ("weather_code", .number(weatherCode)),
            ("description", .string(weatherCode.flatMap { WMOCode.description($0, language: language) })),
            ("wind_speed_mps", .number(windSpeedMps.map { r($0, 1) })),
            ("wind_gust_mps", .number(windGustMps.map { r($0, 1) })),
            ("wind_dir_deg", .wholeBearing(windDirDeg)),
            ("headwind_mps", .number(headwindMps.map { r($0, 1) })),
            ("crosswind_mps", .number(crosswindMps.map { r($0, 1) })),
        ]
    }

    /// The weather fields of one sample of the `ahead` object (a missing one is unknown).
    init(json s: JSONValue) {
        self.init(
            temperatureC: s["temperature_c"]?.doubleValue, precipitationMmH: s["precipitation_mm_h"]?.doubleValue,
            precipitationProbabilityPct: s["precipitation_probability_pct"]?.doubleValue,
            weatherCode: s["weather_code"]?.intValue, windSpeedMps: s["wind_speed_mps"]?.doubleValue,
            windGustMps: s["wind_gust_mps"]?.doubleValue, windDirDeg: s["wind_dir_deg"]?.doubleValue,
            headwindMps: s["headwind_mps"]?.doubleValue, crosswindMps: s["crosswind_mps"]?.doubleValue)
    }
}
