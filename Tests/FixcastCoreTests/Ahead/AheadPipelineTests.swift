import FixcastCore
import Foundation
import Testing

/// The pieces as the agent will join them: samples → one request → the recorded answer → values at each ETA.
@Suite("Ahead pipeline")
struct AheadPipelineTests {
    @Test func samplesAskedOnceEachGetTheirLocationsValuesAtTheirETA() throws {
        // The fixture's first hours: Berlin from 2025-07-27T00:00Z; Toronto from 2026-03-04T05:00Z
        // (local midnight, UTC-5). Samples at Berlin (two within 2 km) and at Toronto, whose ETA is
        // 06:30Z there: 01:30 local, between the recorded 01:00 and 02:00.
        let berlinNow = Date(timeIntervalSince1970: 1_753_574_400)
        let toronto = Coordinate(lat: 43.70455, lon: -79.404625)!
        let samples = [
            AheadSamplePoint(
                minutes: 30, eta: berlinNow.addingTimeInterval(1_800), distanceM: 0,
                coordinate: Coordinate(lat: 52.52, lon: 13.42)!, travelBearingDeg: 0),
            AheadSamplePoint(
                minutes: 90, eta: berlinNow.addingTimeInterval(5_400), distanceM: 1_000,
                coordinate: Coordinate(lat: 52.529, lon: 13.42)!, travelBearingDeg: 0),
            AheadSamplePoint(
                minutes: 0, eta: Date(timeIntervalSince1970: 1_772_600_400 + 5_400), distanceM: 0,
                coordinate: toronto, travelBearingDeg: nil),
        ]
        let request = try #require(OpenMeteoAheadRequest(samples: samples, now: berlinNow))
        #expect(request.locations.count == 2)
        let series = try OpenMeteoAheadDecoder.decode(
            try CoreFixtures.bytes("open-meteo-ahead-multi-location.json"), locations: request.locations.count)
        let forecasts = zip(samples, request.locationOfSample).map { sample, k in
            AheadSampleForecast(
                point: sample,
                conditions: series[k].conditions(at: sample.eta, travelBearingDeg: sample.travelBearingDeg))
        }
        let raw =
            try JSONSerialization.jsonObject(
                with: Data(CoreFixtures.bytes("open-meteo-ahead-multi-location.json"))) as? [[String: Any]] ?? []
        let berlinT = (raw[0]["hourly"] as? [String: Any])?["temperature_2m"] as? [Double] ?? []
        let torontoF = (raw[1]["hourly"] as? [String: Any])?["temperature_2m"] as? [Double] ?? []
        #expect(abs((forecasts[0].conditions?.temperatureC ?? .nan) - (berlinT[0] + berlinT[1]) / 2) < 1e-9)
        #expect(abs((forecasts[1].conditions?.temperatureC ?? .nan) - (berlinT[1] + berlinT[2]) / 2) < 1e-9)
        let torontoC = ((torontoF[1] + torontoF[2]) / 2 - 32) * 5 / 9
        #expect(abs((forecasts[2].conditions?.temperatureC ?? .nan) - torontoC) < 1e-9)
        #expect(forecasts[0].conditions?.headwindMps != nil)
        #expect(forecasts[2].conditions?.headwindMps == nil)
    }
}
