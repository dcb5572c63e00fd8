import Foundation
import Testing

@testable import FixcastCore

@Suite struct OpenWeatherMapDecoderTests {
    let here = Coordinate(lat: 44.34, lon: 10.99)!

    func recorded() throws -> (WeatherReport, [String: Any], [String: Any]) {
        let current = try CoreFixtures.object("owm-current.json")
        let fetchedAt = Date(timeIntervalSince1970: try #require(current["dt"] as? Double))
        let report = try OpenWeatherMapDecoder.decode(
            current: CoreFixtures.bytes("owm-current.json"), forecast: CoreFixtures.bytes("owm-forecast.json"),
            coordinate: here, fetchedAt: fetchedAt)
        return (report, current, try CoreFixtures.object("owm-forecast.json"))
    }

    @Test func recordedCurrentIsConvertedFromKelvin() throws {
        let (report, source, _) = try recorded()
        let main = try #require(source["main"] as? [String: Any])
        let wind = try #require(source["wind"] as? [String: Any])
        #expect(report.provider == .openWeatherMap)
        #expect(abs(report.current.temperatureC! - ((main["temp"] as! Double) - 273.15)) < 1e-9)
        #expect(abs(report.current.feelsLikeC! - ((main["feels_like"] as! Double) - 273.15)) < 1e-9)
        #expect(report.current.humidityPct == (main["humidity"] as? NSNumber)?.doubleValue)
        #expect(report.current.pressureHpa == (main["sea_level"] as? NSNumber)?.doubleValue)
        #expect(report.current.windSpeedMps == wind["speed"] as? Double)
        #expect(report.current.windGustMps == wind["gust"] as? Double)
        #expect(report.current.windDirDeg == (wind["deg"] as? NSNumber)?.doubleValue)
        #expect(report.current.precipitationMm == ((source["rain"] as? [String: Any])?["1h"] as? Double))
        #expect(report.current.cloudCoverPct == 100)
        #expect(report.current.weatherCode == 63)  // id 501 "moderate rain"
        #expect(report.current.dewPointC == nil)
        let sys = try #require(source["sys"] as? [String: Any])
        #expect(report.today?.sunrise == Date(timeIntervalSince1970: sys["sunrise"] as! Double))
        #expect(report.today?.sunset == Date(timeIntervalSince1970: sys["sunset"] as! Double))
    }

    /// The forecast steps folded by local date, recomputed here from the source independently.
    @Test func forecastIsFoldedIntoLocalDays() throws {
        let (report, current, forecast) = try recorded()
        let offset = try #require((forecast["city"] as? [String: Any])?["timezone"] as? Int)
        var mins: [String: Double] = [:]
        var maxs: [String: Double] = [:]
        var rain: [String: Double] = [:]
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(secondsFromGMT: offset)
        for item in try #require(forecast["list"] as? [[String: Any]]) {
            let day = formatter.string(from: Date(timeIntervalSince1970: item["dt"] as! Double))
            let main = item["main"] as! [String: Any]
            mins[day] = min(mins[day] ?? .infinity, (main["temp_min"] as! Double) - 273.15)
            maxs[day] = max(maxs[day] ?? -.infinity, (main["temp_max"] as! Double) - 273.15)
            rain[day, default: 0] += ((item["rain"] as? [String: Any])?["3h"] as? Double) ?? 0
        }
        // The docs' example has three steps on 30 August and one at 14:00 local on 4 September: that
        // day is not reached to its end (its "range" would be a midday's), so it is left out, and the
        // first day holds from its first step (17:00 local) on.
        #expect(report.daily.map(\.date) == ["2022-08-30"])
        #expect(mins.keys.sorted() == ["2022-08-30", "2022-09-04"])
        #expect(report.daily.first?.from == Date(timeIntervalSince1970: 1_661_871_600))
        for day in report.daily {
            #expect(abs(day.minC! - mins[day.date]!) < 1e-9)
            #expect(abs(day.maxC! - maxs[day.date]!) < 1e-9)
            #expect(abs(day.precipitationMm! - rain[day.date]!) < 1e-9)
        }
        #expect(report.daily.first?.weatherCode == 61)  // three steps of 500 "light rain"
        // Today takes the wider of the day's forecast range and the current min/max.
        let main = current["main"] as! [String: Any]
        let today = try #require(report.today)
        #expect(abs(today.maxC! - max(maxs[report.daily[0].date]!, (main["temp_max"] as! Double) - 273.15)) < 1e-9)
        #expect(abs(today.minC! - min(mins[report.daily[0].date]!, (main["temp_min"] as! Double) - 273.15)) < 1e-9)
    }

