import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

@Suite(.serialized, .scratch) struct MetNorwayWeatherTests {
    let oslo = Coordinate(lat: 59.913868, lon: 10.752245)!
    let recorded = TestPaths.fixture("api/metno-compact.json")
    let lastModified = "Sun, 04 Feb 2024 01:35:05 GMT"

    /// One weather request as a new `fixcast now` makes it: a new MET provider and service on `store`.
    static func runAsNewProcess(
        _ server: FixtureServer, store: MemoryWeatherStore, clock: ManualClock, at coordinate: Coordinate
    ) async throws -> WeatherOutcome {
        var settings = Settings()
        settings.weather.provider = .metNorway
        settings.weather.baseURL = server.baseURL
        let fetcher = try WeatherProviders.make(settings: settings.weather, http: CurlHTTPClient(), store: store)
        return await WeatherService(fetcher: fetcher, cache: store, settings: settings, clock: clock).weather(
            at: coordinate, force: false, offline: false)
    }

    @Test func honoursExpiresAndRevalidatesWithIfModifiedSince() async throws {
        let server = try FixtureServer(routes: [
            "/weatherapi/locationforecast/2.0/compact": [
                .file(
                    recorded,
                    headers: [
                        "Expires": "Sun, 04 Feb 2024 02:00:00 GMT", "Last-Modified": lastModified,
                        "Date": "Sun, 04 Feb 2024 01:40:00 GMT",
                    ]),
                .body(
                    "", status: 304,
                    headers: ["Expires": "Sun, 04 Feb 2024 03:00:00 GMT", "Date": "Sun, 04 Feb 2024 02:05:00 GMT"]),
            ]
        ])
        defer { server.stop() }
        let provider = MetNorwayWeather(baseURL: server.baseURL, http: CurlHTTPClient())
        let first = try await provider.fetch(at: oslo, now: UTCTime.parse("2024-02-04T01:40:00Z")!)
        #expect(first.current.temperatureC == 0.7)
        // Before Expires: no request at all.
        let second = try await provider.fetch(at: oslo, now: UTCTime.parse("2024-02-04T01:59:00Z")!)
        #expect(second.cached)
        #expect(!first.cached)
        #expect(second.current == first.current)
        #expect(second.fetchedAt == first.fetchedAt)
        #expect(server.requestCount() == 1)
        // After Expires: one conditional request; a 304 says MET's forecast is the one held, which
        // is read again at the new time (its current step is that hour's, not the first fetch's).
        let revalidatedAt = UTCTime.parse("2024-02-04T02:05:00Z")!
        let third = try await provider.fetch(at: oslo, now: revalidatedAt)
        let readAgain = try MetNorwayDecoder.decode(
            Array(try Data(contentsOf: URL(fileURLWithPath: recorded))), coordinate: oslo, fetchedAt: revalidatedAt)
        #expect(third == readAgain)
        #expect(third.current != first.current, "the 02:00 step, not the 01:00 one")
        #expect(third.fetchedAt == revalidatedAt && !third.cached)
        let requests = server.requests()
        #expect(requests.count == 2)
        #expect(requests.first?.headers["if-modified-since"] == nil)
        #expect(requests.last?.headers["if-modified-since"] == lastModified)
        #expect(requests.allSatisfy { $0.query == "lat=59.9139&lon=10.7522" })
        #expect(requests.allSatisfy { $0.headers["user-agent"] == FixcastInfo.userAgent })
        // The 304's Expires counts: no request before 03:00.
        _ = try await provider.fetch(at: oslo, now: UTCTime.parse("2024-02-04T02:30:00Z")!)
        #expect(server.requestCount() == 2)
    }

