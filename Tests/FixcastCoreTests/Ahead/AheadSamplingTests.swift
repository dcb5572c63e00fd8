import FixcastCore
import Testing

@testable import FixcastCore

@Suite("AheadSampling")
struct AheadSamplingTests {
    typealias F = AheadFixture
    static let settings = AheadSettings(hours: 3, stepMin: 15, minStepKm: 5)

    @Test func onePerStepOfTravelOutToTheHorizonOnTheCourse() {
        // 25 m/s: 22.5 km per 15 min, 12 samples in 3 h.
        let samples = AheadSampling.samples(
            along: .course(from: F.east(0), courseDeg: 90), speedMps: 25, now: F.at(0), settings: Self.settings)
        #expect(samples.count == 12)
        #expect(samples.map(\.minutes) == Array(stride(from: 15, through: 180, by: 15)))
        #expect(abs(samples[0].distanceM - 22_500) < 1e-6)
        #expect(samples[0].eta == F.at(900))
        #expect(abs(samples[3].coordinate.lon - 90_000 / F.mPerDegLat) < 1e-9)
        #expect(abs((samples[3].travelBearingDeg ?? 0) - 90) < 1e-6)
    }

    @Test func neverCloserThanTheMinimumStep() {
        // 2 m/s would give 1.8 km per 15 min; 5 km apart instead, each at its own ETA.
        let samples = AheadSampling.samples(
            along: .course(from: F.east(0), courseDeg: 0), speedMps: 2, now: F.at(0), settings: Self.settings)
        #expect(samples.count == 4)  // 5, 10, 15, 20 km within the 21.6 km of 3 h
        #expect(samples.map(\.distanceM) == [5_000, 10_000, 15_000, 20_000])
        #expect(samples[0].eta == F.at(2_500))
        #expect(samples[0].minutes == 42)
    }