    @Test func stepsAreCutAtLocalMidnight() throws {
        // 20:30 UTC on the 1st is 22:30 there at +02:00, 22:30 UTC is already 00:30 on the 2nd;
        // the most severe code wins the day.
        let forecast =
            #"{"city":{"timezone":7200},"list":[{"dt":1767299400,"main":{"temp":280},"weather":[{"id":800}]},{"dt":1767310200,"main":{"temp":270},"weather":[{"id":202}]},{"dt":1767313800,"main":{"temp":275},"weather":[{"id":801}],"snow":{"3h":1.5}},{"dt":1767385800,"main":{"temp":276},"weather":[{"id":800}]}]}"#
        let current = #"{"main":{"temp":273.15},"timezone":7200}"#
        let r = try OpenWeatherMapDecoder.decode(
            current: Array(current.utf8), forecast: Array(forecast.utf8), coordinate: here,
            fetchedAt: Date(timeIntervalSince1970: 1_767_306_600))
        try #require(r.daily.map(\.date) == ["2026-01-01", "2026-01-02"])
        #expect(r.daily[1].weatherCode == 95)
        #expect(r.daily[1].precipitationMm == 1.5)
        #expect(r.daily[0].precipitationMm == 0)
        #expect(r.current.temperatureC == 0)
        #expect(r.current.weatherCode == nil)
        #expect(r.current.windSpeedMps == nil)
    }

