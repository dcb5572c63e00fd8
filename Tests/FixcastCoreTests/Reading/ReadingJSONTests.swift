import FixcastText
import FoundationEssentials
import Testing

@testable import FixcastCore

@Suite struct ReadingJSONTests {
    static let t0 = Date(timeIntervalSince1970: 1_769_774_422)

    static func sample() throws -> Reading {
        let c = try #require(Coordinate(lat: 52.52, lon: 13.4138))
        let position = Position(
            coordinate: c, altitudeM: 34, speedMps: 27.78, trackDeg: 90, mode: .threeD, fixTime: t0,
            obtainedAt: t0.addingTimeInterval(-5), source: .gps, horizontalErrorM: 4.5, satellitesUsed: 9)
        let weather = WeatherReport(
            provider: .openMeteo, fetchedAt: t0, coordinate: c, cached: true, stale: false,
            current: CurrentConditions(
                temperatureC: 3.1, feelsLikeC: -0.4, humidityPct: 81, pressureHpa: 1013.2, weatherCode: 3),
            today: TodaySummary(minC: -1, maxC: 5, sunrise: t0.addingTimeInterval(-3600), sunset: nil),
            daily: [DailyForecast(date: "2026-01-30", minC: -1, maxC: 5, weatherCode: 3, precipitationMm: 0.2)],
            alerts: [WeatherAlert(title: "Wind", severity: "moderate", starts: t0, ends: nil, source: "DWD")])
        return Reading(
            time: t0, trigger: .moved, position: position,
            place: Place(name: "Berlin", region: "Berlin", country: "Germany", countryCode: "de", source: .nominatim),
            weather: weather, errors: [ReadingIssue(component: .place, message: "place: x.")])
    }

    @Test func contractShapeAndOrder() throws {
        let json = try Self.sample().json(language: .en)
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(
            members.map(\.0) == ["id", "time", "trigger", "position", "place", "weather", "alerts", "ahead", "errors"])
        #expect(json["alerts"]?.isNull == true)  // no alerts object asked for: null, not "no alerts"
        #expect(json["id"] == .null)  // not stored: no id (CONTRACT.md)
        #expect(json["time"]?.stringValue == "2026-01-30T12:00:22Z")
        #expect(json["position"]?["age_s"]?.intValue == 5)
        #expect(json["position"]?["mode"]?.stringValue == "3d")
        #expect(json["place"]?["country_code"]?.stringValue == "DE")
        #expect(json["weather"]?["current"]?["dew_point_c"]?.isNull == true)
        #expect(json["weather"]?["today"]?["sunset"]?.isNull == true)
        #expect(json["weather"]?["cached"]?.boolValue == true)
    }

    @Test func roundTripsThroughText() throws {
        let reading = try Self.sample()
        let text = reading.json(language: .en).serialized()
        let back = try #require(Reading(json: try JSONValue.parse(text)))
        #expect(back == reading)
    }

    /// Humidity, cloud cover and wind direction are whole numbers in JSON, as CONTRACT.md shows them
    /// (`84`, not `84.0`, which a consumer reading them into an integer refuses), rounded.
    @Test func percentagesAndTheDirectionAreWholeNumbers() throws {
        var reading = try Self.sample()
        reading.weather?.current.humidityPct = 84.4
        reading.weather?.current.cloudCoverPct = 75
        reading.weather?.current.windDirDeg = 250.5
        let text = reading.json(language: .en).serialized()
        #expect(text.contains(#""humidity_pct":84,"#))
        #expect(text.contains(#""wind_dir_deg":251,"#))
        #expect(text.contains(#""cloud_cover_pct":75,"#))
        #expect(Reading(json: try JSONValue.parse(text))?.weather?.current.humidityPct == 84)
        // A bearing rounds within 0…359.
        #expect(JSONValue.wholeBearing(359.6) == .int(0) && JSONValue.wholeBearing(360) == .int(0))
        #expect(JSONValue.wholeBearing(-0.4) == .int(0) && JSONValue.wholeBearing(nil) == .null)
    }

    /// `from` (a day covered only from then on) is written only where set, and read back.
    @Test func aDayCoveredFromATimeOnRoundTrips() throws {
        var reading = try Self.sample()
        let json = reading.json(language: .en)
        #expect(json["weather"]?["daily"]?[0]?["from"] == nil)
        #expect(json["weather"]?["today"]?["from"] == nil)
        let from = Self.t0.addingTimeInterval(-1222)
        reading.weather?.daily[0].from = from
        reading.weather?.today?.from = from
        let text = reading.json(language: .en).serialized()
        #expect(text.contains(#""precipitation_mm":0.2,"from":"2026-01-30T11:40:00Z""#))
        #expect(text.contains(#""daylight":null,"from":"2026-01-30T11:40:00Z""#))
        #expect(Reading(json: try JSONValue.parse(text)) == reading)
    }

    /// No weather provider fixcast asks sends alerts of its own: an always-empty `weather.alerts` beside
    /// the reading's `alerts` read as "no alerts" where official alerts were active or not covered.
    @Test func weatherHasNoAlertsMemberWithoutProviderAlerts() throws {
        var reading = try Self.sample()
        reading.weather?.alerts = []
        let json = reading.json(language: .en)
        #expect(json["weather"]?["alerts"] == nil)
        #expect(json["weather"]?["daily"] != nil)
        #expect(Reading(json: try JSONValue.parse(json.serialized())) == reading)
    }

    @Test func nullPlaceAndWeather() throws {
        let r = Reading(
            time: Self.t0, trigger: .once, position: nil, errors: [ReadingIssue(component: .gps, message: "gps: none.")]
        )
        let json = r.json(language: .en)
        #expect(json["position"]?.isNull == true)
        #expect(json["weather"]?.isNull == true)
        #expect(Reading(json: json) == r)
    }

    @Test(arguments: Trigger.allCases)
    func everyTriggerRoundTripsByItsContractName(trigger: Trigger) {
        let r = Reading(time: Self.t0, trigger: trigger, position: nil)
        #expect(r.json(language: .en)["trigger"]?.stringValue == trigger.rawValue)
        #expect(Reading(json: r.json(language: .en))?.trigger == trigger)
    }

    @Test func alertIsAContractTriggerAndNotForced() {
        #expect(Trigger(rawValue: "alert") == .alert)
        #expect(!Trigger.alert.isForced)
    }

    @Test func rejectsNonReadings() throws {
        #expect(Reading(json: try JSONValue.parse(#"{"time":"x","trigger":"once"}"#)) == nil)
        #expect(Reading(json: try JSONValue.parse(#"{"time":"2026-01-30T12:00:22Z","trigger":"sometimes"}"#)) == nil)
    }
}
