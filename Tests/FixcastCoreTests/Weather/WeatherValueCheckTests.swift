import FixcastText
import Foundation
import Testing

@testable import FixcastCore

/// Weather values outside their physical range, non-finite or unreadable become unknown, each with a
/// `weather:` problem naming the field; the rest of the report is kept (issue 11, item 5).
@Suite struct WeatherValueCheckTests {
    static let hostile: URL = CoreFixtures.api.deletingLastPathComponent().appendingPathComponent("hostile")
    static func hostileBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: hostile.appendingPathComponent(name)))
    }

    /// The problem for `field`, if the report has one.
    func problem(_ r: WeatherReport, _ field: String) -> WeatherValueProblem? {
        r.valueProblems.first { $0.field == field }
    }

    func report(_ c: CurrentConditions, daily: [DailyForecast] = []) -> WeatherReport {
        WeatherReport(
            provider: .openMeteo, fetchedAt: Date(timeIntervalSince1970: 0), coordinate: Coordinate(lat: 1, lon: 1)!,
            current: c, daily: daily)
    }

    @Test func openMeteoHostileBodyKeepsTheReportAndNamesEveryBadField() throws {
        let r = try OpenMeteoDecoder.decode(
            Self.hostileBytes("open-meteo-forecast-hostile.json"), coordinate: Coordinate(lat: 55.68, lon: 12.57)!,
            fetchedAt: UTCTime.parse("2026-07-26T21:00:00Z")!)
        let c = r.current
        #expect(c.temperatureC == nil && problem(r, "temperature_c") != nil)
        #expect(c.humidityPct == nil)
        #expect(
            problem(r, "humidity_pct")?.message
                == "weather: the provider sent humidity_pct 500 %, outside 0–100; shown as unknown.")
        #expect(c.feelsLikeC == nil && problem(r, "feels_like_c")?.cause == .absurd, "1e308")
        #expect(c.precipitationMm == nil && problem(r, "precipitation_mm") != nil)
        #expect(c.weatherCode == nil && problem(r, "weather_code")?.cause == .unknownCode(9999))
        #expect(c.windSpeedMps == nil && problem(r, "wind_speed_mps") != nil)
        #expect(c.windGustMps == nil && problem(r, "wind_gust_mps") != nil)
        #expect(c.windDirDeg == 0, "720° is north")
        #expect(problem(r, "wind_dir_deg") == nil)
        #expect(c.pressureHpa == nil && problem(r, "pressure_hpa")?.message.contains("not a number") == true)
        #expect(c.cloudCoverPct == nil && problem(r, "cloud_cover_pct")?.cause == .absurd, "1e999 is infinity")
        #expect(c.dewPointC == 12.5, "a good value next to bad ones is kept")
        // One bad sunrise loses that sunrise; the days, their sunsets and the rest stay.
        #expect(r.daily.count == 7)
        #expect(problem(r, "daily[0].sunrise") != nil)
        let today = try #require(r.today)
        #expect(today.sunrise == nil)
        #expect(today.sunset == UTCTime.parse("2026-07-26T19:28:00Z"))
        #expect(r.daily[1].maxC == nil && problem(r, "daily[1].max_c") != nil)
        #expect(r.daily[1].minC != nil)
        #expect(r.daily[2].weatherCode == nil && problem(r, "daily[2].weather_code") != nil)
        #expect(r.daily[3].precipitationMm == nil && problem(r, "daily[3].precipitation_mm") != nil)
        #expect(r.daily[4].maxC != nil && r.daily[4].weatherCode != nil)
        for p in r.valueProblems {
            #expect(p.message.hasPrefix("weather: the provider sent "), "\(p.message)")
            #expect(p.message.hasSuffix("shown as unknown."))
            #expect(!p.message.contains("e+"), "no 1e+308 in a message: \(p.message)")
            #expect(p.component == .weather)
        }
    }

    @Test func openWeatherMapHostileBody() throws {
        let r = try OpenWeatherMapDecoder.decode(
            current: Self.hostileBytes("owm-current-hostile.json"), forecast: nil,
            coordinate: Coordinate(lat: 44.34, lon: 10.99)!,
            fetchedAt: Date(timeIntervalSince1970: 1_661_870_592))
        let c = r.current
        #expect(c.temperatureC == nil && problem(r, "temperature_c")?.cause == .absurd)
        #expect(c.feelsLikeC != nil, "the feels-like next to it is kept")
        #expect(c.humidityPct == nil && problem(r, "humidity_pct") != nil)
        #expect(c.pressureHpa == nil && problem(r, "pressure_hpa") != nil, "sea level 5000 hPa")
        #expect(c.windSpeedMps == nil && problem(r, "wind_speed_mps") != nil)
        #expect(c.windGustMps == nil && problem(r, "wind_gust_mps") != nil)
        #expect(c.windDirDeg == 270, "-90° is west")
        #expect(c.cloudCoverPct == nil && problem(r, "cloud_cover_pct") != nil)
        #expect(c.weatherCode != nil)
        #expect(c.precipitationMm == 3.16)
        #expect(r.today?.sunrise == nil && problem(r, "today.sunrise") != nil)
        #expect(r.today?.sunset != nil)
        #expect(r.today?.maxC == nil && problem(r, "today.max_c") != nil, "temp_max 1000 K")
    }

    @Test func metNorwayHostileBody() throws {
        let r = try MetNorwayDecoder.decode(
            Self.hostileBytes("metno-compact-hostile.json"), coordinate: Coordinate(lat: 59.91, lon: 10.75)!,
            fetchedAt: UTCTime.parse("2024-02-04T01:30:00Z")!)
        let c = r.current
        #expect(c.temperatureC == nil && problem(r, "temperature_c") != nil)
        #expect(c.humidityPct == nil && problem(r, "humidity_pct") != nil)
        #expect(c.windSpeedMps == nil && problem(r, "wind_speed_mps") != nil)
        #expect(c.windGustMps == nil && problem(r, "wind_gust_mps") != nil)
        #expect(c.windDirDeg == 0.5, "1080.5° is 0.5°")
        #expect(c.pressureHpa == nil && problem(r, "pressure_hpa")?.cause == .absurd)
        #expect(c.cloudCoverPct == nil && problem(r, "cloud_cover_pct") != nil)
        #expect(c.weatherCode != nil)
        // The −300 °C step is left out of the day's range; the other steps make it.
        let today = try #require(r.daily.first)
        #expect(today.minC.map { $0 > -100 } == true)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e308, -1e7])
    func nonFiniteAndAbsurdValuesAreUnknown(_ v: Double) {
        let r = WeatherValueRanges.checked(report(CurrentConditions(temperatureC: v, windDirDeg: v)))
        #expect(r.current.temperatureC == nil)
        #expect(r.current.windDirDeg == nil)
        #expect(r.valueProblems.map(\.field) == ["temperature_c", "wind_dir_deg"])
        #expect(r.valueProblems.allSatisfy { $0.cause == .absurd })
    }

    @Test func boundsAreInclusiveAndEachFieldHasItsRange() {
        let edge = CurrentConditions(
            temperatureC: 70, feelsLikeC: -120, humidityPct: 0, dewPointC: -100, pressureHpa: 1100, windSpeedMps: 120,
            windGustMps: 150, windDirDeg: 359.9, precipitationMm: 500, cloudCoverPct: 100, weatherCode: 0)
        let ok = WeatherValueRanges.checked(report(edge))
        #expect(ok.valueProblems.isEmpty, "\(ok.valueProblems)")
        #expect(ok.current == edge)
        let over = CurrentConditions(
            temperatureC: 70.1, feelsLikeC: -120.1, humidityPct: -0.1, dewPointC: -100.1, pressureHpa: 799.9,
            windSpeedMps: 120.1, windGustMps: -0.1, windDirDeg: nil, precipitationMm: 500.1, cloudCoverPct: 100.1,
            weatherCode: 4)
        let bad = WeatherValueRanges.checked(report(over))
        #expect(bad.current == CurrentConditions())
        #expect(bad.valueProblems.count == 10)
    }

    /// A unit conversion or a sum left its floating-point noise in the JSON, the store and the
    /// exports ("wind_speed_mps": 4.166666666666667 from 15 km/h); a provider's own 0.1 is kept.
    @Test func valuesAreKeptToHundredthsAndAProvidersOwnAreUnchanged() throws {
        let noisy = CurrentConditions(
            temperatureC: 298.48 - 273.15, feelsLikeC: (31.3 - 32) * 5 / 9, humidityPct: 81,
            pressureHpa: 29.92 * 33.8639,
            windSpeedMps: 15 / 3.6, windGustMps: 32.8 / 3.6, windDirDeg: 250.5, precipitationMm: 0.44 + 0.44 + 0.44)
        var input = report(noisy)
        input.daily = [DailyForecast(date: "2026-12-04", minC: -0.1 - 0.2, maxC: 3.1, precipitationMm: 0.1 + 0.2)]
        let r = WeatherValueRanges.checked(input)
        #expect(r.current.temperatureC == 25.33)
        #expect(r.current.feelsLikeC == -0.39)
        #expect(r.current.pressureHpa == 1013.21)
        #expect(r.current.windSpeedMps == 4.17)
        #expect(r.current.windGustMps == 9.11)
        #expect(r.current.precipitationMm == 1.32)
        #expect(r.current.humidityPct == 81 && r.current.windDirDeg == 250.5)
        let day = try #require(r.daily.first)
        #expect(day.minC == -0.3 && day.maxC == 3.1 && day.precipitationMm == 0.3)
        #expect(r.valueProblems.isEmpty)
    }

    @Test func dailyPrecipitationMayExceedAnHoursRecord() {
        let r = WeatherValueRanges.checked(
            report(CurrentConditions(), daily: [DailyForecast(date: "2026-01-01", precipitationMm: 1200)]))
        #expect(r.daily[0].precipitationMm == 1200)
        #expect(r.valueProblems.isEmpty)
    }

    @Test func aWindDirectionIsFoldedIntoACircle() {
        let r = WeatherValueRanges.checked(report(CurrentConditions(windDirDeg: -90)))
        #expect(r.current.windDirDeg == 270)
    }

    @Test func theProblemsTextForAnOutOfRangeValue() {
        let p = WeatherValueProblem(
            field: "pressure_hpa", cause: .outOfRange(value: 1234.56, range: WeatherValueRanges.pressure))
        #expect(p.message == "weather: the provider sent pressure_hpa 1234.6 hPa, outside 800–1100; shown as unknown.")
    }
}

