import FixcastCore
import Foundation
import Testing

/// When a stored ahead forecast answers `fixcast ahead` instead of a new request (`AheadReuse`).
struct AheadReuseTests {
    typealias F = AheadFixture
    static let settings = AheadSettings(hours: 3, stepMin: 15, minStepKm: 5)

    /// Eastward along the equator at 25 m/s from `x` metres east.
    func plan(from x: Double) -> AheadTrajectory.Plan {
        AheadTrajectory.Plan(
            basis: .course, offRoute: false, path: .course(from: F.east(x), courseDeg: 90), route: nil,
            refreshBasis: .init(basis: .course, routeID: nil, offRoute: false))
    }

    func points(from x: Double, at t: Date) -> [AheadSamplePoint] {
        AheadSampling.samples(along: plan(from: x).path, speedMps: 25, now: t, settings: Self.settings)
    }

    /// The forecast made from `x` at `t`, as the store gives it back.
    func stored(from x: Double, at t: Date) -> AheadForecast {
        AheadForecast(
            basis: .course, madeAt: t, from: .init(coordinate: F.east(x), fixTime: t), speedMps: 25,
            speedSource: .history,
            samples: points(from: x, at: t).map {
                .init(minutes: $0.minutes, eta: $0.eta, distanceKm: $0.distanceM / 1000, coordinate: $0.coordinate)
            })
    }

    @Test func theSameRequestAFewMinutesLaterMatches() {
        let made = stored(from: 0, at: F.t0)
        #expect(made.samples.count == 12)
        // A minute on at 25 m/s: 1.5 km along, every sample 1.5 km on too (within one model cell).
        #expect(
            AheadReuse.matches(
                made, plan: plan(from: 1_500), points: points(from: 1_500, at: F.at(60)), from: F.east(1_500)))
    }

    @Test func aFixMoreThanACellAwayDoesNotMatch() {
        let made = stored(from: 0, at: F.t0)
        #expect(
            !AheadReuse.matches(
                made, plan: plan(from: 2_500), points: points(from: 2_500, at: F.at(100)), from: F.east(2_500)))
        // The samples where they were, but the fix elsewhere (the origin decides too).
        #expect(!AheadReuse.matches(made, plan: plan(from: 0), points: points(from: 0, at: F.t0), from: F.east(2_500)))
    }

    @Test func aSampleMoreThanACellAwayDoesNotMatch() {
        let made = stored(from: 0, at: F.t0)
        var moved = points(from: 0, at: F.t0)
        moved[7].coordinate = F.east(moved[7].distanceM, north: 2_100)
        #expect(!AheadReuse.matches(made, plan: plan(from: 0), points: moved, from: F.east(0)))
        moved[7].coordinate = F.east(moved[7].distanceM, north: 1_900)
        #expect(AheadReuse.matches(made, plan: plan(from: 0), points: moved, from: F.east(0)))
    }

    @Test func anotherCountOfSamplesDoesNotMatch() {
        let made = stored(from: 0, at: F.t0)
        let fewer = AheadSampling.samples(
            along: plan(from: 0).path, speedMps: 25, now: F.t0,
            settings: AheadSettings(hours: 2, stepMin: 15, minStepKm: 5))
        #expect(!AheadReuse.matches(made, plan: plan(from: 0), points: fewer, from: F.east(0)))
    }

    @Test func anotherBasisOrRouteDoesNotMatch() {
        let made = stored(from: 0, at: F.t0)
        let here = points(from: 0, at: F.t0)
        var offRoute = plan(from: 0)
        offRoute.offRoute = true
        #expect(!AheadReuse.matches(made, plan: offRoute, points: here, from: F.east(0)))
        var onRoute = plan(from: 0)
        onRoute.basis = .route
        onRoute.route = AheadForecast.Route(name: "East", remainingKm: 300)
        #expect(!AheadReuse.matches(made, plan: onRoute, points: here, from: F.east(0)))
        var routed = made
        routed.basis = .route
        routed.route = AheadForecast.Route(name: "East", remainingKm: 300)
        #expect(AheadReuse.matches(routed, plan: onRoute, points: here, from: F.east(0)))
        onRoute.route?.name = "West"
        #expect(!AheadReuse.matches(routed, plan: onRoute, points: here, from: F.east(0)))
        onRoute.route?.name = "East"
        // Another route of that name (an edited file, or two unnamed ones) with less of it left.
        onRoute.route?.remainingKm = 290
        #expect(!AheadReuse.matches(routed, plan: onRoute, points: here, from: F.east(0)))
        onRoute.route?.remainingKm = 299
        #expect(AheadReuse.matches(routed, plan: onRoute, points: here, from: F.east(0)))
        routed.route = nil
        #expect(!AheadReuse.matches(routed, plan: onRoute, points: here, from: F.east(0)))
    }

    @Test func itAnswersWithinTheCacheLifetimeAndOfflineWhileItCovers() {
        let made = stored(from: 0, at: F.t0)
        let cache = WeatherCachePolicy(cacheMinutes: 10, forcedCacheMinutes: 1)
        func answer(_ s: Double, forced: Bool = false, offline: Bool = false) -> AheadReuse.Answer? {
            AheadReuse.answer(made, cache: cache, forced: forced, offline: offline, now: F.at(s))
        }
        #expect(answer(0) == .fresh)
        #expect(answer(599) == .fresh)
        #expect(answer(600) == nil)
        // Forced: the one-minute floor.
        #expect(answer(59, forced: true) == .fresh)
        #expect(answer(60, forced: true) == nil)
        // Offline: fresh within the lifetime, stale after it until the last sample's arrival passes.
        #expect(answer(300, offline: true) == .fresh)
        #expect(answer(600, offline: true) == .stale)
        #expect(answer(3 * 3600, offline: true) == .stale)
        #expect(answer(3 * 3600 + 1, offline: true) == nil)
        // Made "in the future" (the clock set back): its age is unknown, it never answers.
        #expect(answer(-1) == nil)
        #expect(answer(-1, offline: true) == nil)
    }

    /// A stored forecast that answers again is judged by the rain threshold in force now.
    @Test func rainAheadIsJudgedByTodaysThreshold() {
        var made = stored(from: 0, at: F.t0)
        made.samples[1].precipitationMmH = 0.3
        made.samples[1].place = "Kyritz"
        made.samples[4].precipitationMmH = 1.2
        let low = AheadForecastAssembly.rain(of: made.samples, rainMmH: 0.2)
        #expect(low == AheadForecast.Rain(inMin: 30, atKm: 45, place: "Kyritz", mmH: 0.3))
        #expect(AheadForecastAssembly.rain(of: made.samples, rainMmH: 1.0)?.inMin == 75)
        #expect(AheadForecastAssembly.rain(of: made.samples, rainMmH: 2.0) == nil)
    }
}
