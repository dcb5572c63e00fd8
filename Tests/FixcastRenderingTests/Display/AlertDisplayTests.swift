import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// The human forms of alerts: `now`'s lines, the live screen's banner, `alerts`' detail.
@Suite(.scratch) struct AlertDisplayTests {
    typealias F = DisplayFixture
    let now = F.fetched.addingTimeInterval(7 * 60)

    func report(_ alerts: [Alert], stale: Bool = false) -> AlertReport {
        AlertReport(
            source: .nws, covered: true, fetchedAt: F.fetched, stale: stale, active: Alert.active(alerts, at: F.fetched)
        )
    }

    let heat = Alert(id: "a", event: "Excessive Heat Warning", severity: .severe)
    let air = Alert(id: "b", event: "Air Quality Alert", severity: .unknown)
    let tornado = Alert(id: "c", event: "Tornado Warning", severity: .extreme)
    let wind = Alert(id: "d", event: "Wind Advisory", severity: .minor)

    @Test func bannerIsTheTopLineMostSevereFirst() {
        var reading = F.reading()
        reading.alerts = report([air, heat, tornado])
        let frame = LiveScreen.render(
            LiveScreen.State(reading: reading, position: F.position(obtainedAt: F.fetched)), now: now, width: 100,
            height: 24)
        #expect(frame[0] == "! EXTREME Tornado Warning · SEVERE Excessive Heat Warning · UNKNOWN Air Quality Alert")
        #expect(frame[1].hasPrefix("fixcast · live weather"))
    }

    @Test func bannerSaysHowManyMoreWhenTheyDoNotFit() {
        let text = AlertDisplay.banner(report([air, heat, tornado, wind]), width: 50)
        #expect(text == "! EXTREME Tornado Warning +3 more")
        let narrow = AlertDisplay.banner(report([air, heat, tornado, wind]), width: 20)
        #expect(narrow?.hasSuffix(" +3 more") == true)
        #expect(narrow.map(TextColumns.width) ?? 99 <= 20)
    }

    /// In Russian and Chinese the tags, "more" and "stale" are the display's own words, not English ones.
    @Test func bannerAndLinesSpeakTheDisplaysLanguage() {
        let zh = AlertDisplay.banner(report([air, heat, tornado, wind]), width: 40, language: .zh)
        #expect(zh?.hasPrefix("! 特别严重 Tornado Warning") == true, "\(zh ?? "")")
        #expect(zh?.hasSuffix("（另有 3 条）") == true, "\(zh ?? "")")
        let ru = AlertDisplay.banner(report([heat], stale: true), width: 80, language: .ru)
        #expect(ru == "! (устарело) сильное Excessive Heat Warning")
        let line = AlertDisplay.line(heat, options: DisplayOptions(language: .ru, utcOffsetS: 0))
        #expect(line.hasPrefix("[сильное] Excessive Heat Warning"), "\(line)")
        #expect(AlertDisplay.line(heat, options: DisplayOptions(utcOffsetS: 0)).hasPrefix("[SEVERE] "))
    }

    /// `now`'s alert line cuts a long area in columns: 40 ideographs would be 80 of them.
    @Test func theAreaIsCutInColumns() {
        var tokyo = heat
        tokyo.area = String(repeating: "東京都二十三区; ", count: 6)
        let line = AlertDisplay.line(tokyo, options: DisplayOptions(utcOffsetS: 0), areaLimit: 40)
        let area = String(line.split(separator: "—").last ?? "").trimmingCharacters(in: .whitespaces)
        #expect(TextColumns.width(area) <= 40 && area.hasSuffix("…"), "\(area)")
    }

    @Test func theBannerGoesWhenTheLastAlertExpires() {
        var short = heat
        short.expires = now.addingTimeInterval(60)
        var reading = F.reading()
        reading.alerts = report([short])
        let before = LiveScreen.render(LiveScreen.State(reading: reading), now: now, width: 80, height: 24)
        #expect(before[0] == "! SEVERE Excessive Heat Warning")
        let after = LiveScreen.render(
            LiveScreen.State(reading: reading), now: now.addingTimeInterval(61), width: 80, height: 24)
        #expect(after[0].hasPrefix("fixcast · live weather"))
    }

