import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering
@testable import FixcastTestSupport

/// Issue 11 item 1 on the live screen and `now`'s text: a hostile place name, alert and problem
/// text cannot write escape sequences to the terminal or split a line.
@Suite(.scratch) struct LiveScreenHostileTextTests {
    typealias F = DisplayFixture
    static let hostileTown = "\u{1B}]0;pwned\u{07}\u{1B}[2JTown"

    static func hostileReading() -> Reading {
        var weather = F.weather()
        weather.alerts = [
            WeatherAlert(
                title: "Storm\u{1B}[2J\nwarning\u{202E}", severity: "sev\u{9B}ere", ends: nil, source: "D\u{0}WD")
        ]
        var r = F.reading(
            weather: weather, errors: [ReadingIssue(component: .weather, message: "weather: bad\r\u{8}reason")])
        r.place = Place(
            name: hostileTown, region: "Bad\nState\u{9B}31m", country: "\u{202E}Country\u{0}\u{8}\r", countryCode: "DE",
            source: .nominatim)
        return r
    }

    @Test("every line of a frame with hostile names holds no unsafe character and the frame keeps its height")
    func liveFrame() {
        let reading = Self.hostileReading()
        let state = LiveScreen.State(reading: reading, position: F.position(), problems: reading.errors)
        let frame = LiveScreen.render(state, now: F.fetched, width: 100, height: 30)
        #expect(frame.count == 30)
        for line in frame {
            #expect(OutputSafety.isClean(line) && !line.contains("\n"), "\(line.debugDescription)")
        }
        #expect(frame.contains { $0.contains("]0;pwned[2JTown, Bad State31m, Country") })
        #expect(frame.contains { $0.contains("Storm[2J warning") })
    }

    @Test("the place line of `now` is cleaned and a 500-character name is capped at 60 characters")
    func placeLine() {
        let parts = ReadingParts(options: DisplayOptions(), now: F.fetched)
        var place = F.place
        place.name = String(repeating: "N", count: 500)
        let line = parts.placeLine(place)
        #expect(line.hasPrefix(String(repeating: "N", count: 59) + "…,"), "\(line)")
        let text = ReadingText.render(Self.hostileReading(), now: F.fetched, options: DisplayOptions())
        #expect(text.contains("]0;pwned[2JTown, Bad State31m, Country"))
        #expect(OutputSafety.isClean(text), "\(text.debugDescription)")
        #expect(text.contains("weather: bad reason"), "\(text)")
        #expect(text.contains("! Storm[2J warning (sev"))
    }
}
