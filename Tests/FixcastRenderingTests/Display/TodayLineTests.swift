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
}
