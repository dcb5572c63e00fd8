import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

@Suite struct AheadDisplayTests {
    static let t0 = UTCTime.parse("2026-01-30T12:00:00Z")!

    static func forecast(rain: AheadForecast.Rain?, samples: Int = 12, place: String = "Kyritz") -> AheadForecast {
        AheadForecast(
            basis: .route, madeAt: t0,
            from: AheadForecast.Origin(coordinate: Coordinate(lat: 52.5, lon: 13.4)!, fixTime: t0),
            speedMps: 24.1, speedSource: .history,
            route: AheadForecast.Route(name: "Berlin - Hamburg", remainingKm: 231.4),
            samples: (1...max(1, samples)).prefix(samples).map { k in
                AheadForecast.Sample(
                    minutes: 15 * k, eta: t0.addingTimeInterval(Double(900 * k)), distanceKm: 21.7 * Double(k),
                    coordinate: Coordinate(lat: 52.6, lon: 13.1)!, place: place,
                    conditions: AheadConditions(
                        temperatureC: 2.4, precipitationMmH: 0, weatherCode: 3, headwindMps: 4.9))
            }, rain: rain)
    }

    @Test func theHeadlineSaysWhenWhereAndNearWhatTheRainIs() {
        let options = DisplayOptions()
        let wet = Self.forecast(rain: AheadForecast.Rain(inMin: 45, atKm: 63, place: "Kyritz", mmH: 1.2))
        #expect(AheadDisplay.headline(wet, options: options) == "Rain in about 45 min, 63.0 km ahead, near Kyritz.")
        #expect(AheadDisplay.headline(Self.forecast(rain: nil), options: options) == "No rain ahead in the next 3 h.")
        var stale = Self.forecast(rain: nil)
        stale.stale = true
        #expect(AheadDisplay.headline(stale, options: options).hasPrefix("(stale) "))
        #expect(
            AheadDisplay.basisLine(wet, options: options).hasPrefix(
                "Along the route \"Berlin - Hamburg\", 231.4 km left"))
    }

    /// No samples on a route: "the route ends here" only when under a kilometre of it is left; a reach too
    /// short for a sample with 231 km of route left is "nothing ahead", not its end.
    @Test func theRouteEndsOnlyWhereLittleOfItIsLeft() {
        let options = DisplayOptions()
        var short = Self.forecast(rain: nil, samples: 0)
        #expect(AheadDisplay.headline(short, options: options) == "Nothing ahead to forecast.")
        short.route = AheadForecast.Route(name: "Berlin - Hamburg", remainingKm: 0.4)
        #expect(AheadDisplay.headline(short, options: options) == "The route ends here: nothing ahead to forecast.")
    }

    /// "No rain" is said only as far as the forecast gave a precipitation: samples whose hours came
    /// back null are not "no rain" (it said "No rain ahead in the next 3 h" over 1 h of nulls), and
    /// with none known the rain ahead is unknown.
    @Test func noRainReachesOnlyTheLastSampleWhoseRainIsKnown() throws {
        var f = Self.forecast(rain: nil)
        for k in 8..<f.samples.count { f.samples[k].precipitationMmH = nil }
        let lastKnown = try #require(f.samples.last { $0.precipitationMmH != nil })
        #expect(lastKnown.minutes == 120 && f.samples.last?.minutes == 180)
        #expect(AheadDisplay.headline(f, options: DisplayOptions()) == "No rain ahead in the next 2 h.")
        for k in f.samples.indices { f.samples[k].precipitationMmH = nil }
        #expect(AheadDisplay.headline(f, options: DisplayOptions()) == "Rain ahead unknown.")
        #expect(AheadDisplay.headline(f, options: DisplayOptions(language: .ru)) == "Дождь впереди неизвестен.")
        // A value that is not a number is not a known rain either.
        f.samples[0].precipitationMmH = .nan
        #expect(f.lastSampleWithKnownRain == nil)
    }

    /// With `--lang ru` or `zh` the block was English under a translated screen ("Ahead as of 21:22:
    /// Rain in about 15 min, 12.8 mi ahead … against -4 mph").
    @Test func theWordsFollowTheLanguage() {
        let wet = Self.forecast(rain: AheadForecast.Rain(inMin: 75, atKm: 63, place: "Kyritz", mmH: 1.2))
        let ru = DisplayOptions(language: .ru)
        #expect(
            AheadDisplay.headline(wet, options: ru)
                == "Дождь примерно через 1 ч 15 мин, в 63.0 km впереди, около Kyritz.")
        #expect(AheadDisplay.headline(Self.forecast(rain: nil), options: ru) == "Без дождя в ближайшие 3 ч.")
        #expect(
            AheadDisplay.basisLine(wet, options: ru).hasPrefix("По маршруту \"Berlin - Hamburg\", осталось 231.4 km"))
        let block = AheadDisplay.screenLines(wet, options: ru, width: 100)
        #expect(block[0].hasPrefix("Впереди на "), "\(block)")
        #expect(block[1].contains("+15 мин") && block[1].contains("встречный 4.9 m/s"), "\(block)")
        #expect(AheadDisplay.table(wet, options: ru)[0].contains("встречный"))
        let zh = DisplayOptions(language: .zh)
        #expect(AheadDisplay.headline(Self.forecast(rain: nil), options: zh) == "未来 3 小时内前方无雨。")
        for text in block + AheadDisplay.table(wet, options: ru) {
            #expect(!text.contains("ahead") && !text.contains("against") && !text.contains(" min"), "\(text)")
        }
        #expect(DurationText.text(seconds: 10_800, language: .ru) == "3 ч 00 мин")
    }

    @Test func theTableHasAHeaderARuleAndARowPerSample() {
        let lines = AheadDisplay.table(Self.forecast(rain: nil, samples: 4), options: DisplayOptions())
        #expect(lines.count == 2 + 4)
        #expect(
            lines[0].trimmingCharacters(in: .whitespaces).hasPrefix("in") && lines[0].contains("against you")
                && lines[0].hasSuffix("conditions"))
        #expect(lines[2].contains("15 min") && lines[2].contains("Kyritz") && lines[2].contains("+4.9 m/s"))
        #expect(lines[2].hasSuffix("Overcast"))
    }

    @Test func theScreenBlockIsShortCutToTheWidthAndCleaned() {
        let f = Self.forecast(rain: nil, place: "Evil\u{1B}[2JPlace with a very long name that goes on and on and on")
        let lines = AheadDisplay.screenLines(f, options: DisplayOptions(), width: 80)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { TextColumns.width($0) <= 80 && !$0.contains("\u{1B}") })
    }

    @Test func theLiveScreenShowsTheBlockAndStillFits80By24() {
        let reading = Reading(
            time: Self.t0, trigger: .moved,
            position: DisplayFixture.position(obtainedAt: Self.t0), place: DisplayFixture.place,
            weather: DisplayFixture.weather(),
            ahead: Self.forecast(rain: AheadForecast.Rain(inMin: 45, atKm: 63, place: "Kyritz", mmH: 1.2)))
        let lines = LiveScreen.render(
            LiveScreen.State(reading: reading, position: reading.position), now: Self.t0, width: 80, height: 24,
            options: DisplayOptions())
        #expect(lines.count == 24 && lines.allSatisfy { TextColumns.width($0) <= 80 })
        // The block says when it was made (it stays up until the next refresh).
        let madeAt = DisplayTime.clock(Self.forecast(rain: nil).madeAt, DisplayOptions().utcOffset)
        #expect(lines.contains("Ahead as of \(madeAt): Rain in about 45 min, 63.0 km ahead, near Kyritz."))
    }

    static func withAlerts(_ count: Int = 1) -> AheadForecast {
        var f = forecast(rain: nil)
        f.alerts = [
            AheadForecast.AlertAhead(
                id: "a", event: "Wind warning\u{1B}[31m", severity: "severe", inMin: 60, atKm: 85.2,
                place: "Kyritz\u{7}")
        ]
        for k in 1..<max(1, count) {
            f.alerts.append(
                AheadForecast.AlertAhead(
                    id: "b\(k)", event: "Rain", severity: "bogus", inMin: 60 + 15 * k, atKm: 100, place: nil))
        }
        return f
    }

    @Test func anAlertAheadSaysWhatHowBadWhenWhereAndNearWhatCleaned() {
        let f = Self.withAlerts(2)
        #expect(
            AheadDisplay.alertLines(f, options: DisplayOptions())
                == [
                    "Wind warning[31m (severe) in about 1 h, 85.2 km ahead, near Kyritz.",
                    "Rain (severity unknown) in about 1 h 15 min, 100.0 km ahead.",
                ])
        #expect(AheadDisplay.alertLines(f, options: DisplayOptions(language: .ru)).first?.contains("(сильное)") == true)
        #expect(AheadDisplay.alertLines(Self.forecast(rain: nil), options: DisplayOptions()).isEmpty)
        // The screen block: the first two, then how many more.
        let lines = AheadDisplay.screenLines(Self.withAlerts(4), options: DisplayOptions(), width: 80)
        #expect(lines[1] == "  Alert ahead: Wind warning[31m (severe) in about 1 h, 85.2 km ahead, near")
        #expect(lines[2] == "    Kyritz.", "82 columns: the place goes onto a line of its own, not cut")
        #expect(lines[3].hasPrefix("  Alert ahead: Rain (severity unknown) in about 1 h 15 min"))
        #expect(lines[4] == "  and 2 more alerts ahead")
        #expect(lines.allSatisfy { TextColumns.width($0) <= 80 && !$0.contains("\u{1B}") && !$0.contains("\u{7}") })
    }

    /// At 80 columns a long alert keeps its place: wrapped onto a second line, which takes a sample's row.
    @Test func anAlertTooWideForTheTerminalIsWrappedNotCutAndTheBlockKeepsItsHeight() {
        var f = Self.forecast(rain: nil)
        f.alerts = [
            AheadForecast.AlertAhead(
                id: "w", event: "Winter Storm Warning", severity: "severe", inMin: 30, atKm: 33.2, place: "Truckee")
        ]
        let narrow = AheadDisplay.screenLines(f, options: DisplayOptions(), width: 80)
        let wide = AheadDisplay.screenLines(f, options: DisplayOptions(), width: 100)
        #expect(wide.count == 1 + 1 + 3)
        #expect(wide[1] == "  Alert ahead: Winter Storm Warning (severe) in about 30 min, 33.2 km ahead, near Truckee.")
        #expect(narrow.count == wide.count, "the second line took a sample's row")
        #expect(narrow.allSatisfy { TextColumns.width($0) <= 80 })
        #expect(narrow[1].hasPrefix("  Alert ahead: Winter Storm Warning (severe)") && !narrow[1].hasSuffix("…"))
        #expect(narrow[2].hasPrefix("    ") && narrow[2].hasSuffix("near Truckee."))
        #expect(narrow.filter { $0.hasPrefix("  +") }.count == 2)
        // However many lines wrap, one sample stays.
        f.alerts += [f.alerts[0], f.alerts[0]]
        let crowded = AheadDisplay.screenLines(f, options: DisplayOptions(), width: 60)
        #expect(crowded.filter { $0.hasPrefix("  +") }.count == 1)
        #expect(crowded.allSatisfy { TextColumns.width($0) <= 60 })
    }

    @Test func aWindThatRoundsToNothingHasNoSign() {
        let options = DisplayOptions()
        #expect(AheadDisplay.against(-0.04, options) == "0.0 m/s")
        #expect(AheadDisplay.against(0.04, options) == "0.0 m/s")
        #expect(AheadDisplay.against(-2, options) == "-2.0 m/s")
        #expect(AheadDisplay.against(4.9, options) == "+4.9 m/s")
        #expect(AheadDisplay.against(-10, options) == "-10.0 m/s")
        #expect(AheadDisplay.against(nil, options) == DisplayUnits.unknown)
        #expect(AheadDisplay.against(-0.2, DisplayOptions(units: .imperial)) == "0 mph")
        #expect(AheadDisplay.against(-0.9, DisplayOptions(units: .imperial)) == "-2 mph")
    }
}
