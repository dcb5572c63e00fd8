import Foundation
import Testing

@testable import FixcastCore

/// The three formulas against published tables and worked examples, and at their edges.
@Suite struct DerivedFormulaTests {
    /// Dew points as printed in common psychrometric dew-point tables (to 0.1 °C).
    @Test(arguments: [
        (20.0, 50.0, 9.3), (30.0, 50.0, 18.4), (10.0, 90.0, 8.4), (25.0, 80.0, 21.3), (0.0, 100.0, 0.0),
        (35.0, 30.0, 14.9),
    ])
    func dewPointMatchesTheTable(_ t: Double, _ rh: Double, _ expected: Double) throws {
        let dew = try #require(DewPoint.celsius(temperatureC: t, humidityPct: rh))
        #expect(abs(dew - expected) <= 0.1)
    }

    @Test func dewPointRefusesWhatHasNoAnswer() {
        #expect(DewPoint.celsius(temperatureC: 20, humidityPct: 0) == nil)
        #expect(DewPoint.celsius(temperatureC: 20, humidityPct: 101) == nil)
        #expect(DewPoint.celsius(temperatureC: .nan, humidityPct: 50) == nil)
    }

    /// The BoM's formula worked by hand: at 30 °C and 50 % e = 0.5 · 6.105 · exp(17.27·30/267.7) =
    /// 21.14 hPa, so AT = 30 + 6.98 − 0.70·2 − 4 = 31.58 °C; at 10 °C, 80 %, 5 m/s e = 9.82 hPa, AT = 5.74 °C;
    /// in still, saturated air at 0 °C e = 6.105 hPa, AT = −1.99 °C.
    @Test(arguments: [(30.0, 50.0, 2.0, 31.58), (10.0, 80.0, 5.0, 5.74), (0.0, 100.0, 0.0, -1.99)])
    func apparentTemperatureFollowsTheBoMFormula(_ t: Double, _ rh: Double, _ ws: Double, _ expected: Double) throws {
        let at = try #require(ApparentTemperature.celsius(temperatureC: t, humidityPct: rh, windSpeedMps: ws))
        #expect(abs(at - expected) <= 0.01)
    }

    @Test func apparentTemperatureRefusesImpossibleInputs() {
        #expect(ApparentTemperature.celsius(temperatureC: 20, humidityPct: 120, windSpeedMps: 1) == nil)
        #expect(ApparentTemperature.celsius(temperatureC: 20, humidityPct: 50, windSpeedMps: -1) == nil)
    }

    /// Tromsø (69.65° N, 18.96° E): midnight sun from about 20 May to 22 July, polar night from about
    /// 27 November to 15 January (the Norwegian Meteorological Institute's almanac and NOAA's calculator).
    @Test func tromsoHasPolarDayAndNight() {
        let tromso = Coordinate(lat: 69.65, lon: 18.96)!
        #expect(SolarTimes.day("2026-06-21", at: tromso) == .polar(.polarDay))
        #expect(SolarTimes.day("2026-12-21", at: tromso) == .polar(.polarNight))
        // Either side of the season the sun rises and sets again.
        guard case .times(let rise?, let set?)? = SolarTimes.day("2026-03-20", at: tromso) else {
            Issue.record("no sunrise at the equinox in Tromsø")
            return
        }
        #expect(set.timeIntervalSince(rise) > 11.5 * 3600 && set.timeIntervalSince(rise) < 12.8 * 3600)
    }

    /// The South Pole is in polar day at the December solstice, in polar night at the June one.
    @Test func southPoleSeasonsAreReversed() {
        let pole = Coordinate(lat: -89.9, lon: 0)!
        #expect(SolarTimes.day("2026-12-21", at: pole) == .polar(.polarDay))
        #expect(SolarTimes.day("2026-06-21", at: pole) == .polar(.polarNight))
    }

    /// NOAA Solar Calculator for Greenwich (51.4769° N, 0.0005° W) on 2026-06-21: sunrise 03:43,
    /// sunset 20:21 UTC (BST 04:43 / 21:21); and at the equator on the March equinox a day of 12 h 7 min.
    @Test func greenwichAtMidsummer() throws {
        guard
            case .times(let rise?, let set?)? = SolarTimes.day(
                "2026-06-21", at: Coordinate(lat: 51.4769, lon: -0.0005)!)
        else {
            Issue.record("no times for Greenwich")
            return
        }
        #expect(abs(rise.timeIntervalSince(try #require(UTCTime.parse("2026-06-21T03:43:00Z")))) <= 120)
        #expect(abs(set.timeIntervalSince(try #require(UTCTime.parse("2026-06-21T20:21:00Z")))) <= 120)
        guard case .times(let r?, let s?)? = SolarTimes.day("2026-03-20", at: Coordinate(lat: 0, lon: 0)!) else {
            Issue.record("no times at the equator")
            return
        }
        #expect(abs(s.timeIntervalSince(r) - (12 * 3600 + 7 * 60)) <= 120)
    }

    /// The days polar day begins and ends at Longyearbyen (78.22° N) in 2026: the sun rises on
    /// 18 April and does not set, and sets on 24 August without rising before it; each such day has
    /// its one time, not "polar day" (which dropped the event).
    @Test func aDayWithOnlyASunriseOrOnlyASunsetKeepsIt() throws {
        let longyearbyen = Coordinate(lat: 78.22, lon: 15.65)!
        let days = [
            "2026-04-16", "2026-04-17", "2026-04-18", "2026-04-19", "2026-04-20", "2026-08-22", "2026-08-23",
            "2026-08-24", "2026-08-25", "2026-08-26",
        ]
        let answers = days.compactMap { SolarTimes.day($0, at: longyearbyen) }
        #expect(answers.count == days.count)
        let oneSided = answers.filter {
            if case .times(let rise, let set) = $0 { return (rise == nil) != (set == nil) }
            return false
        }
        #expect(!oneSided.isEmpty, "\(answers)")
        for answer in oneSided {
            guard case .times(let rise, let set) = answer else { continue }
            // Each time it has is on its own day, near midnight, as the sun grazes the horizon there.
            if let t = rise ?? set {
                #expect(
                    days.contains(UTCTime.formatDate(t))
                        || days.contains(UTCTime.formatDate(t.addingTimeInterval(-86_400)))
                        || days.contains(UTCTime.formatDate(t.addingTimeInterval(86_400))))
            }
        }
    }

    @Test func anUnreadableDateHasNoDay() {
        #expect(SolarTimes.day("26-06-21", at: Coordinate(lat: 0, lon: 0)!) == nil)
    }
}
