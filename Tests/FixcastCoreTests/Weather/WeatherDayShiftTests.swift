import Foundation
import Testing

@testable import FixcastCore

/// A stored report shown on a later day than it was fetched: its today and its days are that day's.
@Suite struct WeatherDayShiftTests {
    /// Kings Beach: mean solar time is UTC − 8 h, so 19:00 UTC is 11:00 there.
    let kingsBeach = Coordinate(lat: 39.24, lon: -120.02)!

    func at(_ text: String) -> Date { UTCTime.parse(text)! }

    /// Fetched on 1 December at 11:00 there: seven days from the 1st, the provider's own sunrise and sunset.
    func report(at place: Coordinate? = nil, fetched: String = "2026-12-01T19:00:00Z", days: Int = 7) -> WeatherReport {
        var r = WeatherReport(
            provider: .openMeteo, fetchedAt: at(fetched), coordinate: place ?? kingsBeach,
            current: CurrentConditions(temperatureC: 3),
            today: TodaySummary(
                minC: -2, maxC: 4, sunrise: at("2026-12-01T15:05:00Z"), sunset: at("2026-12-02T00:45:00Z")))
        r.daily = (1...days).map { d in
            DailyForecast(date: "2026-12-0\(d)", minC: Double(-3 + d), maxC: Double(5 + d), weatherCode: 3)
        }
        return r
    }

    @Test func threeDaysLaterTodayAndTheDaysAreThatDays() throws {
        let shown = WeatherDayShift.shown(report(), at: at("2026-12-04T19:00:00Z"))
        #expect(shown.daily.map(\.date) == ["2026-12-04", "2026-12-05", "2026-12-06", "2026-12-07"])
        let today = try #require(shown.today)
        #expect(today.minC == 1 && today.maxC == 9, "the 4th's row, not the 1st's -2 … 4")
        // The provider's times were the 1st's: the 4th's are NOAA's, and named as computed.
        let rise = try #require(today.sunrise)
        let set = try #require(today.sunset)
        #expect(WeatherDerivation.localDate(of: rise, at: kingsBeach) == "2026-12-04")
        #expect(rise > at("2026-12-04T14:30:00Z") && rise < at("2026-12-04T15:30:00Z"), "\(rise)")
        #expect(set > at("2026-12-05T00:15:00Z") && set < at("2026-12-05T01:15:00Z"), "\(set)")
        #expect(shown.derived == [.sunrise, .sunset])
        // What was measured stays as it was, with its own age.
        #expect(shown.current == report().current)
        #expect(shown.fetchedAt == report().fetchedAt)
    }

    @Test func onTheDayItWasFetchedNothingMoves() {
        #expect(WeatherDayShift.shown(report(), at: at("2026-12-01T19:30:00Z")) == report())
        // Hours later, the same day there (23:59 solar time).
        #expect(WeatherDayShift.shown(report(), at: at("2026-12-02T07:59:00Z")) == report())
    }

    @Test func aReportYoungerThanAnHourIsShownAsFetchedEvenAcrossMidnight() {
        // Fetched at 23:30 solar time, shown at 00:20: a new solar day, but minutes old.
        let late = report(fetched: "2026-12-02T07:30:00Z")
        #expect(WeatherDayShift.shown(late, at: at("2026-12-02T08:20:00Z")) == late)
        // An hour and more after it, the new day is taken.
        let shown = WeatherDayShift.shown(late, at: at("2026-12-02T08:31:00Z"))
        #expect(shown.daily.first?.date == "2026-12-02")
        #expect(shown.today?.minC == -1)
    }

    @Test func whenEveryDayHasGoneNoneIsShownAndTodaysRangeIsUnknown() throws {
        let shown = WeatherDayShift.shown(report(days: 3), at: at("2026-12-08T19:00:00Z"))
        #expect(shown.daily.isEmpty)
        let today = try #require(shown.today)
        #expect(today.minC == nil && today.maxC == nil)
        #expect(today.sunrise != nil && today.sunset != nil)
    }

    @Test func theProvidersTimesAreKeptWhenTheyFallOnTheDayShown() throws {
        var r = report()
        // A provider whose today already carried the 2nd's times (fetched just before solar midnight).
        r.today?.sunrise = at("2026-12-02T15:06:00Z")
        r.today?.sunset = at("2026-12-03T00:45:00Z")
        let shown = WeatherDayShift.shown(r, at: at("2026-12-02T19:00:00Z"))
        #expect(shown.today?.sunrise == at("2026-12-02T15:06:00Z"))
        #expect(shown.today?.sunset == at("2026-12-03T00:45:00Z"))
        #expect(shown.derived.isEmpty)
    }

