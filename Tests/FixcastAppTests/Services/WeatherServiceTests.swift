import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// A store in memory, standing in for the SQLite store (written elsewhere) with the same contract.
actor MemoryWeatherStore: WeatherCacheStore, StateStore {
    var reports: [WeatherReport] = []
    var states: [String: String] = [:]

    func latestWeather(provider: WeatherProviderID, near coordinate: Coordinate, withinKm: Double) throws(StorageError)
        -> WeatherReport?
    {
        reports.filter { $0.provider == provider && GreatCircle.distanceKm($0.coordinate, coordinate) <= withinKm }
            .max(by: { $0.fetchedAt < $1.fetchedAt })
    }

    func saveWeather(_ report: WeatherReport) throws(StorageError) { reports.append(report) }
    func state(_ key: String) throws(StorageError) -> String? { states[key] }
    func setState(_ key: String, _ value: String?) throws(StorageError) { states[key] = value }
    func stateHeads(prefix: String, length: Int) throws(StorageError) -> [String: String] {
        states.filter { $0.key.hasPrefix(prefix) }.mapValues { String($0.prefix(length)) }
    }
}

/// The service over the real HTTP client and Open-Meteo provider against the loopback server.
@Suite(.serialized, .scratch) struct WeatherServiceTests {
    let here = Coordinate(lat: 55.68, lon: 12.57)!
    let recorded = TestPaths.fixture("api/open-meteo-forecast.json")
    let start = UTCTime.parse("2026-07-26T21:00:00Z")!

    func service(
        _ server: FixtureServer, store: MemoryWeatherStore?, clock: ManualClock, http: CurlHTTPClient = CurlHTTPClient()
    ) -> WeatherService {
        WeatherService(
            fetcher: OpenMeteoWeather(baseURL: server.baseURL, http: http), cache: store, settings: Settings(),
            clock: clock)
    }

    func waitForRequests(_ server: FixtureServer, _ count: Int) async {
        for _ in 0..<500 where server.requestCount() < count { try? await Task.sleep(nanoseconds: 10_000_000) }
    }

    @Test func secondRequestWithinTenMinutesIsServedFromTheStore() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(start)
        let first = await service(server, store: store, clock: clock).weather(at: here, force: false, offline: false)
        #expect(first.error == nil)
        #expect(first.report?.cached == false)
        #expect(first.report?.stale == false)
        #expect(first.report?.fetchedAt == start)
        #expect(first.report?.current.temperatureC == 16.8)
        #expect(server.requestCount() == 1)

        // A separate service on the same store, as a second `fixcast now` run: no request.
        clock.advance(by: 9 * 60)
        let second = await service(server, store: store, clock: clock).weather(at: here, force: false, offline: false)
        #expect(second.report?.cached == true)
        #expect(second.report?.stale == false)
        #expect(second.report?.fetchedAt == start)
        #expect(second.error == nil)
        #expect(server.requestCount() == 1)

