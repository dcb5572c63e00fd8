import FixcastCore
import FixcastText
import Foundation
import Testing

/// The headline of a forecast (rain ahead, the worst) is kept to the tenths the JSON prints, so the
/// store and the exports, which take it as it is, say what the reading's JSON says.
struct AheadHeadlineRoundingTests {
    typealias F = AheadFixture

    func forecast() -> AheadForecast {
        let hours = (0..<3).map { F.at(Double($0) * 3600) }
        let series = AheadHourlySeries(
            times: hours, temperatureC: Array(repeating: 16.570396745125453, count: 3),
            precipitationMmH: Array(repeating: 1.2649, count: 3), precipitationProbabilityPct: [80, 80, 80],
            weatherCode: [61, 61, 61], windSpeedMps: [1, 1, 1],
            windGustMps: Array(repeating: 1.3986167619349779, count: 3),
            windDirDeg: [270, 270, 270])
        let point = AheadSamplePoint(
            minutes: 15, eta: F.at(900), distanceM: 12_345.6, coordinate: F.east(12_345.6), travelBearingDeg: 90)
        let plan = AheadTrajectory.Plan(
            basis: .course, offRoute: false, path: .course(from: F.east(0), courseDeg: 90), route: nil,
            refreshBasis: AheadRefreshPolicy.Basis(basis: .course, routeID: nil, offRoute: false))
        return AheadForecastAssembly.forecast(
            plan: plan, speed: TravelSpeed(mps: 13.7, source: .gps),
            from: AheadForecast.Origin(coordinate: F.east(0), fixTime: F.at(0)), madeAt: F.at(0), points: [point],
            locationOfSample: [0], series: [series], places: ["A"], rainMmH: 0.2)
    }

    @Test func theWorstAndTheRainAheadAreKeptToTenths() {
        let f = forecast()
        #expect(f.worst.minTemperatureC == 16.6)
        #expect(f.worst.maxGustMps == 1.4)
        #expect(f.worst.maxPrecipitationMmH == 1.3)
        #expect(f.rain == AheadForecast.Rain(inMin: 15, atKm: 12.3, place: "A", mmH: 1.3))
    }

    @Test func theJSONSaysTheSameNumbers() {
        let f = forecast()
        let json = f.json(language: .en)
        #expect(json["worst"]?["min_temperature_c"]?.doubleValue == f.worst.minTemperatureC)
        #expect(json["worst"]?["max_gust_mps"]?.doubleValue == f.worst.maxGustMps)
        #expect(json["worst"]?["max_precipitation_mm_h"]?.doubleValue == f.worst.maxPrecipitationMmH)
        #expect(json["rain"]?["at_km"]?.doubleValue == f.rain?.atKm)
        #expect(json["rain"]?["mm_h"]?.doubleValue == f.rain?.mmH)
    }
}
