import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// The "Today" line on a day without sunrise or sunset says which, in each language.
@Suite struct TodayLineTests {
    typealias F = DisplayFixture

    func text(_ daylight: PolarDaylight, _ language: Language) -> String {
        var weather = F.weather()
        weather.today = TodaySummary(minC: -12, maxC: -8, daylight: daylight)
        return ReadingText.render(
            F.reading(weather: weather), now: F.fetched, options: DisplayOptions(language: language))
    }

    @Test func polarNightAndDayAreNamedNotDashed() {
        #expect(text(.polarNight, .en).contains("Today: min -12 °C, max -8 °C · polar night"))
        #expect(text(.polarDay, .en).contains("· polar day"))
        #expect(text(.polarNight, .ru).contains("полярная ночь"))
        #expect(text(.polarDay, .zh).contains("极昼"))
        #expect(!text(.polarNight, .en).contains("sunrise"))
    }

    /// A reading fetched on Friday at noon, shown on Saturday morning (the launch screen, `line`, a
    /// live screen past midnight): "Today" is Saturday's, and the days start there; before, Friday's
    /// min and max read as today's until the next reading.
    @Test func pastMidnightTodayIsTheNewDays() throws {
        let saturday = F.fetched.addingTimeInterval(18 * 3600)
        let text = ReadingText.render(F.reading(), now: saturday, options: DisplayOptions(utcOffsetS: 0))
        #expect(text.contains("Today: min -3 °C, max 2 °C"), "\(text)")
        #expect(!text.contains("Today: min -1 °C"))
        let frame = LiveScreen.render(
            LiveScreen.State(reading: F.reading()), now: saturday, width: 80, height: 24,
            options: DisplayOptions(utcOffsetS: 0))
        #expect(frame.contains { $0.hasPrefix("Today: min -3 °C, max 2 °C") }, "\(frame)")
        // The same day: as fetched.
        #expect(
            ReadingText.render(
                F.reading(), now: F.fetched.addingTimeInterval(3600), options: DisplayOptions(utcOffsetS: 0)
            )
            .contains("Today: min -1 °C, max 5 °C"))
        // line's sunrise is the new day's (NOAA's, as the provider gave Friday's only).
        let friday = StatusLine(
            reading: F.reading(), format: "%S", now: F.fetched, options: DisplayOptions(utcOffsetS: 0), periodicMin: 30)
        let next = StatusLine(
            reading: F.reading(), format: "%S", now: saturday, options: DisplayOptions(utcOffsetS: 0), periodicMin: 30)
        #expect(friday.text == "07:00")
        #expect(next.text.hasPrefix("~"), "18 h after the reading: stale")
        #expect(next.text.dropFirst() != "07:00" && !next.text.contains("—"), "\(next.text)")
    }
}