    @Test func inThePolarNightTheDaySaysSo() throws {
        let tromso = Coordinate(lat: 69.65, lon: 18.96)!
        let shown = WeatherDayShift.shown(
            report(at: tromso, fetched: "2026-12-01T11:00:00Z"), at: at("2026-12-04T11:00:00Z"))
        let today = try #require(shown.today)
        #expect(today.daylight == .polarNight)
        #expect(today.sunrise == nil && today.sunset == nil)
        #expect(shown.derived == [.sunrise, .sunset])
    }

    @Test func shownTwiceItIsTheSame() {
        let once = WeatherDayShift.shown(report(), at: at("2026-12-04T19:00:00Z"))
        #expect(WeatherDayShift.shown(once, at: at("2026-12-04T19:00:00Z")) == once)
    }

    /// Apia, Samoa: UTC + 13 h on the clock, while the sun there runs UTC − 11.45 h. The provider's
    /// dates are the clock's; by the sun's, a stored report was moved a day late all day long.
    @Test func theReportsOwnTimeZoneSaysTheDayEvenWhereTheDateLineBends() throws {
        let apia = Coordinate(lat: -13.83, lon: -171.77)!
        // Fetched at 23:00 on Friday 4 there (10:00 UTC); rows Fri 4, Sat 5, Sun 6.
        var r = WeatherReport(
            provider: .openMeteo, fetchedAt: at("2026-12-04T10:00:00Z"), coordinate: apia,
            current: CurrentConditions(temperatureC: 27), today: TodaySummary(minC: 24, maxC: 30))
        r.daily = [4, 5, 6].map { DailyForecast(date: "2026-12-0\($0)", minC: Double(20 + $0), maxC: Double(30 + $0)) }
        r.utcOffsetS = 13 * 3600
        // Two hours later it is 01:00 on Saturday there (by the sun, still Friday).
        let shown = WeatherDayShift.shown(r, at: at("2026-12-04T12:00:00Z"))
        #expect(shown.daily.map(\.date) == ["2026-12-05", "2026-12-06"])
        #expect(shown.today?.minC == 25 && shown.today?.maxC == 35)
        // Saturday's sunrise there, not Sunday's (the sun's date of Saturday there is Friday).
        let rise = try #require(shown.today?.sunrise)
        #expect(UTCTime.formatDate(rise.addingTimeInterval(13 * 3600)) == "2026-12-05", "\(rise)")
        // Without the time zone (a report an older fixcast stored), the sun's date is all there is:
        // fetched on Thursday 3 and shown on Friday 4 by it, so Friday's row, a day behind the clock.
        var unzoned = r
        unzoned.utcOffsetS = nil
        let bySun = WeatherDayShift.shown(unzoned, at: at("2026-12-04T12:00:00Z"))
        #expect(bySun.daily.first?.date == "2026-12-04" && bySun.today?.maxC == 34)
    }

    /// With its time zone known, a report fetched minutes before midnight is moved minutes after it:
    /// the hour's guard is only for the sun's guess.
    @Test func aYoungReportIsMovedPastMidnightWhenItsTimeZoneIsKnown() throws {
        var r = report()  // fetched 1 December, 19:00 UTC
        r.utcOffsetS = -5 * 3600  // 14:00 there; midnight there is 05:00 UTC on the 2nd
        #expect(WeatherDayShift.shown(r, at: at("2026-12-02T04:50:00Z")) == r)
        let shown = WeatherDayShift.shown(r, at: at("2026-12-02T05:10:00Z"))
        #expect(shown.daily.first?.date == "2026-12-02")
        #expect(shown.today?.minC == -1 && shown.today?.maxC == 7)
    }

    /// The time zone is kept with the cached report (the store's JSON), not in the reading JSON.
    @Test func theTimeZoneTravelsWithTheStoredReportOnly() throws {
        var r = report()
        r.utcOffsetS = 19_800  // India, +5:30
        let stored = try #require(WeatherReport(json: r.storedJSON(language: .en)))
        #expect(stored.utcOffsetS == 19_800)
        #expect(r.json(language: .en)[WeatherReport.storedUTCOffsetKey] == nil)
        #expect(WeatherReport(json: r.json(language: .en))?.utcOffsetS == nil)
        // An offset no place has is none.
        var absurd = r.storedJSON(language: .en)
        if case .object(var members) = absurd {
            members.removeAll { $0.0 == WeatherReport.storedUTCOffsetKey }
            members.append((WeatherReport.storedUTCOffsetKey, .int(100 * 3600)))
            absurd = .object(members)
        }
        #expect(WeatherReport(json: absurd)?.utcOffsetS == nil)
    }
}
