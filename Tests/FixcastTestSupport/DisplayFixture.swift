import FixcastCore
import Foundation

/// A full reading and its variants for the rendering tests.
enum DisplayFixture {
    /// 2026-01-30T12:00:22Z, a Friday.
    static let fetched = Date(timeIntervalSince1970: 1_769_774_422)
    static let berlin = Coordinate(lat: 52.52, lon: 13.4138)!

    static let current = CurrentConditions(
        temperatureC: 3.1, feelsLikeC: -0.4, humidityPct: 81, dewPointC: 0.1, pressureHpa: 1013.2, windSpeedMps: 4.2,
        windGustMps: 9.0, windDirDeg: 250, precipitationMm: 0.0, cloudCoverPct: 75, weatherCode: 3)

    static func weather(cached: Bool = false, stale: Bool = false, current: CurrentConditions = current)
        -> WeatherReport
    {
        WeatherReport(
            provider: .openMeteo, fetchedAt: fetched, coordinate: berlin, cached: cached, stale: stale,
            current: current,
            today: TodaySummary(
                minC: -1, maxC: 5, sunrise: fetched.addingTimeInterval(-5 * 3600),
                sunset: fetched.addingTimeInterval(4 * 3600 + 30 * 60)),
            daily: [
                DailyForecast(date: "2026-01-30", minC: -1, maxC: 5, weatherCode: 3, precipitationMm: 0.2),
                DailyForecast(date: "2026-01-31", minC: -3.4, maxC: 2.2, weatherCode: 71, precipitationMm: 4.6),
                DailyForecast(date: "2026-02-01", minC: nil, maxC: nil, weatherCode: nil, precipitationMm: nil),
            ],
            alerts: [
                WeatherAlert(
                    title: "Storm warning", severity: "severe", ends: fetched.addingTimeInterval(86_400), source: "DWD")
            ])
    }

    static func position(source: PositionSource = .gps, obtainedAt: Date = fetched) -> Position {
        Position(coordinate: berlin, mode: .threeD, obtainedAt: obtainedAt, source: source, satellitesUsed: 9)
    }

    static let place = Place(
        name: "Berlin", region: "Berlin", country: "Germany", countryCode: "DE", source: .nominatim)

    static func reading(
        weather: WeatherReport? = weather(), errors: [ReadingIssue] = [], position: Position? = position()
    ) -> Reading {
        Reading(time: fetched, trigger: .startup, position: position, place: place, weather: weather, errors: errors)
    }

    /// The description the display should use for a code, whether or not the WMO table is filled yet.
    static func description(_ code: Int, _ language: Language = .en) -> String {
        WMOCode.description(code, language: language)
            ?? ["en": "weather code \(code)", "ru": "код погоды \(code)", "zh": "天气代码 \(code)"][language.rawValue]!
    }
}
