import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// `fixcast line`'s text from recorded readings: every format code, stale and no fix, alerts, imperial,
/// Russian and Chinese, and hostile place names in every output mode.
@Suite struct StatusLineTests {
    typealias F = DisplayFixture
    let utc = DisplayOptions(utcOffsetS: 0)

    func line(
        _ reading: Reading?, _ format: String = StatusLine.defaultFormat, now: Date = F.fetched.addingTimeInterval(185),
        options: DisplayOptions? = nil
    ) -> StatusLine {
        StatusLine(reading: reading, format: format, now: now, options: options ?? utc, periodicMin: 30)
    }

    @Test func everyCodeOnAFreshReading() {
        let all = "%c|%C|%t|%f|%h|%w|%l|%p|%P|%S|%s|%a|%A|%r|%%|%x|%"
        let text = line(F.reading(), all).text
        // The fixture: overcast (3), 3.1 °C, feels −0.4, 81 %, wind 4.2 m/s from 250°, Berlin, 0 mm, 1013.2 hPa,
        // sunrise 07:00 and sunset 16:30 UTC, 3 min old, no alerts in the reading, nothing ahead.
        #expect(
            text
                == "☁️|\(F.description(3))|3 °C|0 °C|81 %|→4.2 m/s|Berlin|0.0 mm|1013 hPa|07:00|16:30|3 min ago|||%|%x|%"
        )
        #expect(line(F.reading()).text == "Berlin ☁️ 3 °C →4.2 m/s")
        #expect(line(F.reading()).classes == ["ok"], "CONTRACT's class for a fresh line")
        #expect(line(F.reading()).alt == "cloudy")
    }

    /// A long name (a real Welsh place, 30 ideographs) leaves room for the weather: `%l` is cut to 32
    /// columns with "…", in columns, not letters; waybar's tooltip keeps the whole name.
    @Test func aLongPlaceNameIsCutToItsColumns() {
        var welsh = F.reading()
        welsh.place?.name = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"
        let cut = line(welsh)
        #expect(cut.text == "Llanfairpwllgwyngyllgogerychwyr… ☁️ 3 °C →4.2 m/s")
        #expect(cut.tooltip.hasPrefix("Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch\n"))
        var tokyo = F.reading()
        tokyo.place?.name = String(repeating: "東京", count: 15)
        let place = line(tokyo, "%l").text
        #expect(TextColumns.width(place) <= StatusLine.placeColumns && place.hasSuffix("…"), "\(place)")
        #expect(TextColumns.width(place) >= StatusLine.placeColumns - 1)
        #expect(line(F.reading(), "%l").text == "Berlin")
    }

    /// A right-to-left name is isolated for waybar (Pango would draw "C ↙2.5 m/s° 17 🌦 القاهرة"); the
    /// JSON carries the isolates as escapes, and a terminal's line has none (`Console` drops them).
    @Test func aRightToLeftNameIsIsolatedForWaybar() throws {
        var cairo = F.reading()
        cairo.place?.name = "القاهرة"
        let l = line(cairo)
        #expect(l.text == "\u{2068}القاهرة\u{2069} ☁️ 3 °C →4.2 m/s")
        #expect(StatusLineOutput.waybar.render(l).contains(#""text":"\u2068القاهرة\u2069 ☁️"#))
        #expect(TerminalText.forStdout(StatusLineOutput.plain.render(l)) == "القاهرة ☁️ 3 °C →4.2 m/s\n")
    }

    @Test func imperialRussianChinese() {
        let imperial = line(F.reading(), "%t %f %w %p %P", options: DisplayOptions(units: .imperial, utcOffsetS: 0))
            .text
        #expect(imperial == "38 °F 31 °F →9 mph 0.00 in 29.92 inHg")
        #expect(
            line(F.reading(), "%C %a", options: DisplayOptions(language: .ru, utcOffsetS: 0)).text
                == F.description(3, .ru) + " 3 мин назад")
        #expect(
            line(F.reading(), "%C %a", options: DisplayOptions(language: .zh, utcOffsetS: 0)).text
                == F.description(3, .zh) + " 3 分钟前")
        #expect(line(nil, options: DisplayOptions(language: .ru, utcOffsetS: 0)).text == "нет GPS")
        #expect(line(nil, options: DisplayOptions(language: .zh, utcOffsetS: 0)).text == "无定位")
    }

    /// Stale past twice `periodic_min` (60 min), not at it.
    @Test func staleAfterTwoMissedReadings() {
        let atLimit = line(F.reading(), now: F.fetched.addingTimeInterval(3600))
        #expect(!atLimit.stale && !atLimit.text.hasPrefix("~"))
        let past = line(F.reading(), now: F.fetched.addingTimeInterval(3601))
        #expect(past.stale)
        #expect(past.text == "~Berlin ☁️ 3 °C →4.2 m/s")
        #expect(past.classes == ["stale"])
        #expect(StatusLineOutput.i3blocks.render(past) == "~Berlin ☁️ 3 °C →4.2 m/s\n~☁️ 3 °C\n#888888\n")
    }

    /// A reading stamped 3 h ahead of the clock (a Pi's clock set right since): its age is not
    /// known, so it is stale, not "just now".
    @Test func aReadingStampedAheadOfTheClockIsStale() {
        let ahead = line(F.reading(), now: F.fetched.addingTimeInterval(-3 * 3600))
        #expect(ahead.stale && ahead.text.hasPrefix("~") && ahead.classes == ["stale"])
        #expect(!line(F.reading(), now: F.fetched.addingTimeInterval(-30)).stale)
    }

    @Test func noReadingAndNoFix() {
        for reading in [nil, F.reading(position: nil)] {
            let l = line(reading)
            #expect(l.noFix && l.text == "no fix" && l.classes == ["no-fix"] && l.alt == "no-fix")
        }
    }

    /// A `run` without network stores a reading every periodic_min over the stored weather, marked
    /// stale: the line said "Berlin 20 °C" as fresh, class [], however old that weather was.
    @Test func aNewReadingOverStaleWeatherIsStale() throws {
        var reading = F.reading()
        var weather = try #require(reading.weather)
        weather.stale = true
        weather.fetchedAt = reading.time.addingTimeInterval(-86_400)
        reading.weather = weather
        let l = line(reading)
        #expect(l.stale && l.text.hasPrefix("~"), "\(l.text)")
        #expect(l.classes == ["stale"])
        #expect(l.tooltip.contains("updated 24 h"), "\(l.tooltip)")
        #expect(!line(F.reading()).tooltip.contains("updated"), "a fresh reading's tooltip has its own age only")
    }

    @Test func alertsCountAndTheMostSevere() throws {
        var reading = F.reading()
        reading.alerts = AlertReport(
            source: .nws, covered: true, fetchedAt: F.fetched, stale: false,
            active: [
                Alert(id: "a", event: "Wind", severity: .moderate), Alert(id: "b", event: "Flood", severity: .extreme),
            ])
        let l = line(reading, "%A")
        #expect(l.text == "⚠ 2 extreme")
        #expect(l.classes == ["ok", "alert-extreme"])
        #expect(StatusLineOutput.i3blocks.render(l).hasSuffix("\n#FF5555\n"))
        #expect(line(reading, "%A", options: DisplayOptions(language: .ru, utcOffsetS: 0)).text == "⚠ 2 чрезвычайное")
        // The report's words (AlertSeverity.word): China's warning scale, not a second translation.
        #expect(line(reading, "%A", options: DisplayOptions(language: .zh, utcOffsetS: 0)).text == "⚠ 2 特别严重")
        // The last answer served because the source failed: marked, as the live screen's banner is.
        reading.alerts?.stale = true
        #expect(line(reading, "%A").text == "~⚠ 2 extreme")
        reading.alerts?.active = []
        #expect(line(reading, "[%A]").text == "[]")
    }

    /// A bar asks every few seconds and `run` may take its next reading half an hour later: an alert
    /// that expired in between goes from the text, the class and i3blocks' colour, as from the live
    /// screen's banner (`AlertReport.aged`, one rule for both).
    @Test func anAlertThatHasExpiredSinceTheReadingIsNotShown() {
        var reading = F.reading()
        reading.alerts = AlertReport(
            source: .nws, covered: true, fetchedAt: F.fetched, stale: false,
            active: [
                Alert(id: "a", event: "Gale", severity: .severe, expires: F.fetched.addingTimeInterval(600)),
                Alert(id: "b", event: "Fog", severity: .minor),
            ])
        let before = line(reading, "%A", now: F.fetched.addingTimeInterval(300))
        #expect(before.text == "⚠ 2 severe")
        #expect(before.classes.contains("alert-severe") && before.alertSeverity == .severe)
        let after = line(reading, "%A", now: F.fetched.addingTimeInterval(900))
        #expect(after.text == "⚠ 1 minor")
        #expect(after.classes.contains("alert-minor") && !after.classes.contains("alert-severe"))
        #expect(after.alertSeverity == .minor)
        #expect(!after.tooltip.contains("severe"), "\(after.tooltip)")
        #expect(
            AlertDisplay.banner(reading.alerts, width: 80, now: F.fetched.addingTimeInterval(900))?.contains("Gale")
                == false)
    }

    @Test func polarDayInsteadOfSunTimes() {
        var weather = F.weather()
        weather.today = TodaySummary(daylight: .polarDay)
        #expect(line(F.reading(weather: weather), "%S %s").text == "polar day polar day")
    }

    static let hostileNames = [
        "Evil\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mTown", "\u{202E}nilreB\u{202C} \u{2066}x\u{2069}",
        "<b>Bold</b> & \"co\"",
        String(repeating: "Llanfair", count: 1280),  // 10 kB
    ]

    @Test(arguments: hostileNames)
    func hostilePlaceNamesAreCleanInEveryMode(_ name: String) throws {
        var reading = F.reading()
        reading.place = Place(name: name, source: .nominatim)
        let l = line(reading, "%l %t\u{1B}[5m")
        for out in [StatusLineOutput.plain.render(l), StatusLineOutput.i3blocks.render(l)] {
            #expect(!out.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" }, "\(out.debugDescription)")
            #expect(out.split(separator: "\n").allSatisfy { $0.count <= TerminalText.maxNameCharacters + 20 })
        }
        let waybar = StatusLineOutput.waybar.render(l)
        #expect(waybar.hasSuffix("\n") && waybar.dropLast().firstIndex(of: "\n") == nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(waybar.utf8)) as? [String: Any])
        for key in ["text", "tooltip"] {
            let value = try #require(object[key] as? String)
            #expect(
                !value.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" },
                "\(key): \(value.debugDescription)")
            #expect(!value.contains("<") && !value.contains(">"), "Pango markup must stay text: \(value)")
            #expect(value.count < 400)
        }
        if name.hasPrefix("<b>") {
            #expect((object["text"] as? String)?.hasPrefix("&lt;b&gt;Bold&lt;/b&gt; &amp; \"co\"") == true)
        }
    }

    /// tmux expands `#(`, `#{`, `#[` in what `#(fixcast line)` prints, polybar reads `%{` as a tag: a place
    /// name's markup loses its opener in every mode, and the user's own format keeps its markup.
    @Test func placeNameMarkupIsInertInEveryMode() throws {
        var reading = F.reading()
        reading.place = Place(name: "#(touch /tmp/x)#{host}#[fg=red]%{A1:reboot:}Town%{A}", source: .nominatim)
        let l = line(reading, "#[fg=blue]%l %t#[default]")
        // Cut to `%l`'s 32 columns (the twins are two each); the tooltip keeps it whole, as inert.
        #expect(l.text == "#[fg=blue]＃(touch /tmp/x)＃{host}＃[fg=r… 3 °C#[default]")
        #expect(l.tooltip.hasPrefix("＃(touch /tmp/x)＃{host}＃[fg=red]％{A1:reboot:}Town％{A}\n"), "\(l.tooltip)")
        for out in [StatusLineOutput.plain, .i3blocks, .waybar].map({ $0.render(l) }) {
            let place = out.replacingOccurrences(of: "#[fg=blue]", with: "").replacingOccurrences(
                of: "#[default]", with: "")
            for opener in ["#(", "#{", "#[", "%{"] { #expect(!place.contains(opener), "\(opener) in \(out)") }
        }
        #expect(l.tooltip.hasPrefix("＃(touch /tmp/x)"), "\(l.tooltip)")
    }

    @Test func waybarJSONParses() throws {
        var reading = F.reading()
        reading.alerts = AlertReport(
            source: .nws, covered: true, fetchedAt: F.fetched, stale: false,
            active: [Alert(id: "a", event: "Gale", severity: .severe)])
        let out = StatusLineOutput.waybar.render(line(reading, now: F.fetched.addingTimeInterval(7200)))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "~Berlin ☁️ 3 °C →4.2 m/s")
        #expect(object["class"] as? [String] == ["stale", "alert-severe"])
        #expect(object["alt"] as? String == "cloudy")
        let tooltip = try #require(object["tooltip"] as? String)
        #expect(tooltip.contains("\n") && tooltip.contains("⚠ 1 severe") && tooltip.contains("Humidity 81 %"))
    }
}
