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
}
