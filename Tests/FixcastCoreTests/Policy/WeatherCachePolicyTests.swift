import Foundation
import Testing

@testable import FixcastCore

@Suite struct WeatherCachePolicyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let berlin = Coordinate(lat: 52.52, lon: 13.405)!
    let policy = WeatherCachePolicy()

    func point(kmNorth km: Double) -> Coordinate { Coordinate(lat: 52.52 + km / 111.195, lon: 13.405)! }

    @Test func defaultsAreTheContractsNumbers() {
        #expect(policy.lifetime(forced: false) == 600)
        #expect(policy.lifetime(forced: true) == 60)
        #expect(policy.moveKm == 5)
        var settings = Settings()
        settings.weather.cacheMin = 20
        settings.weather.forcedCacheMin = 2
        settings.trigger.moveKm = 1
        let custom = WeatherCachePolicy(settings: settings)
        #expect(custom.lifetime(forced: false) == 1200)
        #expect(custom.lifetime(forced: true) == 120)
        #expect(custom.moveKm == 1)
    }

    @Test(arguments: [(0.0, true), (599.0, true), (600.0, false), (3600.0, false)])
    func ordinaryLifetimeIsTenMinutes(age: Double, serves: Bool) {
        #expect(
            policy.serves(
                fetchedAt: now.addingTimeInterval(-age), fetchedFor: berlin, position: berlin, forced: false, now: now)
                == serves)
    }

    @Test(arguments: [(0.0, true), (59.0, true), (60.0, false), (300.0, false)])
    func forcedLifetimeIsOneMinute(age: Double, serves: Bool) {
        #expect(
            policy.serves(
                fetchedAt: now.addingTimeInterval(-age), fetchedFor: berlin, position: berlin, forced: true, now: now)
                == serves)
    }

    @Test(arguments: [(0.0, true), (4.9, true), (5.1, false), (50.0, false)])
    func distanceFromTheFetchPoint(km: Double, serves: Bool) {
        #expect(
            policy.serves(
                fetchedAt: now.addingTimeInterval(-10), fetchedFor: berlin, position: point(kmNorth: km), forced: false,
                now: now) == serves)
    }

    @Test func forcedLifetimeIsNeverZero() {
        let zero = WeatherCachePolicy(cacheMinutes: 10, forcedCacheMinutes: 0)
        #expect(zero.lifetime(forced: true) == WeatherCachePolicy.minimumForcedLifetimeS)
        let negative = WeatherCachePolicy(cacheMinutes: 10, forcedCacheMinutes: -5)
        #expect(negative.lifetime(forced: true) == 60)
        #expect(
            zero.serves(
                fetchedAt: now.addingTimeInterval(-30), fetchedFor: berlin, position: berlin, forced: true, now: now))
    }

    @Test func forcedIsNeverLongerThanOrdinary() {
        let odd = WeatherCachePolicy(cacheMinutes: 5, forcedCacheMinutes: 30)
        #expect(odd.lifetime(forced: true) == 300)
        let tiny = WeatherCachePolicy(cacheMinutes: 0, forcedCacheMinutes: 1)
        #expect(tiny.lifetime(forced: false) == 0)
        #expect(tiny.lifetime(forced: true) == 60)
    }

    @Test func aFetchTimeInTheFutureNeverServes() {
        #expect(
            !policy.serves(
                fetchedAt: now.addingTimeInterval(120), fetchedFor: berlin, position: berlin, forced: false, now: now))
    }

    @Test func reportOverloadUsesItsFetchPoint() {
        let report = WeatherReport(
            provider: .openMeteo, fetchedAt: now.addingTimeInterval(-60), coordinate: berlin,
            current: CurrentConditions())
        #expect(policy.serves(report, position: berlin, forced: false, now: now))
        #expect(!policy.serves(report, position: point(kmNorth: 6), forced: false, now: now))
        #expect(!policy.serves(report, position: berlin, forced: true, now: now))
    }
}
