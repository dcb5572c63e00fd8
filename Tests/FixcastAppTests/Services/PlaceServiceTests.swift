import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// The place service against a loopback Nominatim/Open-Meteo and the bundled table.
@Suite(.scratch)
struct PlaceServiceTests {
    static let berlin = Coordinate(lat: 52.52, lon: 13.405)!
    static let cologne = Coordinate(lat: 50.9373, lon: 6.9592)!

    func service(
        _ server: FixtureServer?, cache: InMemoryPlaceCache? = InMemoryPlaceCache(),
        limiter: NominatimLimiter = NominatimLimiter()
    ) -> PlaceService {
        let base = server?.baseURL ?? "http://127.0.0.1:9"
        return PlaceService(
            reverse: NominatimPlaces(http: URLSessionFetcher(), baseURL: base, language: "en", limiter: limiter),
            searcher: OpenMeteoPlaceSearch(http: URLSessionFetcher(), baseURL: base, language: "en"),
            offline: PlaceTestData.offline, cache: cache)
    }

    /// An offline name stored by an older table (no key, or another version's) is not reused: the table
    /// names the spot again, and that name is kept under its version.
    @Test func anOfflineNameFromAnOlderTableIsNamedAgain() async throws {
        let cache = InMemoryPlaceCache()
        let epsom = Coordinate(lat: 51.3305, lon: -0.2701)!
        try await cache.savePlace(
            Place(name: "London", region: "England", country: "United Kingdom", countryCode: "GB", source: .offline),
            at: epsom, language: nil)
        let outcome = await service(nil, cache: cache).place(at: epsom, offline: true)
        #expect(outcome.place?.name == "Epsom")
        let again = await service(nil, cache: cache).place(at: epsom, offline: true)
        #expect(again.place?.name == "Epsom")
        #expect(await cache.saves == 2)  // the old entry, then one new name: the second run reused it
        #expect(await cache.entries.last?.language == PlaceService.offlineCacheKey)
    }

