import Foundation
import Testing

@testable import FixcastCore

/// Today's min/max from the hourly temperatures when the daily block has no row for today.
@Suite struct OpenMeteoHourlyRangeTests {
    let here = Coordinate(lat: 55.68, lon: 12.57)!
    let fetchedAt = UTCTime.parse("2026-07-26T21:00:00Z")!

    @Test func withoutADailyBlockTodaysRangeComesFromTheHours() throws {
        var source = try CoreFixtures.object("open-meteo-forecast.json")
        source["daily"] = nil
        source["daily_units"] = nil
        let body = [UInt8](try JSONSerialization.data(withJSONObject: source))
        let report = try OpenMeteoDecoder.decode(body, coordinate: here, fetchedAt: fetchedAt)
        let hourly = try #require(source["hourly"] as? [String: Any])
        let times = try #require(hourly["time"] as? [String])
        let temps = try #require(hourly["temperature_2m"] as? [NSNumber]).map(\.doubleValue)
        let todays = zip(times, temps).filter { $0.0.hasPrefix("2026-07-26") }.map(\.1)
        #expect(todays.count == 24)
        #expect(report.today?.minC == todays.min())
        #expect(report.today?.maxC == todays.max())
        #expect(report.daily.isEmpty)
    }

    @Test func theDailyRowWinsWhenThereIsOne() throws {
        let report = try OpenMeteoDecoder.decode(
            CoreFixtures.bytes("open-meteo-forecast.json"), coordinate: here, fetchedAt: fetchedAt)
        let source = try CoreFixtures.object("open-meteo-forecast.json")
        let daily = try #require(source["daily"] as? [String: Any])
        #expect(report.today?.minC == (daily["temperature_2m_min"] as? [NSNumber])?.first?.doubleValue)
    }

    @Test func noHoursForTodayLeavesTheRangeUnknown() throws {
        let december = UTCTime.parse("2026-12-01T12:00:00Z")!
        let report = try OpenMeteoDecoder.decode(
            CoreFixtures.bytes("open-meteo-forecast.json"), coordinate: here, fetchedAt: december)
        #expect(report.today == nil)
    }
}
