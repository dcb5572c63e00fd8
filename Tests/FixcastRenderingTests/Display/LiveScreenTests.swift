import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

@Suite(.scratch) struct LiveScreenTests {
    typealias F = DisplayFixture
    let now = F.fetched.addingTimeInterval(7 * 60)

    func state(_ tweak: (inout LiveScreen.State) -> Void = { _ in }) -> LiveScreen.State {
        var s = LiveScreen.State(
            reading: F.reading(), position: F.position(obtainedAt: F.fetched.addingTimeInterval(419)))
        tweak(&s)
        return s
    }

    @Test(arguments: [(80, 24), (40, 30), (20, 10), (120, 8), (60, 3), (30, 1)], [Language.en, .ru, .zh])
    func fitsTheGivenSize(size: (Int, Int), language: Language) {
        let (width, height) = size
        let frame = LiveScreen.render(
            state {
                $0.problems = [
                    ReadingIssue(component: .weather, message: String(repeating: "long message ", count: 20))
                ]
            },
            now: now, width: width, height: height, options: DisplayOptions(language: language))
        #expect(frame.count == height)
        for line in frame { #expect(TextColumns.width(line) <= width) }
    }

    @Test func aFullFrame() {
        let frame = LiveScreen.render(state(), now: now, width: 80, height: 24)
        #expect(frame[0].hasPrefix("fixcast · live weather"))
        #expect(frame[0].hasSuffix("12:07"))
        #expect(frame[1] == "Berlin, Germany")
        #expect(frame[2] == "52.5200° N, 13.4138° E · GPS 3D fix, 9 sats, just now")
        #expect(frame.contains { $0.contains(F.description(3) + ", 3 °C") })
        #expect(frame.contains { $0.hasPrefix("Today: min -1 °C, max 5 °C") })
        #expect(frame.contains { $0.hasPrefix("Fri 30") })
        #expect(frame.contains { $0.hasPrefix("! Storm warning") })
        #expect(frame[21] == "open-meteo · updated 7 min ago")
        #expect(frame[22] == "status: ok")
        #expect(frame[23] == "r refresh · q quit")
    }

    @Test func demoLabel() {
        let frame = LiveScreen.render(state { $0.demo = true }, now: now, width: 80, height: 24)
        #expect(frame[0].contains("[demo data]"))
        #expect(!LiveScreen.render(state(), now: now, width: 80, height: 24)[0].contains("demo"))
    }

    @Test func aLostFixSaysSinceWhen() {
        let lost = F.fetched.addingTimeInterval(-18 * 60 + 420)
        let frame = LiveScreen.render(
            state { $0.fixLostSince = lost }, now: now, width: 80, height: 24, options: DisplayOptions(utcOffsetS: 3600)
        )
        #expect(frame[2] == "52.5200° N, 13.4138° E · no fix since 12:49 (18 min ago)")
    }

    @Test func waitingForTheFirstFixAndNoReadingYet() {
        let frame = LiveScreen.render(LiveScreen.State(updating: true), now: now, width: 80, height: 12)
        #expect(frame[1] == "Unknown place")
        #expect(frame[2] == "waiting for a fix")
        #expect(frame.contains("No weather data."))
        #expect(frame[9] == "updating…")
    }

    /// The weather here failed and the weather ahead (its own request) did not: the block is still
    /// drawn (it was hidden with the weather), under "No weather data.", within 80 × 24.
    @Test func theWeatherAheadShowsWhenTheWeatherHereFailed() throws {
        let ahead = AheadDisplayTests.forecast(
            rain: AheadForecast.Rain(inMin: 45, atKm: 63, place: "Kyritz", mmH: 1.2), place: "Kyritz")
        let frame = LiveScreen.render(
            state {
                $0.reading?.weather = nil
                $0.reading?.ahead = ahead
                $0.problems = [ReadingIssue(component: .weather, message: "weather: the service could not be reached.")]
            },
            now: now, width: 80, height: 24)
        #expect(frame.count == 24 && frame.allSatisfy { TextColumns.width($0) <= 80 })
        let noWeather = try #require(frame.firstIndex(of: "No weather data."), "\(frame)")
        let headline = try #require(
            frame.firstIndex { $0.hasSuffix(AheadDisplay.headline(ahead, options: DisplayOptions())) }, "\(frame)")
        #expect(headline > noWeather)
        #expect(frame.contains { $0.contains("Kyritz") && $0.contains("+15 min") }, "\(frame)")
    }

    @Test func statusLineShowsTheFirstProblemAndHowManyMore() {
        let problems = [
            ReadingIssue(component: .gps, message: "gpsd at 127.0.0.1:2947 is not answering; start gpsd."),
            ReadingIssue(component: .storage, message: "the disk is full; free some space."),
        ]
        let frame = LiveScreen.render(state { $0.problems = problems }, now: now, width: 80, height: 24)
        #expect(frame[22].hasPrefix("! gpsd at 127.0.0.1:2947 is not answering; start gpsd."))
        #expect(frame[22].hasSuffix("(+1 more)"))
    }