    /// At sea Nominatim knows no place: that answer is kept in the store, so the next process (a
    /// `fixcast now` from cron) names the spot from the table without asking again.
    @Test func noPlaceHereIsAskedOnceAcrossProcesses() async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-error-unable-to-geocode.json"))]
        ])
        defer { server.stop() }
        let cache = InMemoryPlaceCache()
        let helgoland = Coordinate(lat: 54.10, lon: 7.80)!
        let first = await service(server, cache: cache).place(at: helgoland, offline: false)
        let second = await service(server, cache: cache).place(at: helgoland.movedEast(metres: 300), offline: false)
        #expect(first.issue == nil && second.issue == nil)
        #expect(first.place?.source == .offline && second.place?.source == .offline)
        #expect(server.requestCount(path: "/reverse") == 1)
    }

    static let cologneRoute: [String: [FixtureResponse]] = [
        "/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-jsonv2-zoom12.json"))]
    ]

    @Test func tenReadingsHundredMetresApartMakeOneRequest() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let cache = InMemoryPlaceCache()
        let places = service(server, cache: cache)
        var names: [String?] = []
        for step in 0..<10 {
            let outcome = await places.place(at: Self.cologne.movedEast(metres: Double(step) * 100), offline: false)
            #expect(outcome.issue == nil)
            names.append(outcome.place?.name)
        }
        #expect(names == Array(repeating: "Cologne", count: 10))
        #expect(server.requestCount(path: "/reverse") == 1)
        #expect(await cache.saves == 1)
    }

    @Test func aNewServiceReusesTheStoredName() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let cache = InMemoryPlaceCache()
        _ = await service(server, cache: cache).place(at: Self.cologne, offline: false)
        // A later run (new process: new service), 500 m away: the store answers.
        let outcome = await service(server, cache: cache).place(at: Self.cologne.movedEast(metres: 500), offline: false)
        #expect(outcome.place?.name == "Cologne")
        #expect(outcome.place?.source == .nominatim)
        #expect(server.requestCount(path: "/reverse") == 1)
    }

    /// A name cached in English is not the Russian one: after `places.language` changes, Nominatim is
    /// asked again (in the new language) rather than the old name served.
    @Test func aNameCachedInAnotherLanguageIsAskedAgain() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let cache = InMemoryPlaceCache()
        func service(_ language: String) -> PlaceService {
            PlaceService(
                reverse: NominatimPlaces(http: URLSessionFetcher(), baseURL: server.baseURL, language: language),
                searcher: nil, offline: PlaceTestData.offline, cache: cache, language: language)
        }
        _ = await service("en").place(at: Self.cologne, offline: false)
        _ = await service("en").place(at: Self.cologne, offline: false)
        #expect(server.requestCount(path: "/reverse") == 1)
        _ = await service("ru").place(at: Self.cologne, offline: false)
        #expect(server.requestCount(path: "/reverse") == 2)
        #expect(server.requests().last?.query.contains("accept-language=ru") == true)
    }

    @Test func beyondOneKilometreItAsksAgain() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let places = service(server)
        _ = await places.place(at: Self.cologne, offline: false)
        _ = await places.place(at: Self.cologne.movedEast(metres: 1500), offline: false)
        #expect(server.requestCount(path: "/reverse") == 2)
    }

    @Test func requestsAreNeverLessThanOneSecondApartAtTheServer() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let places = service(server)
        // Four spots 5 km apart, asked all at once and then one more right after.
        await withTaskGroup(of: Void.self) { group in
            for k in 0..<4 {
                group.addTask {
                    _ = await places.place(at: Self.cologne.movedEast(metres: Double(k) * 5000), offline: false)
                }
            }
        }
        _ = await places.place(at: Self.cologne.movedEast(metres: 40_000), offline: false)
        let times = server.requestTimes(path: "/reverse")
        #expect(times.count == 5)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 1.0 }, "gaps: \(gaps)")
    }

    @Test func twoServicesShareTheProcessLimiter() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let limiter = NominatimLimiter()
        let a = service(server, limiter: limiter)
        let b = service(server, limiter: limiter)
        async let first = a.place(at: Self.cologne, offline: false)
        async let second = b.place(at: Self.berlin, offline: false)
        _ = await (first, second)
        let times = server.requestTimes(path: "/reverse")
        #expect(times.count == 2)
        if times.count == 2 { #expect(abs(times[1] - times[0]) >= 1.0) }
    }

    @Test func concurrentQuestionsAboutOneSpotShareARequest() async throws {
        var slow = FixtureResponse.file(PlaceTestData.fixture("nominatim-reverse-jsonv2-zoom12.json"))
        slow.delay = 0.3
        let server = try FixtureServer.started(routes: ["/reverse": [slow]])
        defer { server.stop() }
        let places = service(server)
        let names = await withTaskGroup(of: String?.self) { group in
            for k in 0..<3 {
                group.addTask {
                    await places.place(at: Self.cologne.movedEast(metres: Double(k) * 50), offline: false).place?.name
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(names == ["Cologne", "Cologne", "Cologne"])
        #expect(server.requestCount(path: "/reverse") == 1)
    }

    @Test(arguments: [
        FixtureResponse.body("oops", status: 500),
        FixtureResponse.file(PlaceTestData.fixture("nominatim-error-400.json"), status: 400),
        FixtureResponse.body("<html>", status: 200),
        FixtureResponse(close: true),
    ])
    func nominatimFailureFallsBackToTheTable(_ failure: FixtureResponse) async throws {
        let server = try FixtureServer.started(routes: ["/reverse": [failure]])
        defer { server.stop() }
        let outcome = await service(server).place(at: Self.berlin, offline: false)
        #expect(outcome.place?.name == "Berlin")
        #expect(outcome.place?.source == .offline)
        #expect(outcome.place?.countryCode == "DE")
        #expect(outcome.issue?.component == .place)
        #expect(outcome.issue?.message.contains("Nominatim") == true)
    }

    /// Nominatim's 429 (or 5xx, or the 403 it answers an application it blocked) was an offline name
    /// and nothing more: every reading asked again, Retry-After unheeded. Now Nominatim is held off,
    /// in the store for every process, and the table names places meanwhile, saying so.
    @Test(arguments: [429, 403, 503])
    func aNominatimThatSaysSlowDownIsHeldOffAcrossProcesses(status: Int) async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [
                .body("{\"error\":\"slow down\"}", status: status, headers: ["Retry-After": "120"]),
                .file(PlaceTestData.fixture("nominatim-reverse-jsonv2-zoom12.json")),
            ]
        ])
        defer { server.stop() }
        let state = try SQLiteStore(
            path: TestPaths.temporaryDirectory("places-backoff").appendingPathComponent("f.sqlite").path)
        let clock = ManualClock()
        func service() -> PlaceService {
            PlaceService(
                reverse: NominatimPlaces(http: URLSessionFetcher(), baseURL: server.baseURL, language: "en"),
                searcher: nil, offline: PlaceTestData.offline, cache: nil, state: state, clock: clock)
        }
        let first = await service().place(at: Self.berlin, offline: false)
        #expect(first.place?.source == .offline)
        #expect(first.issue?.message.contains("HTTP \(status)") == true, "\(String(describing: first.issue))")
        // Another process a minute later, 480 km away: Nominatim is not asked.
        clock.advance(by: 60)
        let held = await service().place(at: Self.cologne, offline: false)
        #expect(held.place?.source == .offline)
        #expect(held.issue?.message.contains("named from the bundled table until") == true)
        #expect(server.requestCount(path: "/reverse") == 1)
        // After the 120 s Retry-After (and the back-off's own first wait), it is asked again.
        clock.advance(by: 3_600)
        let again = await service().place(at: Self.cologne, offline: false)
        #expect(again.place?.source == .nominatim)
        #expect(again.issue == nil)
        #expect(server.requestCount(path: "/reverse") == 2)
    }

    @Test func anUnreachableNominatimFallsBackToo() async throws {
        let outcome = await service(nil).place(at: Self.berlin, offline: false)
        #expect(outcome.place?.name == "Berlin")
        #expect(outcome.place?.source == .offline)
        #expect(outcome.issue?.component == .place)
    }

    @Test func noPlaceHereFromNominatimUsesTheTableWithoutAnIssue() async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-error-unable-to-geocode.json"))]
        ])
        defer { server.stop() }
        let places = service(server)
        let mainland = await places.place(at: Self.berlin, offline: false)
        #expect(mainland.place?.source == .offline)
        #expect(mainland.issue == nil)
        // Mid-Atlantic: nothing within 200 km, and not asked twice.
        let sea = Coordinate(lat: 0, lon: -30)!
        #expect(await places.place(at: sea, offline: false) == PlaceOutcome(place: nil))
        #expect(await places.place(at: sea.movedEast(metres: 300), offline: false) == PlaceOutcome(place: nil))
        #expect(server.requestCount(path: "/reverse") == 2)
    }

    @Test func offlineNamesBerlinWithoutAnyRequest() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let outcome = await service(server).place(at: Self.berlin, offline: true)
        #expect(
            outcome
                == PlaceOutcome(
                    place: Place(
                        name: "Berlin", region: "Berlin", country: "Germany", countryCode: "DE", source: .offline)))
        #expect(server.requestCount() == 0)
    }

    @Test func theOfflineProviderNeverAsksNominatim() async throws {
        let places = PlaceService(
            reverse: nil, searcher: nil, offline: PlaceTestData.offline, cache: InMemoryPlaceCache())
        let outcome = await places.place(at: Self.cologne, offline: false)
        #expect(outcome.place?.name == "Köln")
        #expect(outcome.place?.source == .offline)
        #expect(try await places.search("new york", limit: 3, offline: false).first?.name == "New York City")
    }

    /// /usr/share/fixcast is also looked in: on a machine where fixcast is installed the table is
    /// found there, and this test cannot run (it is skipped, not passed).
    @Test(.enabled(if: PlaceServiceOfflineCacheTests.tableIsMissing, "fixcast's table is installed on this machine"))
    func missingOfflineDataIsAnIssueNotACrash() async throws {
        let nowhere = OfflinePlaces(dataFiles: PlaceServiceOfflineCacheTests.nowhere)
        let places = PlaceService(reverse: nil, searcher: nil, offline: nowhere, cache: nil)
        let outcome = await places.place(at: Self.berlin, offline: true)
        #expect(outcome.place == nil)
        #expect(outcome.issue?.message.contains("FIXCAST_DATA_DIR") == true)
    }

    // MARK: - Search and --place

    @Test func offlineSearchListsNewYorkCityFirst() async throws {
        let matches = try await service(nil).search("new york", limit: 5, offline: true)
        #expect(matches.first?.name == "New York City")
        #expect(matches.first?.source == .offline)
        #expect(matches.first?.population ?? 0 > 1_000_000)
        #expect(matches.first?.region == "New York")
    }

    @Test func offlineSearchIgnoresCaseAndDiacritics() async throws {
        let places = service(nil)
        #expect(try await places.search("SAO PAULO", limit: 1, offline: true).first?.name == "São Paulo")
        #expect(try await places.search("köln", limit: 1, offline: true).first?.name == "Köln")
        #expect(try await places.search("Москва", limit: 3, offline: true).isEmpty)
    }

    @Test func onlineSearchUsesOpenMeteo() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding.json"))]
        ])
        defer { server.stop() }
        let matches = try await service(server).search("Enschede", limit: 10, offline: false)
        #expect(matches.first?.name == "Enschede")
        #expect(matches.first?.source == .openMeteo)
    }

    @Test func resolveGivesTheBestMatch() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding.json"))]
        ])
        defer { server.stop() }
        let match = try await service(server).resolve(placeNamed: "Enschede", offline: false)
        #expect(match.name == "Enschede")
        #expect(match.asPlace.source == .search)
    }

    @Test func anUnknownNameIsNoPlaceNamed() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding-empty.json"))]
        ])
        defer { server.stop() }
        await #expect(throws: PlaceError.noPlaceNamed("Xyzzy Nowhere")) {
            try await service(server).resolve(placeNamed: "Xyzzy Nowhere", offline: false)
        }
        await #expect(throws: PlaceError.noPlaceNamed("Xyzzy Nowhere")) {
            try await service(server).resolve(placeNamed: "Xyzzy Nowhere", offline: true)
        }
        #expect(PlaceError.noPlaceNamed("Xyzzy").message.contains("no place named"))
    }

    @Test func resolveFallsBackToTheTableWhenSearchFails() async throws {
        let server = try FixtureServer.started(routes: ["/v1/search": [.body("down", status: 503)]])
        defer { server.stop() }
        let match = try await service(server).resolve(placeNamed: "Berlin", offline: false)
        #expect(match.name == "Berlin")
        #expect(match.countryCode == "DE")
        #expect(match.source == .offline)
        await #expect(throws: PlaceError.status(service: "Open-Meteo geocoding", code: 503, detail: nil)) {
            try await service(server).resolve(placeNamed: "Xyzzy Nowhere", offline: false)
        }
    }
}
