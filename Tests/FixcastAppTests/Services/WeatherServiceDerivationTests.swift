import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Every fetched report leaves the service with the derived values filled and named, and is stored so.
@Suite(.serialized, .scratch) struct WeatherServiceDerivationTests {
    @Test func aFetchedReportIsDerivedOnceAndStoredDerived() async throws {
        let here = Coordinate(lat: 55.68, lon: 12.57)!
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let service = WeatherService(
            fetcher: OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()), cache: store,
            settings: Settings(),
            clock: ManualClock(UTCTime.parse("2026-07-26T21:00:00Z")!))
        let outcome = await service.weather(at: here, force: false, offline: false)
        let report = try #require(outcome.report)
        // The recording has no dew point; it has its own feels-like and daily sunrise, which win.
        #expect(report.derived == [.dewPoint])
        #expect(report.current.dewPointC != nil)
        #expect(report.current.feelsLikeC == 16.8)
        let stored = try #require(await store.reports.first)
        #expect(stored.derived == [.dewPoint])
    }

    /// Days later and offline, the stored report is served with that day's today and days: not the
    /// fetch day's range as "today", nor days already gone as the next ones.
    @Test func storedWeatherServedDaysLaterIsMovedToThatDay() async throws {
        let here = Coordinate(lat: 55.68, lon: 12.57)!
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(UTCTime.parse("2026-07-26T21:00:00Z")!)
        let service = WeatherService(
            fetcher: OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()), cache: store,
            settings: Settings(), clock: clock)
        let fetched = try #require(await service.weather(at: here, force: false, offline: false).report)
        #expect(fetched.daily.first?.date == "2026-07-26")
        clock.advance(by: 3 * 86_400)
        let later = try #require(await service.weather(at: here, force: false, offline: true).report)
        #expect(later.stale && later.cached)
        #expect(later.daily.map(\.date) == ["2026-07-29", "2026-07-30", "2026-07-31", "2026-08-01"])
        #expect(later.today?.minC == 17.1, "the 29th's minimum, not the 26th's 16.6")
        #expect(later.current == fetched.current)
        #expect(later.derived.contains(.sunrise) && later.derived.contains(.sunset))
        // What is stored stays as fetched.
        #expect(await store.reports.first?.daily.first?.date == "2026-07-26")
    }
}