@Suite struct WeatherValueProblemTextTests {
    @Test func aProvidersUnitNameCannotReachATerminalRaw() throws {
        // An unknown unit whose name carries an escape sequence, a bidi override and a newline.
        let unit = "\u{1B}]0;pwned\u{07}\u{202E}km\nh\u{9B}"
        let body =
            #"{"current_units":{"wind_speed_10m":"\#(unit.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? String(format: "\\u%04x", $0.value) : String($0) }.joined())"},"current":{"wind_speed_10m":5}}"#
        let r = try OpenMeteoDecoder.decode(
            Array(body.utf8), coordinate: Coordinate(lat: 1, lon: 1)!, fetchedAt: Date())
        let message = try #require(r.valueProblems.first?.message)
        #expect(r.current.windSpeedMps == nil)
        #expect(
            !message.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
            }, "\(message.debugDescription)")
        #expect(message.contains("]0;pwnedkm h"))
    }

    @Test func aProvidersTextIsOneLineWithoutBidiMarksAndCapped() {
        // The line separator and the Arabic letter mark are unsafe too (TerminalText.isUnsafe).
        let p = WeatherValueProblem(
            field: "x", cause: .unreadable(detail: "a\u{2028}b\u{061C}c" + String(repeating: "z", count: 300)))
        #expect(p.message.contains("(a bc"))
        #expect(!p.message.unicodeScalars.contains { TerminalText.isUnsafe($0) })
        #expect(p.message.contains("z…)"))
        #expect(p.message.count < 160 + 120)
    }
}
