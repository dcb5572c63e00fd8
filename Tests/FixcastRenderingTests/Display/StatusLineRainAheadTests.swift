import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// `fixcast line`'s `%r` and waybar's `rain-ahead` class from the reading's ahead forecast.
@Suite struct StatusLineRainAheadTests {
    typealias F = DisplayFixture

    func reading(rainInMin: Int?) -> Reading {
        var r = F.reading()
        r.ahead = AheadForecast(
            basis: .route, madeAt: F.fetched, from: AheadForecast.Origin(coordinate: F.berlin, fixTime: nil),
            speedMps: 20, speedSource: .gps, samples: [],
            rain: rainInMin.map { AheadForecast.Rain(inMin: $0, atKm: 63, place: "Kyritz", mmH: 1.2) })
        return r
    }

    func line(_ r: Reading, after s: Double, options: DisplayOptions = DisplayOptions(utcOffsetS: 0)) -> StatusLine {
        StatusLine(reading: r, format: "%l %r", now: F.fetched.addingTimeInterval(s), options: options, periodicMin: 30)
    }

    @Test func rainAheadIsCountedFromNowAndClassed() {
        let fresh = line(reading(rainInMin: 45), after: 0)
        #expect(fresh.text == "Berlin rain in 45 min")
        #expect(fresh.classes == ["ok", "rain-ahead"])
        // Ten minutes later the same forecast's rain is 35 min away.
        #expect(line(reading(rainInMin: 45), after: 600).text == "Berlin rain in 35 min")
        let ru = line(reading(rainInMin: 45), after: 0, options: DisplayOptions(language: .ru, utcOffsetS: 0))
        #expect(ru.text == "Berlin дождь через 45 мин")
        let zh = line(reading(rainInMin: 45), after: 0, options: DisplayOptions(language: .zh, utcOffsetS: 0))
        #expect(zh.text == "Berlin 45 分钟后有雨")
    }

    @Test func noRainAheadNoForecastOrItsTimePassedSaysNothing() {
        for (r, after) in [(reading(rainInMin: nil), 0.0), (F.reading(), 0), (reading(rainInMin: 45), 45 * 60 + 31)] {
            let l = line(r, after: after)
            #expect(l.text == "Berlin ")
            #expect(!l.classes.contains("rain-ahead"))
        }
        #expect(line(reading(rainInMin: 45), after: 45 * 60).text == "Berlin rain in 0 min")
    }

    @Test func waybarCarriesTheClassWithStale() throws {
        let l = line(reading(rainInMin: 90), after: 3_700)
        #expect(l.classes == ["stale", "rain-ahead"])
        let json = try JSONValue.parse(StatusLineOutput.waybar.render(l).trimmingCharacters(in: .newlines))
        #expect(json["class"]?.arrayValue?.compactMap(\.stringValue) == ["stale", "rain-ahead"])
        #expect(json["text"]?.stringValue == "~Berlin rain in 28 min")
    }
}

extension StatusLineRainAheadTests {
    /// The reading (and its forecast) stamped 10 min ahead of the clock: its rain counts from when it
    /// was made, and the line is marked stale, as its age is not known (`ClockStep`).
    @Test func aForecastStampedAfterNowCountsFromWhenItWasMade() {
        #expect(line(reading(rainInMin: 45), after: -600).text == "~Berlin rain in 45 min")
        #expect(line(reading(rainInMin: 45), after: -60).text == "Berlin rain in 45 min")
    }
}