    @Test func noBannerWithoutActiveAlertsOrWhenNotCovered() {
        #expect(AlertDisplay.banner(report([]), width: 80) == nil)
        #expect(AlertDisplay.banner(.notCovered, width: 80) == nil)
        #expect(AlertDisplay.banner(nil, width: 80) == nil)
        let frame = LiveScreen.render(LiveScreen.State(reading: F.reading()), now: now, width: 80, height: 24)
        #expect(frame[0].hasPrefix("fixcast · live weather"))
    }

    @Test(arguments: [(80, 24), (30, 6), (10, 3)])
    func theFrameStillFits(size: (Int, Int)) {
        var reading = F.reading()
        reading.alerts = report([air, heat, tornado, wind], stale: true)
        let frame = LiveScreen.render(LiveScreen.State(reading: reading), now: now, width: size.0, height: size.1)
        #expect(frame.count == size.1)
        for line in frame { #expect(TextColumns.width(line) <= size.0) }
        // Below 4 lines only the bottom (freshness, status, keys) fits.
        if size.1 > 3 { #expect(frame[0].hasPrefix("! (stale) ")) }
    }

    @Test func nowShowsOneLinePerAlertBySeverityColouredOnlyWhenAsked() {
        var reading = F.reading()
        reading.alerts = report([air, heat])
        let plain = ReadingText.render(reading, now: now)
        #expect(plain.contains("Alerts (NWS):\n  [SEVERE] Excessive Heat Warning\n  [UNKNOWN] Air Quality Alert\n"))
        #expect(!plain.contains("\u{1B}"))
        let coloured = ReadingText.render(reading, now: now, colour: true)
        #expect(coloured.contains("  \u{1B}[31m[SEVERE]\u{1B}[0m Excessive Heat Warning"))
        #expect(coloured.contains("  [UNKNOWN] Air Quality Alert"))
    }

    @Test func nowLinesCutLongAreasAndSayFromOnlyForWhatIsAhead() {
        var started = heat
        started.onset = now.addingTimeInterval(-3600)
        started.area = String(repeating: "Zone; ", count: 20)
        var ahead = air
        ahead.onset = now.addingTimeInterval(3 * 3600)
        var reading = F.reading()
        reading.alerts = report([started, ahead])
        let lines = ReadingText.render(reading, now: now).split(separator: "\n").filter { $0.hasPrefix("  [") }
        #expect(lines.count == 2)
        #expect(!lines[0].contains("from") && lines[0].hasSuffix("…"))
        #expect(lines[0].count < 80)
        #expect(lines[1].contains(", from "))
    }

    @Test func notCoveredIsNeverShownAsNoAlerts() {
        var reading = F.reading()
        reading.alerts = .notCovered
        #expect(ReadingText.render(reading, now: now).contains("Alerts: not covered here"))
        reading.alerts = report([])
        #expect(ReadingText.render(reading, now: now).contains("Alerts (NWS): none active."))
        reading.alerts = nil
        let none = ReadingText.render(reading, now: now)
        #expect(!none.contains("Alerts (") && !none.contains("not covered"))
    }

    /// "Not covered" says why: the country no source covers, no country to tell, or the lookup off;
    /// a report read back from the store (no cause kept) blames no country.
    @Test func notCoveredSaysWhy() {
        func line(_ cause: NotCoveredCause?) -> String {
            var r = AlertReport.notCovered
            r.notCoveredBecause = cause
            return AlertDisplay.notCoveredLine(r)
        }
        #expect(
            line(.country("JP")).hasPrefix(
                "Alerts: not covered here (JP): no alert source of fixcast covers this country"))
        #expect(line(.countryUnknown).contains("no place in fixcast's table is near enough to tell the country"))
        #expect(!line(.countryUnknown).contains("this country"))
        #expect(line(.countryUnknown).contains("set alerts.source"))
        #expect(line(.sourceOff) == "Alerts: not looked up: alerts.source is \"none\".")
        #expect(line(nil).contains("covers this position") && !line(nil).contains("country ("))
        for cause in [NotCoveredCause.country("JP"), .countryUnknown, nil] {
            #expect(line(cause).contains(AlertCoverage.coverageSummary))
        }
    }

    @Test func detailHasDescriptionAndInstruction() {
        var a = heat
        a.headline = "Heat headline"
        a.description = "* WHAT...Hot.\n\n* WHERE...Phoenix."
        a.instruction = "Drink water."
        a.expires = F.fetched.addingTimeInterval(3600)
        let text = AlertDisplay.detail(report([a]), now: now, options: DisplayOptions())
        #expect(text.hasPrefix("1 active alert here (NWS, checked "))
        #expect(text.contains("\n[SEVERE] Excessive Heat Warning, until "))
        #expect(text.contains("\n  Heat headline\n"))
        #expect(text.contains("\n  * WHAT...Hot.\n  \n  * WHERE...Phoenix.\n"))
        #expect(text.contains("\n  Drink water.\n"))
        #expect(AlertDisplay.detail(.notCovered, now: now, options: DisplayOptions()).contains("not covered"))
    }

    /// `--lang ru` and `zh` translated the screen's labels but not the alert lines' own words: "[SEVERE]
    /// Excessive Heat Warning, until Вс 6 03:16", "2 active alerts here (NWS, checked 周五 4 21:16)".
    @Test func theAlertLinesWordsFollowTheLanguage() {
        var a = heat
        a.onset = now.addingTimeInterval(3600)
        a.expires = now.addingTimeInterval(7200)
        let ru = DisplayOptions(language: .ru)
        let line = AlertDisplay.line(a, options: ru, now: now)
        #expect(line.contains(", с ") && line.contains(", до "), "\(line)")
        #expect(!line.contains("from") && !line.contains("until"), "\(line)")
        let two = AlertDisplay.detail(report([heat, air]), now: now, options: ru)
        #expect(two.hasPrefix("Здесь 2 действующих предупреждения (NWS, проверено "), "\(two)")
        let five = DisplayLabels(.ru).activeAlertsHere(5)
        #expect(five == "Здесь 5 действующих предупреждений")
        #expect(
            AlertDisplay.detail(report([]), now: now, options: ru).hasPrefix("Здесь нет действующих предупреждений"))
        let zh = AlertDisplay.detail(report([heat]), now: now, options: DisplayOptions(language: .zh))
        #expect(zh.hasPrefix("此处有 1 条生效的预警 (NWS, 检查于 "), "\(zh)")
        // The facts under an alert and the stale note are in the language too (the source's own
        // certainty and urgency words stay as sent).
        var detailed = heat
        detailed.certainty = "Likely"
        detailed.urgency = "Expected"
        detailed.expires = now.addingTimeInterval(7200)
        let facts = AlertDisplay.detail(report([detailed], stale: true), now: now, options: ru)
        #expect(facts.contains("достоверность: Likely, срочность: Expected, сообщение действует до "), "\(facts)")
        #expect(facts.contains("устарело: служба не отвечает"), "\(facts)")
        #expect(!facts.contains("certainty") && !facts.contains("message expires") && !facts.contains("stale:"))
        let zhFacts = AlertDisplay.detail(report([detailed]), now: now, options: DisplayOptions(language: .zh))
        #expect(zhFacts.contains("确定性: Likely, 紧迫性: Expected, 消息有效至 "), "\(zhFacts)")
        var reading = F.reading()
        reading.alerts = report([])
        #expect(ReadingText.render(reading, now: now, options: ru).contains("Предупреждения (NWS): действующих нет."))
    }
}
