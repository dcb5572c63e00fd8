import FixcastCore
import FixcastText
import Foundation
import Testing

/// The ahead sensors' values from a constructed forecast (CONTRACT.md "MQTT", issue 20.5).
@Suite struct AheadSensorsTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func forecast(rain: AheadForecast.Rain?, worst: AheadForecast.Worst) -> AheadForecast {
        let samples = [(2.5, 9.0), (-1.0, 14.5), (4.0, nil), (Double.nan, 20.0)].enumerated().map { i, v in
            AheadForecast.Sample(
                minutes: 15 * (i + 1), eta: t0.addingTimeInterval(Double(900 * (i + 1))),
                distanceKm: 20 * Double(i + 1),
                coordinate: Coordinate(lat: 52, lon: 13 + Double(i))!, place: "P\(i)",
                conditions: AheadConditions(temperatureC: v.0, windGustMps: v.1))
        }
        return AheadForecast(
            basis: .route, madeAt: t0,
            from: AheadForecast.Origin(coordinate: Coordinate(lat: 52, lon: 13)!, fixTime: t0),
            speedMps: 22, speedSource: .history, samples: samples, rain: rain, worst: worst,
            alerts: [
                AheadForecast.AlertAhead(id: "w", event: "Wind", severity: "severe", inMin: 30, atKm: 40, place: "P1")
            ])
    }

    @Test func valuesComeFromTheForecast() throws {
        let f = Self.forecast(
            rain: AheadForecast.Rain(inMin: 45, atKm: 60, place: "P2", mmH: 1.2),
            worst: AheadForecast.Worst(minTemperatureC: -1.5, maxGustMps: 21, maxPrecipitationMmH: 1.2))
        let s = AheadSensors(f)
        #expect(s.rainInMin == 45)
        #expect(s.temperatureMinC == -1.5, "the forecast's own extreme")
        #expect(s.temperatureMaxC == 4.0, "NaN is no temperature")
        #expect(s.gustMaxMps == 21)
        #expect(s.alertCount == 1)
        let p = s.payload
        #expect(p["rain_in_min"] == .int(45))
        #expect(p["alerts_count"] == .int(1))
        #expect(p["samples"]?.arrayValue?.count == 4)
        #expect(p["samples"]?[3]?["temperature_c"] == .null, "no NaN in JSON")
        #expect(p["alerts"]?[0]?["in_min"] == .int(30))
        #expect(try JSONValue.parse(p.serialized()) == p)
    }

    @Test func withoutRainOrWorstTheSamplesDecideAndRainIsUnknown() {
        let s = AheadSensors(
            Self.forecast(
                rain: nil, worst: AheadForecast.Worst(minTemperatureC: nil, maxGustMps: nil, maxPrecipitationMmH: nil)))
        #expect(s.rainInMin == nil)
        #expect(s.payload["rain_in_min"] == .null)
        #expect(s.temperatureMinC == -1.0)
        #expect(s.gustMaxMps == 20)
    }

    @Test func noForecastIsUnknownEverywhereNeverZero() {
        let p = AheadSensors(nil).payload
        for key in ["rain_in_min", "temperature_min_c", "temperature_max_c", "gust_max_mps", "alerts_count"] {
            #expect(p[key] == .null, "\(key)")
        }
        #expect(p["samples"] == .array([]))
    }
}