    @Test func alongARouteUntilItsEnd() {
        let route = F.geometry([F.east(0), F.east(30_000), F.east(30_000, north: 40_000)])
        // From 10 km along, 60 km remain; 20 m/s gives 18 km steps: 18, 36, 54, then the end at 60
        // is only 6 km on, still ≥ 5 km: a sample.
        let samples = AheadSampling.samples(
            along: .route(route, fromAlongM: 10_000), speedMps: 20, now: F.at(0), settings: Self.settings)
        #expect(
            zip(samples.map(\.distanceM), [18_000, 36_000, 54_000, 60_000]).allSatisfy { abs($0 - $1) < 1e-6 }
                && samples.count == 4)
        #expect(abs(samples[0].coordinate.lon - 28_000 / F.mPerDegLat) < 1e-9)
        #expect(abs((samples[0].travelBearingDeg ?? 0) - 90) < 1e-6)
        #expect(F.angleApart(samples[1].travelBearingDeg ?? 180, 0) < 1e-6)
        #expect(samples[3].eta == F.at(3_000))
        // An end closer than the minimum step to the last sample is not added.
        let near = AheadSampling.samples(
            along: .route(route, fromAlongM: 13_000), speedMps: 20, now: F.at(0), settings: Self.settings)
        #expect(near.map(\.distanceM) == [18_000, 36_000, 54_000])
    }

    @Test func aRouteLongerThanTheHorizonIsCutAtIt() {
        let route = F.geometry([F.east(0), F.east(500_000)])
        let samples = AheadSampling.samples(
            along: .route(route, fromAlongM: 0), speedMps: 30, now: F.at(0), settings: AheadSettings(hours: 1))
        #expect(samples.map(\.distanceM) == [27_000, 54_000, 81_000, 108_000])
    }

    @Test func stationaryIsHereAtLaterTimes() {
        let samples = AheadSampling.samples(
            along: .stationary(at: F.east(0)), speedMps: 0, now: F.at(0), settings: AheadSettings(hours: 1, stepMin: 20)
        )
        #expect(samples.map(\.minutes) == [20, 40, 60])
        #expect(samples.allSatisfy { $0.distanceM == 0 && $0.coordinate == F.east(0) && $0.travelBearingDeg == nil })
        #expect(samples.last?.eta == F.at(3_600))
    }

    @Test func noSpeedNoSamplesAndTheCountIsBounded() {
        #expect(
            AheadSampling.samples(
                along: .course(from: F.east(0), courseDeg: 0), speedMps: 0, now: F.at(0), settings: Self.settings
            ).isEmpty)
        #expect(
            AheadSampling.samples(
                along: .course(from: F.east(0), courseDeg: 0), speedMps: .nan, now: F.at(0), settings: Self.settings
            ).isEmpty)
        let many = AheadSampling.samples(
            along: .stationary(at: F.east(0)), speedMps: 0, now: F.at(0), settings: AheadSettings(hours: 48, stepMin: 1)
        )
        #expect(many.count == AheadSampling.maxSamples)
    }

    /// `step_min` 5 over 12 h wants 144 samples: the step is widened so the 96 allowed still reach the
    /// 12 h asked for (they stopped at 8 h, unsaid); on the course as stationary.
    @Test func aStepTooFineForTheWindowIsWidenedToReachIt() {
        let fine = AheadSettings(hours: 12, stepMin: 5, minStepKm: 1)
        let still = AheadSampling.samples(along: .stationary(at: F.east(0)), speedMps: 0, now: F.at(0), settings: fine)
        #expect(still.count == AheadSampling.maxSamples)
        #expect(still.last?.eta == F.at(12 * 3600))
        #expect(still.first?.minutes == 8, "720 min ÷ 96")
        let moving = AheadSampling.samples(
            along: .course(from: F.east(0), courseDeg: 90), speedMps: 25, now: F.at(0), settings: fine)
        #expect(moving.count == AheadSampling.maxSamples)
        #expect(moving.last?.eta == F.at(12 * 3600))
        // A step that fits is kept as asked.
        #expect(AheadSampling.stepS(AheadSettings(hours: 12, stepMin: 15)) == 15 * 60)
    }

    /// Walking at 1.3 m/s with `--hours 1` reaches 4.68 km, short of the 5 km minimum step: one sample
    /// where the hour ends (it had none, and the headline said "The route ends here" with 20 km left).
    @Test func aWayShorterThanOneStepGetsOneSampleAtItsEnd() {
        let walk = AheadSettings(hours: 1, stepMin: 15, minStepKm: 5)
        let route = F.geometry([F.east(0), F.east(20_000)])
        let onRoute = AheadSampling.samples(
            along: .route(route, fromAlongM: 0), speedMps: 1.3, now: F.at(0), settings: walk)
        #expect(onRoute.count == 1)
        #expect(abs((onRoute.first?.distanceM ?? 0) - 1.3 * 3_600) < 1e-6)
        #expect(onRoute.first?.eta == F.at(3_600) && onRoute.first?.minutes == 60)
        #expect(abs((onRoute.first?.coordinate.lon ?? 0) - 4_680 / F.mPerDegLat) < 1e-9)
        let onCourse = AheadSampling.samples(
            along: .course(from: F.east(0), courseDeg: 90), speedMps: 1.3, now: F.at(0), settings: walk)
        #expect(onCourse.map(\.eta) == [F.at(3_600)])
        // The route's last 3 km, within the hour: one sample at its end.
        let last = AheadSampling.samples(
            along: .route(route, fromAlongM: 17_000), speedMps: 1.3, now: F.at(0), settings: walk)
        #expect(last.count == 1 && abs((last.first?.distanceM ?? 0) - 3_000) < 1e-6)
        // Under a kilometre of it left: the route ends here, nothing to ask.
        #expect(
            AheadSampling.samples(
                along: .route(route, fromAlongM: 19_500), speedMps: 1.3, now: F.at(0), settings: walk
            ).isEmpty)
    }

    /// `min_step_km = 0`: the route's end is not added where a sample already is, nor here and now
    /// at the route's end (a sample at 0 km, ETA now).
    @Test func noMinimumStepAddsNoSampleHereNorTwiceAtTheEnd() {
        let free = AheadSettings(hours: 3, stepMin: 15, minStepKm: 0)
        let route = F.geometry([F.east(0), F.east(36_000)])
        // 20 m/s: 18 km steps; the end at 36 km is the second step.
        let onStep = AheadSampling.samples(
            along: .route(route, fromAlongM: 0), speedMps: 20, now: F.at(0), settings: free)
        #expect(onStep.map(\.distanceM) == [18_000, 36_000])
        let atTheEnd = AheadSampling.samples(
            along: .route(route, fromAlongM: route.lengthM), speedMps: 20, now: F.at(0), settings: free)
        #expect(atTheEnd.isEmpty, "\(atTheEnd.map(\.distanceM))")
    }
}