    /// MET sets `Expires` about half an hour ahead. One years away (a broken header, or a clock that read
    /// far behind when it came) kept fixcast from asking for that point until then, serving the first
    /// answer ever older; it stands for at most an hour now (`ServerExpiry`).
    @Test(arguments: ["Fri, 31 Dec 9999 23:59:59 GMT", "Sun, 04 Feb 2024 03:41:00 GMT"])
    func anExpiresFurtherThanAnHourDoesNotStand(_ expires: String) async throws {
        let server = try FixtureServer(routes: [
            "/weatherapi/locationforecast/2.0/compact": [.file(recorded, headers: ["Expires": expires])]
        ])
        defer { server.stop() }
        let provider = MetNorwayWeather(baseURL: server.baseURL, http: CurlHTTPClient())
        _ = try await provider.fetch(at: oslo, now: UTCTime.parse("2024-02-04T01:40:00Z")!)
        let second = try await provider.fetch(at: oslo, now: UTCTime.parse("2024-02-04T01:41:00Z")!)
        #expect(!second.cached)
        #expect(server.requestCount() == 2)
    }

    @Test func withoutExpiresEveryFetchAsks() async throws {
        let server = try FixtureServer(routes: ["/weatherapi/locationforecast/2.0/compact": [.file(recorded)]])
        defer { server.stop() }
        let provider = MetNorwayWeather(baseURL: server.baseURL, http: CurlHTTPClient())
        let now = UTCTime.parse("2024-02-04T01:40:00Z")!
        _ = try await provider.fetch(at: oslo, now: now)
        _ = try await provider.fetch(at: oslo, now: now)
        #expect(server.requestCount() == 2)
        #expect(server.requests().allSatisfy { $0.headers["if-modified-since"] == nil })
    }

    @Test func statusErrorsAndUnexpected304() async throws {
        let server = try FixtureServer(routes: [
            "/weatherapi/locationforecast/2.0/compact": [
                .body("Too Many Requests", status: 429, headers: ["Content-Type": "text/plain", "Retry-After": "60"])
            ],
            "/nm/weatherapi/locationforecast/2.0/compact": [.body("", status: 304)],
        ])
        defer { server.stop() }
        let now = UTCTime.parse("2024-02-04T01:40:00Z")!
        let throttled = await weatherError { () throws(WeatherError) in
            try await MetNorwayWeather(baseURL: server.baseURL, http: CurlHTTPClient()).fetch(at: oslo, now: now)
        }
        #expect(throttled == .status(provider: .metNorway, code: 429, detail: "Too Many Requests", retryAfter: "60"))
        let stray = await weatherError { () throws(WeatherError) in
            try await MetNorwayWeather(baseURL: server.baseURL + "/nm", http: CurlHTTPClient()).fetch(
                at: oslo, now: now)
        }
        guard case .invalidResponse(.metNorway, _) = stray else {
            Issue.record("\(String(describing: stray))")
            return
        }
    }

