import Foundation
import Testing

@testable import FixcastCore

@Suite struct OpenMeteoDecoderTests {
    let here = Coordinate(lat: 55.68, lon: 12.57)!
    /// 2026-07-26T23:00 local (+02:00), the recorded response's current time.
    let fetchedAt = UTCTime.parse("2026-07-26T21:00:00Z")!

    @Test func recordedResponseMatchesTheSource() throws {
        let report = try OpenMeteoDecoder.decode(
            CoreFixtures.bytes("open-meteo-forecast.json"), coordinate: here, fetchedAt: fetchedAt)
        let source = try CoreFixtures.object("open-meteo-forecast.json")
        let current = try #require(source["current"] as? [String: Any])
        let units = try #require(source["current_units"] as? [String: Any])
        #expect(units["wind_speed_10m"] as? String == "m/s")
        #expect(report.provider == .openMeteo)
        #expect(report.fetchedAt == fetchedAt)
        #expect(report.coordinate == here)
        #expect(report.current.temperatureC == current["temperature_2m"] as? Double)
        #expect(report.current.feelsLikeC == current["apparent_temperature"] as? Double)
        #expect(report.current.humidityPct == (current["relative_humidity_2m"] as? NSNumber)?.doubleValue)
        #expect(report.current.windSpeedMps == current["wind_speed_10m"] as? Double)
        #expect(report.current.windDirDeg == (current["wind_direction_10m"] as? NSNumber)?.doubleValue)
        #expect(report.current.precipitationMm == current["precipitation"] as? Double)
        #expect(report.current.weatherCode == current["weather_code"] as? Int)
        // Not in this recording: unknown, never a made-up zero (surface_pressure is not MSL pressure).
        #expect(report.current.pressureHpa == nil)
        #expect(report.current.dewPointC == nil)
        #expect(report.current.windGustMps == nil)
        #expect(report.current.cloudCoverPct == nil)

        let daily = try #require(source["daily"] as? [String: Any])
        let dates = try #require(daily["time"] as? [String])
        #expect(report.daily.map(\.date) == dates)
        #expect(report.daily.map(\.maxC) == (daily["temperature_2m_max"] as? [Double])?.map { Optional($0) })
        #expect(report.daily.map(\.minC) == (daily["temperature_2m_min"] as? [Double])?.map { Optional($0) })
        #expect(report.daily.map(\.weatherCode) == (daily["weather_code"] as? [Int])?.map { Optional($0) })
        #expect(report.daily.map(\.precipitationMm) == (daily["precipitation_sum"] as? [Double])?.map { Optional($0) })

        let today = try #require(report.today)
        #expect(today.minC == report.daily[0].minC)
        #expect(today.maxC == report.daily[0].maxC)
        // "2026-07-26T05:04" local at +7200 s.
        #expect(today.sunrise == UTCTime.parse("2026-07-26T03:04:00Z"))
        #expect(today.sunset == UTCTime.parse("2026-07-26T19:28:00Z"))
    }