    @Test(arguments: [
        #"{"main":[]}"#, #"{"weather":[{"id":800}]}"#, "not json", "[]",
    ])
    // A value of the wrong type ({"main":{"temp":"hot"}}) loses that value only (WeatherValueCheckTests).
    func badCurrentBodiesThrow(text: String) {
        #expect(throws: WeatherDecodeError.self) {
            try OpenWeatherMapDecoder.decode(
                current: Array(text.utf8), forecast: nil, coordinate: here, fetchedAt: Date())
        }
    }

    /// Steps every 3 h at +00:00 from `first`, `count` of them, each 280 K and clear (`step` makes one
    /// otherwise), decoded with `extra` steps before them and a current temperature of `currentK`.
    func decodedSteps(
        from first: Int, count: Int, extra: [String] = [], currentK: Double = 280,
        step: (Int) -> String = { #"{"dt":\#($0),"main":{"temp":280},"weather":[{"id":800}]}"# }
    ) throws -> WeatherReport {
        let steps = extra + stride(from: first, to: first + count * 10_800, by: 10_800).map(step)
        let forecast = #"{"city":{"timezone":0},"list":[\#(steps.joined(separator: ","))]}"#
        return try OpenWeatherMapDecoder.decode(
            current: Array(#"{"main":{"temp":\#(currentK)}}"#.utf8), forecast: Array(forecast.utf8), coordinate: here,
            fetchedAt: Date(timeIntervalSince1970: Double(first - 600)))
    }

    /// Partial days: a series that starts mid-day marks its first day `from` there; a last day the
    /// steps stop in is left out. Both were shown as whole days (a morning's maximum as the day's).
    @Test func aPartialFirstDayIsMarkedAndAPartialLastDayLeftOut() throws {
        // Steps every 3 h from 15:00 on the 1st to 09:00 on the 3rd: the 2nd is whole.
        let r = try decodedSteps(from: 1_767_279_600, count: 15)
        #expect(r.daily.map(\.date) == ["2026-01-01", "2026-01-02"])
        #expect(r.daily[0].from == Date(timeIntervalSince1970: 1_767_279_600))
        #expect(r.daily[1].from == nil)
    }

    /// Today's range is the forecast's first day: covered from its first step on, today says so
    /// (`from`) as `daily[0]` does, not passing the rest of a day off as the whole day.
    @Test func todayIsMarkedFromWhereTheForecastCoversIt() throws {
        let r = try decodedSteps(from: 1_767_279_600, count: 15)
        let today = try #require(r.today)
        #expect(today.from == Date(timeIntervalSince1970: 1_767_279_600))
        #expect(today.from == r.daily.first?.from)
        #expect(today.minC.map { abs($0 - 6.85) < 1e-9 } == true)
        // A day covered whole has no `from`, and nor has today.
        let whole = try decodedSteps(from: 1_767_225_600, count: 9)
        #expect(whole.daily.first?.from == nil)
        #expect(whole.today?.from == nil)
    }

    /// A sentinel in the current answer's min or max (0 K is -273.15 °C) is left out of today's
    /// range: it won the min, and the range check then dropped today.min_c altogether. Alone (no
    /// forecast), it is what there is: unknown, and named.
    @Test func aSentinelCurrentMinimumDoesNotCostToday() throws {
        let first = 1_767_279_600
        let steps = stride(from: first, to: first + 15 * 10_800, by: 10_800).map {
            #"{"dt":\#($0),"main":{"temp":280},"weather":[{"id":800}]}"#
        }
        let forecast = #"{"city":{"timezone":0},"list":[\#(steps.joined(separator: ","))]}"#
        let current = #"{"main":{"temp":281,"temp_min":0,"temp_max":282}}"#
        let fetchedAt = Date(timeIntervalSince1970: Double(first - 600))
        let r = try OpenWeatherMapDecoder.decode(
            current: Array(current.utf8), forecast: Array(forecast.utf8), coordinate: here, fetchedAt: fetchedAt)
        #expect(r.today?.minC.map { abs($0 - 6.85) < 1e-9 } == true, "\(String(describing: r.today))")
        #expect(r.today?.maxC.map { abs($0 - 8.85) < 1e-9 } == true)
        #expect(!r.valueProblems.contains { $0.field.hasPrefix("today") })
        let alone = try OpenWeatherMapDecoder.decode(
            current: Array(current.utf8), forecast: nil, coordinate: here, fetchedAt: fetchedAt)
        #expect(alone.today?.minC == nil)
        #expect(alone.today?.maxC.map { abs($0 - 8.85) < 1e-9 } == true)
        #expect(alone.valueProblems.map(\.field) == ["today.min_c"])
    }

    /// Rain and snow are each held to their range before they are added: -1 mm of rain and 3 mm of
    /// snow made a believable 2 mm. The current value and the step's day become unknown, and named.
    @Test func anImpossiblePrecipitationPartIsNotAdded() throws {
        let r = try decodedSteps(from: 1_767_225_600, count: 9) {
            let bad = $0 == 1_767_236_400
            return #"{"dt":\#($0),"main":{"temp":280},"rain":{"3h":\#(bad ? -1 : 0.5)},"snow":{"3h":\#(bad ? 3 : 0)}}"#
        }
        try #require(r.daily.map(\.date) == ["2026-01-01"])
        #expect(r.daily[0].precipitationMm == nil)
        #expect(
            r.valueProblems.contains(
                WeatherValueProblem(
                    field: "daily[0].precipitation_mm",
                    cause: .outOfRange(value: -1, range: WeatherValueRanges.dailyPrecipitation))))
        let current = #"{"main":{"temp":280},"rain":{"1h":-1},"snow":{"1h":3}}"#
        let now = try OpenWeatherMapDecoder.decode(
            current: Array(current.utf8), forecast: nil, coordinate: here, fetchedAt: Date(timeIntervalSince1970: 0))
        #expect(now.current.precipitationMm == nil)
        #expect(
            now.valueProblems == [
                WeatherValueProblem(
                    field: "precipitation_mm", cause: .outOfRange(value: -1, range: WeatherValueRanges.precipitation))
            ])
    }

    /// One step that cannot be read is left out and named once (`daily`); the current conditions and
    /// the other steps stay. It threw the whole report away.
    @Test(arguments: [
        #"{"dt":1767279600,"main":{"temp":"n/a"}}"#, #"{"main":{"temp":1}}"#, #"{"dt":1,"main":{"temp_min":"x"}}"#,
        #"{"dt":1767279600,"main":{"temp":280},"rain":[]}"#,
    ])
    func aBadStepCostsThatStepOnly(bad: String) throws {
        let r = try decodedSteps(from: 1_767_290_400, count: 11, extra: [bad], currentK: 283.15)
        #expect(r.current.temperatureC == 10)
        #expect(r.valueProblems.map(\.field) == ["daily"])
        #expect(r.daily.map(\.date) == ["2026-01-01", "2026-01-02"])
    }

    /// A step temperature out of range is left out of its day's range (a 0 K step made the day's
    /// minimum -273 °C, which the range check then nulled for the whole day).
    @Test func anAbsurdStepTemperatureIsLeftOutOfTheDay() throws {
        let r = try decodedSteps(from: 1_767_225_600, count: 9) {
            #"{"dt":\#($0),"main":{"temp":\#($0 == 1_767_236_400 ? 0 : 280)}}"#
        }
        let day = try #require(r.daily.first)
        #expect(day.minC.map { abs($0 - 6.85) < 1e-9 } == true, "\(String(describing: day.minC))")
    }

    @Test(arguments: [
        #"{"list":"x"}"#, #"{"cod":"200"}"#,
    ])
    func badForecastBodiesThrow(text: String) {
        #expect(throws: WeatherDecodeError.self) {
            try OpenWeatherMapDecoder.decode(
                current: Array(#"{"main":{"temp":280}}"#.utf8), forecast: Array(text.utf8), coordinate: here,
                fetchedAt: Date())
        }
    }

    @Test func errorMessageFromTheRecorded401() throws {
        let message = OpenWeatherMapDecoder.errorMessage(try CoreFixtures.bytes("owm-error-401.json"))
        #expect(message?.hasPrefix("Invalid API key.") == true)
        #expect(
            OpenWeatherMapDecoder.errorMessage(Array(#"{"cod":"404","message":"city not found"}"#.utf8))
                == "city not found")
        #expect(OpenWeatherMapDecoder.errorMessage(Array("<html/>".utf8)) == nil)
    }

    @Test(arguments: [
        (200, 95), (232, 95), (300, 51), (301, 53), (302, 55), (321, 80), (500, 61), (501, 63), (504, 65), (511, 66),
        (520, 80), (531, 82), (600, 71), (601, 73), (602, 75), (611, 66), (613, 67), (620, 85), (622, 86), (701, 45),
        (741, 45), (800, 0), (801, 1), (802, 2), (803, 3), (804, 3),
    ])
    func conditionIdsMapOntoWMO(id: Int, wmo: Int) {
        #expect(OpenWeatherMapConditions.wmoCode(id) == wmo)
        #expect(WMOCode.description(wmo, language: .en) != nil)
    }

    @Test(arguments: [0, 199, 400, 900, 999]) func unknownIdsAreNil(id: Int) {
        #expect(OpenWeatherMapConditions.wmoCode(id) == nil)
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz owm`, bench/README.md).

    @Test func aStepTimeBeyondAnyDateIsRefusedRatherThanATrap() throws {
        // `dt + city.timezone` overflowed Int and trapped; a step outside 1970–2200 is no step (left
        // out and named, as any unreadable step is).
        for dt in ["9223372036854775807", "-9223372036854775808", "253402214400", "-1"] {
            let forecast = #"{"city":{"timezone":7200},"list":[{"dt":\#(dt),"main":{"temp":280}}]}"#
            let r = try OpenWeatherMapDecoder.decode(
                current: Array(#"{"main":{"temp":280}}"#.utf8), forecast: Array(forecast.utf8), coordinate: here,
                fetchedAt: Date(timeIntervalSince1970: 1_769_774_400))
            #expect(r.daily.isEmpty, "dt \(dt)")
            #expect(r.valueProblems.map(\.field) == ["daily"], "dt \(dt)")
        }
    }

    @Test func anOffsetBeyondAnyZoneIsNone() throws {
        let forecast = #"{"city":{"timezone":9223372036854775807},"list":[{"dt":1769774400,"main":{"temp":280}}]}"#
        let r = try OpenWeatherMapDecoder.decode(
            current: Array(#"{"main":{"temp":280},"timezone":-9223372036854775808}"#.utf8),
            forecast: Array(forecast.utf8), coordinate: here, fetchedAt: Date(timeIntervalSince1970: 1_769_774_400))
        // No usable offset: the days are UTC's, as when none is sent.
        #expect(r.utcOffsetS == 0)
        #expect(r.daily.map(\.date) == ["2026-01-30"])
    }

    @Test func aSunriseOutside1970To2200IsUnknownNamedNotAFact() throws {
        let current = #"{"main":{"temp":280},"sys":{"sunrise":9223372036854775807,"sunset":-1661882248}}"#
        let r = try OpenWeatherMapDecoder.decode(
            current: Array(current.utf8), forecast: nil, coordinate: here,
            fetchedAt: Date(timeIntervalSince1970: 1_769_774_400))
        #expect(r.today?.sunrise == nil && r.today?.sunset == nil)
        #expect(r.valueProblems.map(\.field).sorted() == ["today.sunrise", "today.sunset"])
        #expect(r.current.temperatureC != nil)
    }
}