    /// A problem too long for 80 columns goes on to a second row, so the sentence's end (what to do)
    /// is seen; a day of the forecast makes room, and the frame keeps its size.
    @Test func aLongProblemTakesTwoRowsAndKeepsWhatToDo() {
        let gps = ReadingIssue(
            component: .gps,
            message:
                "gps: the connection to gpsd at 127.0.0.1:55773 was lost; fixcast reconnects by itself, check that gpsd is running (systemctl status gpsd)."
        )
        let ok = LiveScreen.render(state(), now: now, width: 80, height: 24)
        let frame = LiveScreen.render(state { $0.problems = [gps] }, now: now, width: 80, height: 24)
        #expect(frame.count == 24)
        for line in frame { #expect(TextColumns.width(line) <= 80) }
        #expect(frame[21].hasPrefix("! gps: the connection to gpsd at 127.0.0.1:55773 was lost;"))
        #expect(frame[22] == "  itself, check that gpsd is running (systemctl status gpsd).")
        #expect(frame[23] == "r refresh · q quit")
        #expect(frame[20].hasPrefix("open-meteo · updated"))
        // One row of the middle gave way; the top is where it was.
        #expect(Array(frame[0..<20]) == Array(ok[0..<20]))

        // With more problems, the count stays on the first row, flush right.
        let storage = ReadingIssue(component: .storage, message: "storage: the disk is full; free some space.")
        let two = LiveScreen.render(state { $0.problems = [gps, storage] }, now: now, width: 80, height: 24)
        #expect(two[21].hasPrefix("! gps: the connection"))
        #expect(two[21].hasSuffix("(+1 more)"))
        #expect(two[22].hasSuffix("(systemctl status gpsd)."))
        for line in two { #expect(TextColumns.width(line) <= 80) }

        // The second row never costs the weather now: on 13 rows the top's 9 rows stay whole above a
        // two-row status; on 12 the status keeps one row, and today's line stays.
        let thirteen = LiveScreen.render(state { $0.problems = [gps] }, now: now, width: 80, height: 13)
        #expect(Array(thirteen[0..<9]) == Array(ok[0..<9]))
        #expect(thirteen[11] == "  itself, check that gpsd is running (systemctl status gpsd).")
        for height in [11, 12] {
            let short = LiveScreen.render(state { $0.problems = [gps] }, now: now, width: 80, height: height)
            #expect(short.count == height)
            #expect(short.contains { $0.hasPrefix("Today: min -1 °C, max 5 °C") } == (height == 12))
            #expect(short[height - 2].hasPrefix("! gps: the connection") && short[height - 2].hasSuffix("…"))
            #expect(short[height - 1] == "r refresh · q quit")
        }
    }

    /// A message whose words reach the break with its own "…" still goes on to its second row, and
    /// one that ends in a space (a newline from outside, cleaned) gets no blank row.
    @Test func theSecondStatusRowIsTheRestOfTheSentence() {
        let dots = ReadingIssue(
            component: .gps, message: "gps: the receiver said nothing for a while… check that gpsd is running now.")
        let other = ReadingIssue(component: .storage, message: "storage: the disk is full.")
        let frame = LiveScreen.render(state { $0.problems = [dots, other] }, now: now, width: 60, height: 24)
        #expect(frame[21].hasPrefix("! gps: the receiver said nothing for a while…"))
        #expect(frame[21].hasSuffix("(+1 more)"))
        #expect(frame[22] == "  check that gpsd is running now.")

        let trailing = ReadingIssue(component: .gps, message: "abcdefghijklmnopqr\n")
        let lines = LiveScreen.statusLines([trailing], labels: DisplayLabels(.en), width: 20, maxLines: 2)
        #expect(lines == ["! abcdefghijklmnopqr"])
    }

    @Test func staleAndUpdatingAreShown() {
        let s = state {
            $0.reading = F.reading(weather: F.weather(cached: true, stale: true))
            $0.updating = true
        }
        let frame = LiveScreen.render(s, now: now, width: 120, height: 24)
        #expect(frame[21] == "open-meteo · updated 7 min ago · cached · stale: could not refresh · updating…")
    }

    @Test func aShortScreenDropsTheDaysButKeepsTheFooter() {
        let frame = LiveScreen.render(state(), now: now, width: 80, height: 10)
        #expect(!frame.contains { $0.hasPrefix("Sat 31") })
        #expect(frame[7].hasPrefix("open-meteo · updated"))
        #expect(frame[9] == "r refresh · q quit")
        let tiny = LiveScreen.render(state(), now: now, width: 80, height: 2)
        #expect(tiny == ["status: ok", "r refresh · q quit"])
        #expect(LiveScreen.render(state(), now: now, width: 0, height: 5).isEmpty)
    }

    @Test func imperialOnTheLiveScreen() {
        let frame = LiveScreen.render(
            state(), now: now, width: 100, height: 24, options: DisplayOptions(units: .imperial))
        #expect(frame.contains { $0.contains("38 °F") })
        #expect(!frame.contains { $0.contains("°C") })
    }
}