    @Test func todayFollowsTheLocalDateNotUTC() throws {
        // 22:30 UTC is already the 27th at +02:00.
        let late = UTCTime.parse("2026-07-26T22:30:00Z")!
        let report = try OpenMeteoDecoder.decode(
            CoreFixtures.bytes("open-meteo-forecast.json"), coordinate: here, fetchedAt: late)
        #expect(report.today?.maxC == report.daily[1].maxC)
        #expect(report.today?.sunrise == UTCTime.parse("2026-07-27T03:06:00Z"))
        // The report keeps the offset its dates are in (a stored one is moved by it: WeatherDayShift).
        #expect(report.utcOffsetS == 7200)
        // An offset no place has is no offset: the dates are then taken as UTC's.
        let absurd = try OpenMeteoDecoder.decode(
            Self.body(current: #""temperature_2m":1"#, currentUnits: #""temperature_2m":"°C""#, offset: 400_000),
            coordinate: here, fetchedAt: late)
        #expect(absurd.utcOffsetS == 0)
    }

    @Test func todayIsNilOutsideTheForecast() throws {
        let report = try OpenMeteoDecoder.decode(
            CoreFixtures.bytes("open-meteo-forecast.json"), coordinate: here,
            fetchedAt: UTCTime.parse("2030-01-01T00:00:00Z")!)
        #expect(report.today == nil)
    }

    @Test func minimalResponseWithoutCurrentIsAnError() throws {
        do {
            _ = try OpenMeteoDecoder.decode(
                CoreFixtures.bytes("open-meteo-forecast-minimal.json"), coordinate: here, fetchedAt: fetchedAt)
            Issue.record("decoded a response with no current block")
        } catch let error as WeatherDecodeError {
            #expect(error.detail.contains("current"))
        }
    }

    static func body(current: String, currentUnits: String, daily: String = "", offset: Int = 0) -> [UInt8] {
        Array(
            #"{"utc_offset_seconds":\#(offset),"current_units":{\#(currentUnits)},"current":{\#(current)}\#(daily)}"#
                .utf8)
    }

    @Test func otherUnitsAreConvertedFromTheUnitsBlock() throws {
        let body = Self.body(
            current:
                #""temperature_2m":50,"apparent_temperature":41,"wind_speed_10m":36,"wind_gusts_10m":10,"precipitation":0.1,"pressure_msl":1013.5,"dew_point_2m":32"#,
            currentUnits:
                #""temperature_2m":"°F","apparent_temperature":"°F","wind_speed_10m":"km/h","wind_gusts_10m":"kn","precipitation":"inch","pressure_msl":"hPa","dew_point_2m":"°F""#,
            daily:
                #","daily_units":{"temperature_2m_max":"°F","temperature_2m_min":"°F","precipitation_sum":"inch"},"daily":{"time":["2026-01-30"],"temperature_2m_max":[68],"temperature_2m_min":[32],"precipitation_sum":[1]}"#
        )
        let r = try OpenMeteoDecoder.decode(body, coordinate: here, fetchedAt: UTCTime.parse("2026-01-30T12:00:00Z")!)
        #expect(abs(r.current.temperatureC! - 10) < 1e-9)
        #expect(abs(r.current.feelsLikeC! - 5) < 1e-9)
        #expect(abs(r.current.dewPointC! - 0) < 1e-9)
        #expect(abs(r.current.windSpeedMps! - 10) < 1e-9)
        #expect(r.current.windGustMps == 5.14)  // 10 kn is 5.144… m/s, kept to 0.01 (WeatherValueRanges.keptPlaces)
        #expect(abs(r.current.precipitationMm! - 2.54) < 1e-9)
        #expect(r.current.pressureHpa == 1013.5)
        #expect(abs(r.daily[0].maxC! - 20) < 1e-9)
        #expect(abs(r.daily[0].minC! - 0) < 1e-9)
        #expect(abs(r.daily[0].precipitationMm! - 25.4) < 1e-9)
        #expect(abs(r.today!.maxC! - 20) < 1e-9)
    }

    @Test func nullInAnArrayIsMissingNotZero() throws {
        let body = Self.body(
            current: #""temperature_2m":null,"weather_code":3"#, currentUnits: #""temperature_2m":"°C""#,
            daily:
                #","daily_units":{"temperature_2m_max":"°C","temperature_2m_min":"°C","precipitation_sum":"mm"},"daily":{"time":["2026-01-30","2026-01-31"],"temperature_2m_max":[5.0,null],"temperature_2m_min":[null,-2.0],"precipitation_sum":[null,0.0],"weather_code":[null,61],"sunrise":[null,"2026-01-31T07:50"]}"#
        )
        let r = try OpenMeteoDecoder.decode(body, coordinate: here, fetchedAt: UTCTime.parse("2026-01-31T12:00:00Z")!)
        #expect(r.current.temperatureC == nil)
        #expect(r.current.weatherCode == 3)
        #expect(r.daily[0].minC == nil)
        #expect(r.daily[0].maxC == 5.0)
        #expect(r.daily[0].precipitationMm == nil)
        #expect(r.daily[0].weatherCode == nil)
        #expect(r.daily[1].maxC == nil)
        #expect(r.daily[1].precipitationMm == 0.0)
        #expect(r.today?.sunrise == UTCTime.parse("2026-01-31T07:50:00Z"))
        #expect(r.today?.sunset == nil)
    }

    @Test(arguments: [
        (#""temperature_2m":"warm""#, #""temperature_2m":"°C""#, "current.temperature_2m"),
        (#""weather_code":2.5"#, "", "current.weather_code"),
        (#""wind_speed_10m":5"#, "", "current_units.wind_speed_10m"),
        (#""wind_speed_10m":5"#, #""wind_speed_10m":"furlongs""#, "furlongs"),
    ])
    func wrongTypesAndUnitsLoseOnlyTheirField(current: String, units: String, mention: String) throws {
        // One unreadable value costs that value, named in valueProblems; the report is kept.
        let r = try OpenMeteoDecoder.decode(
            Self.body(current: current, currentUnits: units), coordinate: here, fetchedAt: fetchedAt)
        #expect(r.current.temperatureC == nil && r.current.weatherCode == nil && r.current.windSpeedMps == nil)
        #expect(r.valueProblems.count == 1)
        #expect(r.valueProblems.first?.message.contains(mention) == true, "\(r.valueProblems)")
        #expect(r.valueProblems.first?.message.hasPrefix("weather: ") == true)
    }

    @Test(arguments: [
        #"{"current":[]}"#, #"[1,2]"#,
        #"{"current":{},"daily":{"temperature_2m_max":[1]}}"#, #"{"current":{},"daily":{"time":["Monday"]}}"#,
        #"{"current":{"temperature_2m":1"#, "<html>Bad gateway</html>", "",
    ])
    func malformedBodiesThrowInsteadOfCrashing(text: String) {
        #expect(throws: WeatherDecodeError.self) {
            try OpenMeteoDecoder.decode(Array(text.utf8), coordinate: here, fetchedAt: fetchedAt)
        }
    }

    @Test func errorReasonFromTheDocsExampleEvenThoughItIsNotStrictJSON() throws {
        let reason = OpenMeteoDecoder.errorReason(try CoreFixtures.bytes("open-meteo-error-docs-example.txt"))
        #expect(reason == "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly")
        #expect(
            OpenMeteoDecoder.errorReason(
                Array(#"{"error":true,"reason":"Latitude must be in range of -90 to 90°."}"#.utf8))
                == "Latitude must be in range of -90 to 90°.")
        #expect(OpenMeteoDecoder.errorReason(Array("<html></html>".utf8)) == nil)
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz open-meteo`, bench/README.md).

    @Test func theSmallestIntegerAsTheOffsetIsNoOffsetRatherThanATrap() throws {
        // `abs(-9223372036854775808)` has no value: the offset check trapped and killed the agent.
        let r = try OpenMeteoDecoder.decode(
            Self.body(current: #""temperature_2m":1"#, currentUnits: #""temperature_2m":"°C""#, offset: Int.min),
            coordinate: here, fetchedAt: fetchedAt)
        #expect(r.utcOffsetS == 0)
        #expect(r.current.temperatureC == 1)
        #expect(WeatherReport.utcOffset(Int.min) == nil && WeatherReport.utcOffset(Int.max) == nil)
    }

    /// An offset that cannot be read costs the offset only: the dates stay in UTC (Open-Meteo's
    /// default) and the report says why. It threw, and the whole report was lost.
    @Test(arguments: [#""+02:00""#, "7200.5", "[]", "true"])
    func anUnreadableOffsetFallsBackToUTCAndIsNamed(offset: String) throws {
        let text =
            #"{"utc_offset_seconds":\#(offset),"current_units":{"temperature_2m":"°C"},"current":{"temperature_2m":4.5},"#
            + #""daily_units":{"temperature_2m_max":"°C"},"daily":{"time":["2026-01-31"],"temperature_2m_max":[6]}}"#
        let r = try OpenMeteoDecoder.decode(
            Array(text.utf8), coordinate: here, fetchedAt: UTCTime.parse("2026-01-31T12:00:00Z")!)
        #expect(r.current.temperatureC == 4.5)
        #expect(r.utcOffsetS == 0)
        #expect(r.today?.maxC == 6)
        #expect(r.valueProblems.map(\.field) == ["utc_offset_seconds"])
    }

    // The rule the campaign found missing for MET Norway's steps and OpenWeatherMap's times: a time outside
    // 1970–2200 is none.
    @Test func aSunriseOutside1970To2200IsUnknownNamedNotAFact() throws {
        let body = Self.body(
            current: #""temperature_2m":1"#, currentUnits: #""temperature_2m":"°C""#,
            daily:
                #","daily":{"time":["2026-01-31"],"sunrise":["0000-01-01T07:50"],"sunset":["9999-12-31T16:40"]}"#)
        let r = try OpenMeteoDecoder.decode(body, coordinate: here, fetchedAt: UTCTime.parse("2026-01-31T12:00:00Z")!)
        #expect(r.today?.sunrise == nil && r.today?.sunset == nil)
        #expect(r.valueProblems.map(\.field).sorted() == ["daily[0].sunrise", "daily[0].sunset"])
    }

    @Test func aDayOutside1970To2200IsNotADate() {
        let body = Self.body(
            current: #""temperature_2m":1"#, currentUnits: #""temperature_2m":"°C""#,
            daily: #","daily":{"time":["0000-01-01"]}"#)
        #expect(throws: WeatherDecodeError.self) {
            try OpenMeteoDecoder.decode(body, coordinate: here, fetchedAt: fetchedAt)
        }
    }
}