    /// Two `fixcast now` runs 15 min apart (past the 10-min cache, before MET's Expires) make one
    /// request; after Expires, one conditional request whose 304 serves the stored report with its
    /// own age (a new process holds only that, not MET's body): it was "updated just now" before.
    @Test func expiresIsHonouredAcrossRunsThroughTheStore() async throws {
        let server = try FixtureServer(routes: [
            "/weatherapi/locationforecast/2.0/compact": [
                .file(
                    recorded,
                    headers: [
                        "Expires": "Sun, 04 Feb 2024 02:10:00 GMT", "Last-Modified": lastModified,
                        "Date": "Sun, 04 Feb 2024 01:40:00 GMT",
                    ]),
                .body(
                    "", status: 304,
                    headers: ["Expires": "Sun, 04 Feb 2024 03:00:00 GMT", "Date": "Sun, 04 Feb 2024 02:15:00 GMT"]),
            ]
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(UTCTime.parse("2024-02-04T01:40:00Z")!)
        func run() async throws -> WeatherOutcome {
            try await Self.runAsNewProcess(server, store: store, clock: clock, at: oslo)
        }
        let first = try await run()
        #expect(first.report?.cached == false)
        clock.advance(by: 15 * 60)
        let second = try await run()
        #expect(second.error == nil)
        #expect(second.report?.cached == true)
        #expect(second.report?.current == first.report?.current)
        #expect(server.requestCount() == 1)
        clock.advance(by: 20 * 60)
        let third = try await run()
        #expect(third.error == nil)
        #expect(third.report?.cached == true)
        #expect(third.report?.fetchedAt == first.report?.fetchedAt)
        #expect(third.report?.current == first.report?.current)
        #expect(server.requestCount() == 2)
        #expect(server.requests().last?.headers["if-modified-since"] == lastModified)
    }

    /// Each answer held in memory is MET's whole body (~100 KB), and a moving `run` asks at a new rounded
    /// position each time: every one was kept for the life of the process. Now the last
    /// `entriesInMemory`; the store keeps a day's validators, at most `storedValidators.limit`.
    @Test func answersHeldAndValidatorsKeptAreBounded() async throws {
        let server = try FixtureServer(routes: [
            "/weatherapi/locationforecast/2.0/compact": [
                .file(recorded, headers: ["Expires": "Sun, 04 Feb 2024 02:00:00 GMT", "Last-Modified": lastModified])
            ]
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let now = UTCTime.parse("2024-02-04T01:40:00Z")!
        // A validator from two days ago, one in the old format (no received time), and one too many
        // fresh ones: the first new position trims them.
        let old = MetNorwayWeather.stateKey("lat=1&lon=1")
        try await store.setState(
            old, "\(Int(now.timeIntervalSince1970) - 172_800) \(Int(now.timeIntervalSince1970) - 172_800)|x")
        let oldFormat = MetNorwayWeather.stateKey("lat=2&lon=2")
        try await store.setState(oldFormat, "\(Int(now.timeIntervalSince1970))|x")
        let limit = MetNorwayWeather.storedValidators.limit
        for i in 0..<limit {
            let t = Int(now.timeIntervalSince1970) - 3600 - i
            try await store.setState(MetNorwayWeather.stateKey("lat=3&lon=\(i)"), "\(t) \(t)|x")
        }
        let provider = MetNorwayWeather(baseURL: server.baseURL, http: CurlHTTPClient(), store: store)
        for i in 0..<12 {
            let here = Coordinate(lat: 59.9 + Double(i) * 0.01, lon: 10.75)!
            _ = try await provider.fetch(at: here, now: now.addingTimeInterval(Double(i)))
            #expect(provider.entriesHeld == min(i + 1, MetNorwayWeather.entriesInMemory))
        }
        #expect(server.requestCount() == 12)
        let kept = try await store.stateHeads(prefix: MetNorwayWeather.stateKey(""), length: 1_000)
        #expect(kept.count == limit)
        #expect(kept[old] == nil && kept[oldFormat] == nil)
        // The twelve just asked are all kept; the oldest fresh ones made room for them.
        for i in 0..<12 {
            #expect(
                kept[
                    MetNorwayWeather.stateKey(
                        "lat=\(QueryEncoding.decimal(59.9 + Double(i) * 0.01, places: 4))&lon=10.75")] != nil)
        }
        #expect(kept[MetNorwayWeather.stateKey("lat=3&lon=\(limit - 1)")] == nil)
        #expect(kept[MetNorwayWeather.stateKey("lat=3&lon=0")] != nil)
    }

    /// An answer without `Expires` still leaves its `Last-Modified` for the next process. The trim of the
    /// stored validators reads each one's received time: one written without it was dropped at once.
    @Test func withoutExpiresTheValidatorStillReachesTheNextProcess() async throws {
        let server = try FixtureServer(routes: [
            "/weatherapi/locationforecast/2.0/compact": [
                .file(recorded, headers: ["Last-Modified": lastModified]), .body("", status: 304),
            ]
        ])
        defer { server.stop() }
        let store = MemoryWeatherStore()
        let clock = ManualClock(UTCTime.parse("2024-02-04T01:40:00Z")!)
        func run() async throws -> WeatherOutcome {
            try await Self.runAsNewProcess(server, store: store, clock: clock, at: oslo)
        }
        #expect(try await run().error == nil)
        let text = try #require(try await store.state(MetNorwayWeather.stateKey(MetNorwayWeather.key(oslo))))
        #expect(MetNorwayWeather.storedTimes(text)?.expires == nil)
        #expect(MetNorwayWeather.storedTimes(text)?.receivedAt == clock.now())
        clock.advance(by: 15 * 60)
        let second = try await run()
        #expect(second.error == nil && second.report?.cached == true)
        #expect(server.requestCount() == 2)
        #expect(server.requests().last?.headers["if-modified-since"] == lastModified)
    }
}
