import FixcastCore
import FixcastText
import Foundation
import Testing

@Suite struct AheadJSONTests {
    static let sample = AheadForecast(
        basis: .route, offRoute: false, madeAt: UTCTime.parse("2026-01-30T12:00:22Z")!,
        from: AheadForecast.Origin(
            coordinate: Coordinate(lat: 52.52, lon: 13.41)!, fixTime: UTCTime.parse("2026-01-30T12:00:21Z")),
        speedMps: 24.1234, speedSource: .history,
        route: AheadForecast.Route(name: "Berlin - Hamburg", remainingKm: 231.44),
        samples: [
            AheadForecast.Sample(
                minutes: 15, eta: UTCTime.parse("2026-01-30T12:15:22Z")!, distanceKm: 21.734,
                coordinate: Coordinate(lat: 52.61, lon: 13.12)!, place: "Falkensee",
                conditions: AheadConditions(
                    temperatureC: 2.4333, precipitationMmH: 0, precipitationProbabilityPct: 10, weatherCode: 3,
                    windSpeedMps: 6.1, windGustMps: 11, windDirDeg: 260.4, headwindMps: 4.93, crosswindMps: -3.6))
        ],
        rain: AheadForecast.Rain(inMin: 45, atKm: 63, place: "Kyritz", mmH: 1.2),
        worst: AheadForecast.Worst(minTemperatureC: 1.1, maxGustMps: 14, maxPrecipitationMmH: 2.3))

    @Test func theKeysAreTheContractsInItsOrder() throws {
        let json = Self.sample.json(language: .en)
        guard case .object(let members) = json else { throw JSONShape.notAnObject }
        #expect(
            members.map(\.0) == [
                "basis", "off_route", "made_at", "stale", "from", "speed_mps", "speed_source", "route", "samples",
                "rain", "worst", "alerts",
            ])
        guard case .object(let s)? = json["samples"]?[0] else { throw JSONShape.notAnObject }
        #expect(
            s.map(\.0) == [
                "minutes", "eta", "distance_km", "lat", "lon", "place", "temperature_c", "precipitation_mm_h",
                "precipitation_probability_pct", "weather_code", "description", "wind_speed_mps", "wind_gust_mps",
                "wind_dir_deg", "headwind_mps", "crosswind_mps",
            ])
        #expect(json["basis"]?.stringValue == "route" && json["made_at"]?.stringValue == "2026-01-30T12:00:22Z")
        #expect(json["samples"]?[0]?["description"]?.stringValue == "Overcast")
        #expect(json["samples"]?[0]?["temperature_c"]?.doubleValue == 2.4)
        #expect(json["samples"]?[0]?["distance_km"]?.doubleValue == 21.7)
        #expect(json["route"]?["remaining_km"]?.doubleValue == 231.4)
        #expect(json["rain"]?["place"]?.stringValue == "Kyritz")
        #expect(json["worst"]?["max_gust_mps"]?.doubleValue == 14)
    }

    /// A percentage and a direction are whole numbers in the text, as CONTRACT.md shows them (`10`, not
    /// `10.0`, which a consumer reading them into an integer refuses).
    @Test func theProbabilityAndTheDirectionAreWrittenAsIntegers() throws {
        let text = Self.sample.json(language: .en).serialized()
        #expect(text.contains("\"precipitation_probability_pct\":10,"))
        #expect(text.contains("\"wind_dir_deg\":260,"))
        var f = Self.sample
        f.samples[0].conditions.windDirDeg = .nan
        f.samples[0].conditions.precipitationProbabilityPct = nil
        let unknown = f.json(language: .en)
        #expect(unknown["samples"]?[0]?["wind_dir_deg"]?.isNull == true)
        #expect(unknown["samples"]?[0]?["precipitation_probability_pct"]?.isNull == true)
    }

    @Test func nullsForTheUnknownAndARoundTripThroughText() throws {
        var f = Self.sample
        f.route = nil
        f.rain = nil
        f.samples[0].temperatureC = nil
        let json = f.json(language: .en)
        #expect(json["route"]?.isNull == true && json["rain"]?.isNull == true)
        #expect(json["samples"]?[0]?["temperature_c"]?.isNull == true)
        let back = try #require(AheadForecast(json: try JSONValue.parse(Array(json.serialized().utf8))))
        #expect(back.json(language: .en) == json)
    }

    @Test func aReadingCarriesItAndReadsItBack() throws {
        let reading = Reading(
            time: UTCTime.parse("2026-01-30T12:00:22Z")!, trigger: .moved, position: nil, ahead: Self.sample)
        let json = reading.json(language: .en)
        #expect(json["ahead"]?["basis"]?.stringValue == "route")
        let back = try #require(Reading(json: json))
        #expect(back.ahead?.json(language: .en) == Self.sample.json(language: .en))
        #expect(
            Reading(time: reading.time, trigger: .moved, position: nil).json(language: .en)["ahead"]?.isNull == true)
    }

    enum JSONShape: Error { case notAnObject }
}
