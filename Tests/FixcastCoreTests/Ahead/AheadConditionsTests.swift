import FixcastCore
import Foundation
import Testing

@Suite("AheadConditions")
struct AheadConditionsTests {
    typealias F = AheadFixture

    /// Three hours from t0: 10, 14, 12 °C; rain only in the hour before t0+2h.
    static let series = AheadHourlySeries(
        times: [F.at(0), F.at(3_600), F.at(7_200)],
        temperatureC: [10, 14, 12], precipitationMmH: [0, 0, 1.5], precipitationProbabilityPct: [5, 20, 80],
        weatherCode: [1, 3, 61], windSpeedMps: [10, 10, 4], windGustMps: [15, 25, 8], windDirDeg: [350, 10, 180])

    @Test func temperatureAndGustAreLinearInTime() throws {
        let c = try #require(Self.series.conditions(at: F.at(900), travelBearingDeg: nil))
        #expect(abs((c.temperatureC ?? 0) - 11) < 1e-9)
        #expect(abs((c.windGustMps ?? 0) - 17.5) < 1e-9)
        let onTheHour = try #require(Self.series.conditions(at: F.at(3_600), travelBearingDeg: nil))
        #expect(onTheHour.temperatureC == 14)
    }

    @Test func windIsInterpolatedThroughItsComponents() throws {
        let c = try #require(Self.series.conditions(at: F.at(1_800), travelBearingDeg: nil))
        let dir = try #require(c.windDirDeg)
        #expect(F.angleApart(dir, 0) < 1e-9)  // not 180
        #expect(abs((c.windSpeedMps ?? 0) - 10 * cos(10 * Double.pi / 180)) < 1e-9)
        #expect(c.headwindMps == nil && c.crosswindMps == nil)
    }

    @Test func precipitationCodeAndProbabilityComeFromTheHourThatHoldsTheETA() throws {
        // 1:20 is in the hour ending 2:00, whose values are those at 2:00.
        let c = try #require(Self.series.conditions(at: F.at(4_800), travelBearingDeg: nil))
        #expect(c.precipitationMmH == 1.5 && c.weatherCode == 61 && c.precipitationProbabilityPct == 80)
        // 0:59 is in the hour ending 1:00.
        let d = try #require(Self.series.conditions(at: F.at(3_540), travelBearingDeg: nil))
        #expect(d.precipitationMmH == 0 && d.weatherCode == 3)
        // Exactly 1:00 is the end of that same hour.
        #expect(Self.series.conditions(at: F.at(3_600), travelBearingDeg: nil)?.weatherCode == 3)
    }

    @Test func outsideTheSeriesNothingIsMadeUp() {
        #expect(Self.series.conditions(at: F.at(-1), travelBearingDeg: 0) == nil)
        #expect(Self.series.conditions(at: F.at(7_201), travelBearingDeg: 0) == nil)
        var gappy = Self.series
        gappy.temperatureC[1] = nil
        gappy.windDirDeg[1] = nil
        let c = gappy.conditions(at: F.at(1_800), travelBearingDeg: 90)
        #expect(c?.temperatureC == nil && c?.windSpeedMps == nil && c?.headwindMps == nil)
        #expect(c?.windGustMps != nil)
    }

    @Test(arguments: [
        // (wind from, travel bearing, headwind, crosswind) for a 10 m/s wind
        (0.0, 0.0, 10.0, 0.0),  // from ahead
        (180.0, 0.0, -10.0, 0.0),  // from behind
        (270.0, 0.0, 0.0, 10.0),  // from the west, travelling north: from the left
        (90.0, 0.0, 0.0, -10.0),  // from the right
        (260.0, 223.4, 8.028, -5.962),  // CONTRACT.md's example: the wind 36.6° to the right of ahead
    ])
    func headwindAndCrosswindSigns(from: Double, bearing: Double, head: Double, cross: Double) throws {
        let s = AheadHourlySeries(
            times: [F.at(0), F.at(3_600)], temperatureC: [nil, nil], precipitationMmH: [nil, nil],
            precipitationProbabilityPct: [nil, nil],
            weatherCode: [nil, nil], windSpeedMps: [10, 10], windGustMps: [nil, nil], windDirDeg: [from, from])
        let c = try #require(s.conditions(at: F.at(600), travelBearingDeg: bearing))
        #expect(abs((c.headwindMps ?? .nan) - head) < 0.01)
        #expect(abs((c.crosswindMps ?? .nan) - cross) < 0.01)
        #expect(F.angleApart(c.windDirDeg ?? .nan, from) < 1e-9)
    }

    static func sample(_ minutes: Int, mm: Double?, t: Double?, gust: Double?) -> AheadSampleForecast {
        let point = AheadSamplePoint(
            minutes: minutes, eta: F.at(Double(minutes) * 60), distanceM: Double(minutes) * 1_000,
            coordinate: F.east(0), travelBearingDeg: 0)
        var c = AheadConditions()
        c.precipitationMmH = mm
        c.temperatureC = t
        c.windGustMps = gust
        return AheadSampleForecast(point: point, conditions: c)
    }

    @Test func rainIsTheFirstSampleAtOrAboveTheThreshold() {
        let samples = [
            Self.sample(15, mm: 0.1, t: 5, gust: 3), Self.sample(30, mm: 0.2, t: 2, gust: 12),
            Self.sample(45, mm: 3, t: 4, gust: nil),
        ]
        let rain = AheadSummary.rain(samples, thresholdMmH: 0.2)
        #expect(rain == AheadSummary.Rain(minutes: 30, distanceM: 30_000, mmH: 0.2, sampleIndex: 1))
        #expect(AheadSummary.rain(samples, thresholdMmH: 5) == nil)
        #expect(
            AheadSummary.rain([AheadSampleForecast(point: samples[0].point, conditions: nil)], thresholdMmH: 0) == nil)
    }

    @Test func worstOverTheWindow() {
        let samples = [
            Self.sample(15, mm: 0.1, t: 5, gust: 3), Self.sample(30, mm: nil, t: 2, gust: 12),
            Self.sample(45, mm: 3, t: nil, gust: nil),
        ]
        #expect(
            AheadSummary.worst(samples)
                == AheadSummary.Worst(minTemperatureC: 2, maxGustMps: 12, maxPrecipitationMmH: 3))
        #expect(
            AheadSummary.worst([])
                == AheadSummary.Worst(minTemperatureC: nil, maxGustMps: nil, maxPrecipitationMmH: nil))
    }
}