        clock.advance(by: 61)
        let third = await service(server, store: store, clock: clock).weather(at: here, force: false, offline: false)
        #expect(third.report?.cached == false)
        #expect(server.requestCount() == 2)
    }

    @Test func forcedRequestsRespectTheOneMinuteFloor() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(start)
        let service = service(server, store: store, clock: clock)
        _ = await service.weather(at: here, force: false, offline: false)
        clock.advance(by: 30)
        let early = await service.weather(at: here, force: true, offline: false)
        #expect(early.report?.cached == true)
        #expect(server.requestCount() == 1)
        clock.advance(by: 31)
        let late = await service.weather(at: here, force: true, offline: false)
        #expect(late.report?.cached == false)
        #expect(server.requestCount() == 2)
    }

    @Test func movingBeyondFiveKilometresFetches() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let clock = ManualClock(start)
        let service = service(server, store: MemoryWeatherStore(), clock: clock)
        _ = await service.weather(at: here, force: false, offline: false)
        _ = await service.weather(at: Coordinate(lat: 55.70, lon: 12.57)!, force: false, offline: false)  // 2.2 km
        #expect(server.requestCount() == 1)
        // 7.8 km away.
        let moved = await service.weather(at: Coordinate(lat: 55.75, lon: 12.57)!, force: false, offline: false)
        #expect(moved.report?.cached == false)
        #expect(moved.report?.coordinate == Coordinate(lat: 55.75, lon: 12.57)!)
        #expect(server.requestCount() == 2)
    }

    @Test func offlineServesOnlyWhatIsStored() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(start)
        let service = service(server, store: store, clock: clock)
        let nothing = await service.weather(at: here, force: false, offline: true)
        #expect(nothing.report == nil)
        #expect(nothing.error == .offline)
        _ = await service.weather(at: here, force: false, offline: false)
        clock.advance(by: 3600)
        let old = await service.weather(at: here, force: true, offline: true)
        #expect(old.report?.cached == true)
        #expect(old.report?.stale == true)
        #expect(old.error == nil)
        #expect(server.requestCount() == 1)
    }

    @Test func aServerErrorServesTheStoredReportStaleAndBacksOff() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [
                .file(recorded), .body(#"{"error":true,"reason":"Internal"}"#, status: 500), .file(recorded),
            ]
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(start)
        _ = await service(server, store: store, clock: clock).weather(at: here, force: false, offline: false)
        clock.advance(by: 11 * 60)
        let failed = await service(server, store: store, clock: clock).weather(at: here, force: false, offline: false)
        #expect(failed.report?.stale == true)
        #expect(failed.report?.cached == true)
        #expect(failed.report?.fetchedAt == start)
        #expect(failed.error == .status(provider: .openMeteo, code: 500, detail: "Internal", retryAfter: nil))
        #expect(server.requestCount() == 2)

        // The next run, 10 s later and even forced, does not ask: the back-off (30 s) is in the store.
        clock.advance(by: 10)
        let held = await service(server, store: store, clock: clock).weather(at: here, force: true, offline: false)
        #expect(held.report?.stale == true)
        #expect(held.error == .backingOff(provider: .openMeteo, until: start.addingTimeInterval(11 * 60 + 30)))
        #expect(server.requestCount() == 2)

        clock.advance(by: 21)
        let recovered = await service(server, store: store, clock: clock).weather(
            at: here, force: false, offline: false)
        #expect(recovered.error == nil)
        #expect(recovered.report?.stale == false)
        #expect(server.requestCount() == 3)
        #expect(await store.states.values.isEmpty)  // success cleared the back-off
    }

    @Test func retryAfterIsObeyedAcrossRuns() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [
                .body(#"{"error":true,"reason":"Too many"}"#, status: 429, headers: ["Retry-After": "120"]),
                .file(recorded),
            ]
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(start)
        let refused = await service(server, store: store, clock: clock).weather(at: here, force: false, offline: false)
        #expect(refused.report == nil)
        #expect(refused.error?.message.contains("HTTP 429") == true)
        clock.advance(by: 119)
        let waiting = await service(server, store: store, clock: clock).weather(at: here, force: true, offline: false)
        #expect(waiting.report == nil)
        #expect(waiting.error == .backingOff(provider: .openMeteo, until: start.addingTimeInterval(120)))
        #expect(server.requestCount() == 1)
        clock.advance(by: 1)
        let done = await service(server, store: store, clock: clock).weather(at: here, force: false, offline: false)
        #expect(done.report != nil)
        #expect(server.requestCount() == 2)
    }

    @Test func aTransportFailureWithNothingStoredIsJustTheError() async throws {
        let clock = ManualClock(start)
        let service = WeatherService(
            fetcher: OpenMeteoWeather(baseURL: "http://127.0.0.1:\(freeLoopbackPort())", http: CurlHTTPClient()),
            cache: MemoryWeatherStore(), settings: Settings(), clock: clock)
        let outcome = await service.weather(at: here, force: false, offline: false)
        #expect(outcome.report == nil)
        guard case .transport(.openMeteo, .connectionRefused) = outcome.error else {
            Issue.record("\(String(describing: outcome.error))")
            return
        }
        // A transport failure is not a 429/5xx: no back-off, the next call asks again.
        let again = await service.weather(at: here, force: false, offline: false)
        guard case .transport = again.error else {
            Issue.record("\(String(describing: again.error))")
            return
        }
        #expect(await service.fetchCount == 2)
    }

    /// A real store that refuses every write (opened read-only, as a full SD card or a read-only file
    /// refuses them), over the service of each test's server.
    func serviceOverAStoreThatCannotBeWritten(_ server: FixtureServer, clock: ManualClock) throws -> WeatherService {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        return WeatherService(
            fetcher: OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()), cache: readOnly,
            settings: Settings(), clock: clock)
    }

    /// A 429's Retry-After that the store cannot keep is kept in memory: the next trigger does not ask.
    @Test func aBackoffTheStoreCannotKeepStillHoldsRequestsBack() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [
                .body(#"{"error":true,"reason":"Too many"}"#, status: 429, headers: ["Retry-After": "600"]),
                .file(recorded),
            ]
        ])
        defer { server.stop() }
        let clock = ManualClock(start)
        let service = try serviceOverAStoreThatCannotBeWritten(server, clock: clock)
        let refused = await service.weather(at: here, force: false, offline: false)
        #expect(refused.error?.message.contains("HTTP 429") == true)
        clock.advance(by: 60)
        let held = await service.weather(at: here, force: true, offline: false)
        #expect(held.error == .backingOff(provider: .openMeteo, until: start.addingTimeInterval(600)))
        #expect(server.requestCount() == 1)
        #expect(await service.fetchCount == 1)
    }

    /// A report the store cannot keep still answers within the cache lifetime and the forced floor.
    @Test func aReportTheStoreCannotKeepStillServesFromTheCache() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let clock = ManualClock(start)
        let service = try serviceOverAStoreThatCannotBeWritten(server, clock: clock)
        let first = await service.weather(at: here, force: false, offline: false)
        #expect(first.report?.cached == false)
        clock.advance(by: 30)
        let forced = await service.weather(at: here, force: true, offline: false)
        #expect(forced.report?.cached == true)
        #expect(forced.report?.fetchedAt == start)
        clock.advance(by: 5 * 60)
        let ordinary = await service.weather(at: here, force: false, offline: false)
        #expect(ordinary.report?.cached == true)
        #expect(server.requestCount() == 1)
    }

    /// OpenWeatherMap's current weather came and its forecast was refused with 429: the report is
    /// served with the one problem named, and the forecast's Retry-After holds the next request back.
    @Test func aRefusedForecastBesideACurrentWeatherStillBacksOff() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": [.file(TestPaths.fixture("api/owm-current.json"))],
            "/data/2.5/forecast": [
                .body(#"{"cod":429,"message":"slow"}"#, status: 429, headers: ["Retry-After": "3600"])
            ],
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(start)
        let service = WeatherService(
            fetcher: OpenWeatherMapWeather(baseURL: server.baseURL, apiKey: "k", http: CurlHTTPClient()), cache: store,
            settings: Settings(), clock: clock)
        let first = await service.weather(at: here, force: false, offline: false)
        #expect(first.error == nil)
        #expect(first.report?.current.temperatureC == 25.33)
        #expect(first.report?.valueProblems.map(\.field) == ["daily"])
        #expect(first.report?.valueProblems.first?.message.contains("HTTP 429") == true)
        clock.advance(by: 11 * 60)
        let held = await service.weather(at: here, force: false, offline: false)
        #expect(held.error == .backingOff(provider: .openWeatherMap, until: start.addingTimeInterval(3600)))
        #expect(held.report?.stale == true)
        #expect(server.requestCount() == 2)
    }

    @Test func withoutAStoreTheServiceRemembersInMemory() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let service = service(server, store: nil, clock: ManualClock(start))
        _ = await service.weather(at: here, force: false, offline: false)
        let second = await service.weather(at: here, force: false, offline: false)
        #expect(second.report?.cached == true)
        #expect(server.requestCount() == 1)
    }

    // MARK: Coalescing (a slow server keeps the first request in flight)

    @Test func concurrentRequestsJoinTheOneInFlight() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [FixtureResponse(file: recorded, delay: 1)]])
        defer { server.stop() }
        let service = service(server, store: MemoryWeatherStore(), clock: ManualClock(start))
        async let a = service.weather(at: here, force: false, offline: false)
        async let b = service.weather(at: here, force: false, offline: false)
        async let c = service.weather(at: here, force: true, offline: false)
        let outcomes = await [a, b, c]
        #expect(outcomes.allSatisfy { $0.report?.current.temperatureC == 16.8 })
        #expect(server.requestCount() == 1)
        #expect(await service.fetchCount == 1)
    }

    @Test func aForcedRequestDuringAnOrdinaryOneForcesAFreshOneAfterIt() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [FixtureResponse(file: recorded, delay: 1)]])
        defer { server.stop() }
        let clock = ManualClock(start)
        let service = service(server, store: MemoryWeatherStore(), clock: clock)
        async let ordinary = service.weather(at: here, force: false, offline: false)
        await waitForRequests(server, 1)
        // The ordinary request started at `start`; by the time it lands its data is 2 minutes old, older
        // than the forced lifetime: the forced request must not be satisfied by it.
        clock.advance(by: 120)
        let forced = await service.weather(at: here, force: true, offline: false)
        let first = await ordinary
        #expect(first.report?.fetchedAt == start)
        #expect(forced.report?.fetchedAt == start.addingTimeInterval(120))
        #expect(forced.report?.cached == false)
        #expect(server.requestCount() == 2)
    }

    @Test func anOrdinaryRequestDuringAForcedOneJoinsIt() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [FixtureResponse(file: recorded, delay: 1)]])
        defer { server.stop() }
        let clock = ManualClock(start)
        let service = service(server, store: MemoryWeatherStore(), clock: clock)
        async let forced = service.weather(at: here, force: true, offline: false)
        await waitForRequests(server, 1)
        clock.advance(by: 120)
        let ordinary = await service.weather(at: here, force: false, offline: false)
        #expect(ordinary.report?.fetchedAt == start)
        #expect(await forced.report?.fetchedAt == start)
        #expect(server.requestCount() == 1)
    }

    // MARK: Every injected fault: the stored weather, stale, and one sentence naming the weather service

    static let faults: [(String, FixtureResponse)] = [
        ("500", .body(#"{"error":true,"reason":"Internal"}"#, status: 500)),
        ("429", .body(#"{"error":true,"reason":"Too many"}"#, status: 429, headers: ["Retry-After": "60"])),
        ("slow", FixtureResponse(body: "{}", delay: 3)),
        ("truncated", FixtureResponse(file: TestPaths.fixture("api/open-meteo-forecast.json"), truncate: true)),
        ("invalid JSON", .body(#"{"current": {"temperature_2m": 1,"#)),
        (
            "HTML",
            .body("<html><body>Service Unavailable</body></html>", status: 200, headers: ["Content-Type": "text/html"])
        ),
        ("over the cap", FixtureResponse(size: 2 * 1024 * 1024 + 1)),
        ("closed", FixtureResponse(close: true)),
    ]

    @Test(arguments: faults.map(\.0)) func eachFaultServesTheStoredWeatherStale(fault: String) async throws {
        let response = try #require(Self.faults.first(where: { $0.0 == fault })?.1)
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded), response]])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(start)
        let quick = CurlHTTPClient(limits: .init(connectTimeoutS: 1, totalTimeoutS: 1))
        _ = await service(server, store: store, clock: clock, http: quick).weather(
            at: here, force: false, offline: false)
        clock.advance(by: 11 * 60)
        let outcome = await service(server, store: store, clock: clock, http: quick).weather(
            at: here, force: false, offline: false)
        #expect(outcome.report?.stale == true)
        #expect(outcome.report?.fetchedAt == start)
        let message = try #require(outcome.error?.message)
        #expect(message.hasPrefix("weather: "))
        #expect(message.hasSuffix("."))
        #expect(!message.dropLast().contains("\n"))
        #expect(server.requestCount() == 2)

        // With nothing stored: no report, the same kind of sentence.
        let empty = await service(server, store: MemoryWeatherStore(), clock: clock, http: quick).weather(
            at: here, force: false, offline: false)
        #expect(empty.report == nil)
        #expect(empty.error?.message.hasPrefix("weather: ") == true)
    }

    @Test func connectionRefusedServesTheStoredWeatherStale() async throws {
        let store = MemoryWeatherStore()
        let stored = WeatherReport(
            provider: .openMeteo, fetchedAt: start, coordinate: here, current: CurrentConditions(temperatureC: 3))
        try await store.saveWeather(stored)
        let clock = ManualClock(start.addingTimeInterval(3600))
        let service = WeatherService(
            fetcher: OpenMeteoWeather(baseURL: "http://127.0.0.1:\(freeLoopbackPort())", http: CurlHTTPClient()),
            cache: store, settings: Settings(), clock: clock)
        let outcome = await service.weather(at: here, force: false, offline: false)
        #expect(outcome.report?.current.temperatureC == 3)
        #expect(outcome.report?.stale == true)
        #expect(outcome.error?.message.contains("refused the connection") == true)
    }
}
