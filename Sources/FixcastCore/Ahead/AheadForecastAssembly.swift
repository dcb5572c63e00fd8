import FoundationEssentials

/// Joins what the pieces decided into the reading's `ahead` object: the plan, the samples, each
/// sample's values at its ETA from its location's series (the request's `locationOfSample`), the
/// offline place names, and the summary (rain ahead, the worst). A sample whose location has no
/// series (none decoded) keeps its place and time with unknown values; nothing is made up.
///
/// The summary is the headline the store keeps and the exports write as it is, so it is kept to the
/// tenths the reading's JSON gives it (`DecimalRounding`, as `AheadJSON`): 16.6 °C everywhere, not
/// 16.6 in the JSON and 16.570396745125453 in the CSV and GPX.
public enum AheadForecastAssembly {
    public static func forecast(
        plan: AheadTrajectory.Plan, speed: TravelSpeed?, from origin: AheadForecast.Origin, madeAt: Date,
        points: [AheadSamplePoint], locationOfSample: [Int], series: [AheadHourlySeries], places: [String?],
        rainMmH: Double
    ) -> AheadForecast {
        var forecasts: [AheadSampleForecast] = []
        forecasts.reserveCapacity(points.count)
        for (i, point) in points.enumerated() {
            let k = i < locationOfSample.count ? locationOfSample[i] : -1
            let conditions =
                k >= 0 && k < series.count
                ? series[k].conditions(at: point.eta, travelBearingDeg: point.travelBearingDeg) : nil
            forecasts.append(AheadSampleForecast(point: point, conditions: conditions))
        }
        let samples = forecasts.enumerated().map { i, f in
            AheadForecast.Sample(
                minutes: f.point.minutes, eta: f.point.eta, distanceKm: f.point.distanceM / 1000,
                coordinate: f.point.coordinate, place: i < places.count ? places[i] : nil,
                conditions: f.conditions ?? AheadConditions())
        }
        let rain = Self.rain(forecasts, places: samples.map(\.place), rainMmH: rainMmH)
        let worst = AheadSummary.worst(forecasts)
        return AheadForecast(
            basis: plan.basis, offRoute: plan.offRoute, madeAt: madeAt, from: origin,
            speedMps: speed?.mps,
            speedSource: speed.map { AheadForecast.SpeedSource(rawValue: $0.source.rawValue) ?? .gps },
            route: plan.route, samples: samples, rain: rain,
            worst: AheadForecast.Worst(
                minTemperatureC: worst.minTemperatureC.map(tenths), maxGustMps: worst.maxGustMps.map(tenths),
                maxPrecipitationMmH: worst.maxPrecipitationMmH.map(tenths)))
    }

    /// "Rain ahead" at `rainMmH` over a made forecast's samples: a stored one that answers again
    /// (`AheadReuse`) is judged by the threshold in force now, as a new one would be.
    public static func rain(of samples: [AheadForecast.Sample], rainMmH: Double) -> AheadForecast.Rain? {
        let forecasts = samples.map {
            AheadSampleForecast(
                point: AheadSamplePoint(
                    minutes: $0.minutes, eta: $0.eta, distanceM: $0.distanceKm * 1000, coordinate: $0.coordinate,
                    travelBearingDeg: nil),
                conditions: $0.conditions)
        }
        return rain(forecasts, places: samples.map(\.place), rainMmH: rainMmH)
    }

    private static func rain(_ forecasts: [AheadSampleForecast], places: [String?], rainMmH: Double)
        -> AheadForecast.Rain?
    {
        AheadSummary.rain(forecasts, thresholdMmH: rainMmH).map {
            AheadForecast.Rain(
                inMin: $0.minutes, atKm: tenths($0.distanceM / 1000), place: places[$0.sampleIndex],
                mmH: tenths($0.mmH))
        }
    }

    /// A headline value to the tenths the JSON gives it (0.1 km, 0.1 mm/h, 0.1 °C, 0.1 m/s).
    static func tenths(_ value: Double) -> Double { DecimalRounding.rounded(value, places: 1) }
}
