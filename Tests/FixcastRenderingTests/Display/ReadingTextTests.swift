import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

@Suite(.scratch) struct ReadingTextTests {
    typealias F = DisplayFixture
    let threeMinutesLater = F.fetched.addingTimeInterval(185)

    @Test func showsEveryFieldInMetric() {
        let text = ReadingText.render(F.reading(), now: threeMinutesLater)
        #expect(text.contains("Berlin, Germany"))
        #expect(!text.contains("Berlin, Berlin"))  // the same name is said once
        #expect(text.contains("52.5200° N, 13.4138° E"))
        #expect(text.contains("GPS 3D fix, 9 sats, 3 min ago"))
        #expect(text.contains(F.description(3) + ", 3 °C, feels like 0 °C"))
        #expect(text.contains("Humidity 81 % · Dew point 0 °C · Pressure 1013 hPa"))
        #expect(text.contains("Wind 4.2 m/s WSW (250°), gusts 9.0 m/s"))
        #expect(text.contains("Precipitation 0.0 mm · Cloud cover 75 %"))
        #expect(text.contains("Today: min -1 °C, max 5 °C · sunrise 07:00 · sunset 16:30"))
        #expect(text.contains("Fri 30"))
        #expect(text.contains("Sat 31"))
        #expect(text.contains("! Storm warning (severe), until Sat 31 12:00 — DWD"))
        #expect(text.contains("open-meteo · updated 3 min ago"))
        #expect(!text.contains("cached"))
        #expect(!text.contains("stale"))
    }

    @Test func imperialChangesOnlyTheDisplay() {
        let text = ReadingText.render(F.reading(), now: threeMinutesLater, options: DisplayOptions(units: .imperial))
        #expect(text.contains("38 °F"))
        #expect(text.contains("feels like 31 °F"))
        #expect(text.contains("9 mph"))
        #expect(text.contains("29.92 inHg"))
        #expect(text.contains("0.00 in"))
        #expect(!text.contains("°C"))
        #expect(!text.contains("m/s"))
        #expect(!text.contains("hPa"))
    }

    @Test func cachedAndStaleAreSaidWithTheAge() {
        let text = ReadingText.render(
            F.reading(weather: F.weather(cached: true, stale: true)),
            now: F.fetched.addingTimeInterval(2 * 3600 + 5 * 60))
        #expect(text.contains("updated 2 h 5 min ago · cached · stale: could not refresh"))
    }

    @Test func unknownFieldsAreDashesNotZeros() {
        let reading = F.reading(weather: F.weather(current: CurrentConditions()))
        let text = ReadingText.render(reading, now: F.fetched)
        #expect(text.contains("—, feels like —"))
        #expect(text.contains("Humidity — · Dew point — · Pressure —"))
        #expect(text.contains("Wind —, gusts —"))
        #expect(text.contains("Precipitation — · Cloud cover —"))
        #expect(!text.contains("0 %"))
        #expect(!text.contains("0.0 m/s"))
        // The day without data.
        #expect(text.contains("— … — °C"))
    }

    @Test func noWeatherSaysSoAndListsTheErrors() {
        // Messages start with their component (UserFacingError): each is shown once, as it is.
        let issue = ReadingIssue(component: .weather, message: "weather: open-meteo answered 503; try again later.")
        let gps = ReadingIssue(component: .gps, message: "gps: gpsd at 127.0.0.1:2947 is not answering; start gpsd.")
        let text = ReadingText.render(F.reading(weather: nil, errors: [issue, gps]), now: F.fetched)
        #expect(text.contains("No weather data."))
        #expect(text.contains("! weather: open-meteo answered 503; try again later."))
        #expect(text.contains("! gps: gpsd at 127.0.0.1:2947 is not answering; start gpsd."))
        #expect(!text.contains("weather: weather:") && !text.contains("gps: gps:"))
        #expect(!text.contains("updated"))
    }

    @Test func positionSourcesAreHonest() {
        let old = F.position(source: .lastKnown, obtainedAt: F.fetched.addingTimeInterval(-3 * 86_400))
        #expect(ReadingText.render(F.reading(position: old), now: F.fetched).contains("last known position, 3 d ago"))
        #expect(
            ReadingText.render(F.reading(position: F.position(source: .manual)), now: F.fetched).contains(
                "fixed position"))
        #expect(ReadingText.render(F.reading(position: nil), now: F.fetched).contains("No position yet"))
    }

    @Test func localTimeUsesTheOffset() {
        let text = ReadingText.render(F.reading(), now: F.fetched, options: DisplayOptions(utcOffsetS: 3600))
        #expect(text.contains("sunrise 08:00 · sunset 17:30"))
    }

    @Test func russianAndChineseLabels() {
        let ru = ReadingText.render(F.reading(), now: threeMinutesLater, options: DisplayOptions(language: .ru))
        #expect(ru.contains("Влажность 81 %"))
        #expect(ru.contains("ЗЮЗ"))
        #expect(ru.contains("обновлено 3 мин назад"))
        #expect(ru.contains("Пт 30"))
        let zh = ReadingText.render(F.reading(), now: threeMinutesLater, options: DisplayOptions(language: .zh))
        #expect(zh.contains("湿度 81 %"))
        #expect(zh.contains("更新于3 分钟前"))
        #expect(zh.contains(F.description(71, .zh)))
    }
}
