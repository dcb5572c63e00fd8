import FixcastCore
import Foundation
import Testing

/// `line` shows the newest stored forecast: a reading's own unless `fixcast ahead` made one later.
struct NewerAheadTests {
    typealias F = AheadFixture

    func forecast(madeAt s: Double, stale: Bool = false, from: Coordinate = F.c(52.5, 13.4)) -> AheadForecast {
        AheadForecast(
            basis: .course, madeAt: F.at(s), from: AheadForecast.Origin(coordinate: from, fixTime: nil),
            speedMps: 20, speedSource: .gps, samples: [], stale: stale)
    }

    func reading(carrying ahead: AheadForecast?) -> Reading {
        Reading(time: F.at(0), trigger: .moved, position: nil, ahead: ahead)
    }

    @Test func aForecastMadeLaterReplacesTheReadingsOwn() {
        #expect(reading(carrying: forecast(madeAt: 0)).withNewerAhead(forecast(madeAt: 60)).ahead?.madeAt == F.at(60))
        #expect(reading(carrying: nil).withNewerAhead(forecast(madeAt: -600)).ahead?.madeAt == F.at(-600))
    }

    @Test func theReadingsOwnStaysWhenNoneIsNewerAndKeepsItsStaleMark() {
        let own = forecast(madeAt: 0, stale: true)
        #expect(reading(carrying: own).withNewerAhead(forecast(madeAt: 0)).ahead == own)
        #expect(reading(carrying: own).withNewerAhead(forecast(madeAt: -60)).ahead == own)
        #expect(reading(carrying: own).withNewerAhead(nil).ahead == own)
    }

    /// A plan made for elsewhere (`fixcast ahead --at Munich --route …`) is not the rain ahead of a bar
    /// that names Berlin; one made on the way, a few km on, is.
    @Test func aForecastMadeFarFromTheReadingIsNotItsAhead() {
        var berlin = reading(carrying: nil)
        berlin.position = Position(coordinate: F.c(52.52, 13.405), obtainedAt: F.at(0), source: .gps)
        #expect(berlin.withNewerAhead(forecast(madeAt: 60, from: F.c(48.14, 11.58))).ahead == nil)
        #expect(berlin.withNewerAhead(forecast(madeAt: 60, from: F.c(52.6, 13.5))).ahead?.madeAt == F.at(60))
        #expect(berlin.withNewerAhead(forecast(madeAt: 60, from: F.c(52.52 + 0.19, 13.405))).ahead == nil)
    }
}
