import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

@Suite(.scratch) struct ForecastTableTests {
    typealias F = DisplayFixture

    @Test func aRowADayWithAlignedColumns() {
        let text = ForecastTable.render(F.weather().daily, title: "Berlin, Germany")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + 2 + 3)
        #expect(lines[0] == "Berlin, Germany")
        #expect(lines[1].hasPrefix("Date"))
        #expect(
            lines[1].contains("Weather") && lines[1].contains("Min") && lines[1].contains("Max")
                && lines[1].contains("Precip."))
        #expect(lines[3].hasPrefix("2026-01-30 Fri"))
        #expect(lines[3].contains(F.description(3)))
        #expect(lines[3].hasSuffix("0.2 mm"))
        #expect(lines[4].contains("-3 °C") && lines[4].contains("2 °C") && lines[4].hasSuffix("4.6 mm"))
        #expect(lines[5].hasPrefix("2026-02-01 Sun"))
        #expect(lines[5].hasSuffix("—"))
        #expect(!lines[5].contains("0 °C"))
        // Every row as wide as the header: the columns line up.
        let widths = Set(lines[1...].map { TextColumns.width($0) })
        #expect(widths.count == 1)
    }

    /// A day the forecast covers only from a time on (MET Norway's today) says so in the table, the
    /// live screen's days and its today line, at the display's clock; a whole day says nothing.
    @Test func aDayCoveredFromATimeOnSaysFromWhen() throws {
        var days = F.weather().daily
        let from: Date = try #require(UTCTime.parse("2026-01-30T17:00:00Z"))
        days[0].from = from
        let options = DisplayOptions(utcOffsetS: 3600)
        let lines = ForecastTable.render(days, options: options).split(separator: "\n").map(String.init)
        #expect(lines[2].hasPrefix("2026-01-30 Fri from 18:00"))
        #expect(!lines[3].contains("from"))
        #expect(Set(lines[0...].map { TextColumns.width($0) }).count == 1)
        let parts = ReadingParts(options: options, now: Date(timeIntervalSince1970: 0))
        #expect(parts.dayLines(days)[0].hasPrefix("Fri 30 from 18:00"))
        #expect(!parts.dayLines(days)[1].contains("from"))
        let today = TodaySummary(minC: 1, maxC: 4, from: days[0].from)
        #expect(parts.todayLine(today).hasPrefix("Today from 18:00: min 1 °C, max 4 °C"))
        #expect(parts.todayLine(TodaySummary(minC: 1, maxC: 4)).hasPrefix("Today: min 1 °C"))
        let russian = ReadingParts(options: DisplayOptions(language: .ru, utcOffsetS: 3600), now: .now)
        #expect(russian.todayLine(today).hasPrefix("Сегодня с 18:00:"))
    }

    @Test func imperial() {
        let text = ForecastTable.render(F.weather().daily, options: DisplayOptions(units: .imperial))
        #expect(text.contains("30 °F") && text.contains("41 °F") && text.contains("0.18 in"))
        #expect(!text.contains("°C"))
    }

    @Test func noDays() {
        #expect(ForecastTable.render([]) == "No forecast days.\n")
    }

    @Test func chineseColumnsStillLineUp() {
        let text = ForecastTable.render(F.weather().daily, options: DisplayOptions(language: .zh))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("日期"))
        #expect(Set(lines.map { TextColumns.width($0) }).count == 1)
    }
}
