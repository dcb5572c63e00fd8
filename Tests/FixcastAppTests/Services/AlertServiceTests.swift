import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// The alert service over the real HTTP client against the loopback fixture server, with a real
/// SQLite store; the clock is set to each recording's own time (see AlertFixtures).
@Suite(.serialized, .scratch) struct AlertServiceTests {
    let phoenix = Coordinate(lat: 33.25, lon: -112.30)!
    let vestland = Coordinate(lat: 61.5, lon: 4.7)!
    let tokyo = Coordinate(lat: 35.68, lon: 139.69)!
    let nwsTime = AlertFixtures.date(AlertFixtures.nwsPhoenixUpdated)
    let metTime = AlertFixtures.date(AlertFixtures.metAlertsLastChange)

    func service(
        _ server: FixtureServer?, store: SQLiteStore?, clock: ManualClock, http: CurlHTTPClient = CurlHTTPClient(),
        configure: (inout Settings.Alerts) -> Void = { _ in }
    ) -> AlertService {
        var s = Settings.Alerts()
        let base = server?.baseURL ?? "http://127.0.0.1:9"
        s.nwsBaseURL = base
        s.metAlertsBaseURL = base
        s.meteoAlarmBaseURL = base
        s.ecccBaseURL = base
        configure(&s)
        return AlertService.make(settings: s, http: http, countries: PlaceTestData.offline, state: store, clock: clock)
    }

    func store() throws -> SQLiteStore {
        try SQLiteStore(path: TestPaths.temporaryDirectory("alerts-store").appendingPathComponent("f.sqlite").path)
    }

    @Test func nwsPointListsBothAlertsAndAsksPolitely() async throws {
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [.file(AlertFixtures.nwsPhoenix, headers: ["Content-Type": "application/geo+json"])]
        ])
        defer { server.stop() }
        let outcome = await service(server, store: try store(), clock: ManualClock(nwsTime)).alerts(
            at: phoenix, offline: false)
        #expect(outcome.error == nil)
        let report = try #require(outcome.report)
        #expect(report.source == .nws && report.covered && !report.stale)
        #expect(report.active.map(\.event) == ["Excessive Heat Warning", "Air Quality Alert"])
        let request = try #require(server.requests().first)
        #expect(request.query == "point=33.25,-112.3")
        #expect(request.headers["accept"] == "application/geo+json")
        #expect(request.headers["user-agent"]?.hasPrefix("fixcast/") == true)
    }

    @Test func metAlertsPointListsTheAlertCoveringIt() async throws {
        let server = try FixtureServer.started(routes: [
            "/weatherapi/metalerts/2.0/current.json": [.file(AlertFixtures.metAlertsVestland)]
        ])
        defer { server.stop() }
        let outcome = await service(server, store: nil, clock: ManualClock(metTime)).alerts(
            at: vestland, offline: false)
        let report = try #require(outcome.report)
        #expect(report.source == .metalerts)
        #expect(report.active.map(\.area) == ["Bulandet - Måløy"])
        #expect(report.active.first?.severity == .moderate)
        #expect(server.requests().first?.query == "lat=61.5&lon=4.7")
    }

    @Test func elsewhereIsNotCoveredWithoutARequest() async throws {
        let server = try FixtureServer.started(routes: [:])
        defer { server.stop() }
        let outcome = await service(server, store: nil, clock: ManualClock(nwsTime)).alerts(at: tokyo, offline: false)
        #expect(outcome.report?.covered == false)
        #expect(outcome.report?.notCoveredBecause == .country("JP"), "the country is named")
        #expect(outcome.error == nil)
        #expect(server.requestCount() == 0)
        let none = await service(server, store: nil, clock: ManualClock(nwsTime)) { $0.source = .none }.alerts(
            at: phoenix, offline: false)
        #expect(none.report?.covered == false && none.report?.active.isEmpty == true)
        #expect(none.report?.notCoveredBecause == .sourceOff)
        // Adak, in the western Aleutians: no place in the table is near enough to tell the country.
        let adak = try #require(Coordinate(lat: 51.88, lon: -176.65))
        let sea = await service(server, store: nil, clock: ManualClock(nwsTime)).alerts(at: adak, offline: false)
        #expect(sea.report?.covered == false)
        #expect(sea.report?.notCoveredBecause == .countryUnknown)
        let off = await service(server, store: nil, clock: ManualClock(nwsTime)) { $0.enabled = false }.alerts(
            at: phoenix, offline: false)
        #expect(off.report == nil && off.error == nil)
        #expect(server.requestCount() == 0)
    }

    @Test func aSecondCheckWithinCheckMinMakesNoRequestThenRevalidates() async throws {
        let lastModified = "Thu, 18 Jul 2024 19:50:06 GMT"
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [
                .file(AlertFixtures.nwsPhoenix, headers: ["Last-Modified": lastModified]),
                FixtureResponse(status: 304),
            ]
        ])
        defer { server.stop() }
        let db = try store()
        let clock = ManualClock(nwsTime)
        _ = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        // A separate service on the same store (a second `fixcast alerts` run), 9 minutes later, 2 km away.
        clock.advance(by: 9 * 60)
        let second = await service(server, store: db, clock: clock).alerts(
            at: Coordinate(lat: 33.27, lon: -112.30)!, offline: false)
        #expect(second.report?.active.count == 2)
        #expect(second.report?.fetchedAt == nwsTime)
        #expect(server.requestCount() == 1)
        clock.advance(by: 61)
        let third = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        #expect(server.requestCount() == 2)
        #expect(server.requests().last?.headers["if-modified-since"] == lastModified)
        #expect(third.error == nil)
        #expect(third.report?.active.count == 2)  // 304: the last answer stands
        #expect(third.report?.fetchedAt == clock.now())
    }

    @Test func expiresAheadOfCheckMinIsHonoured() async throws {
        let expires = "Thu, 18 Jul 2024 20:20:06 GMT"  // 30 min after the response
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [.file(AlertFixtures.nwsPhoenix, headers: ["Expires": expires])]
        ])
        defer { server.stop() }
        let clock = ManualClock(nwsTime)
        let svc = service(server, store: nil, clock: clock)
        _ = await svc.alerts(at: phoenix, offline: false)
        clock.advance(by: 20 * 60)
        _ = await svc.alerts(at: phoenix, offline: false)
        #expect(server.requestCount() == 1)
        clock.advance(by: 10 * 60)
        _ = await svc.alerts(at: phoenix, offline: false)
        #expect(server.requestCount() == 2)
    }

    /// Each fault: no report (nothing stored) and one `alerts` error; never a crash.
    @Test(arguments: [
        ("500", FixtureResponse.body("{\"title\":\"Unexpected Problem\"}", status: 500), "HTTP 500"),
        ("429", FixtureResponse.body("", status: 429, headers: ["Retry-After": "120"]), "HTTP 429"),
        ("garbage", FixtureResponse.body("\u{1}\u{2}not json at all"), "could not read"),
        (
            "html",
            FixtureResponse.body("<html><body>502 Bad Gateway</body></html>", headers: ["Content-Type": "text/html"]),
            "could not read"
        ),
        ("wrong json", FixtureResponse.body("{\"type\":\"Feature\"}"), "could not read"),
    ])
    func faultsGiveNoAlertsAndOneError(label: String, response: FixtureResponse, fragment: String) async throws {
        let server = try FixtureServer.started(routes: ["/alerts/active": [response]])
        defer { server.stop() }
        let outcome = await service(server, store: nil, clock: ManualClock(nwsTime)).alerts(at: phoenix, offline: false)
        #expect(outcome.report == nil, "\(label)")
        let error = try #require(outcome.error, "\(label)")
        #expect(error.component == .alerts)
        #expect(error.message.hasPrefix("alerts: NWS"), "\(label): \(error.message)")
        #expect(error.message.contains(fragment), "\(label): \(error.message)")
    }

    @Test func aTimeoutIsATransportError() async throws {
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [FixtureResponse(file: AlertFixtures.nwsPhoenix, delay: 3)]
        ])
        defer { server.stop() }
        let http = CurlHTTPClient(limits: .init(connectTimeoutS: 1, totalTimeoutS: 1))
        let outcome = await service(server, store: nil, clock: ManualClock(nwsTime), http: http).alerts(
            at: phoenix, offline: false)
        #expect(outcome.report == nil)
        guard case .transport(.nws, .timedOut) = outcome.error else {
            Issue.record("expected a timeout, got \(String(describing: outcome.error))")
            return
        }
    }

    @Test func retryAfterHoldsRequestsBackAndStoredAlertsShowStale() async throws {
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [
                .file(AlertFixtures.nwsPhoenix),
                .body("", status: 429, headers: ["Retry-After": "900"]),
                .file(AlertFixtures.nwsPhoenix),
            ]
        ])
        defer { server.stop() }
        let db = try store()
        let clock = ManualClock(nwsTime)
        _ = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        clock.advance(by: 11 * 60)
        let limited = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        #expect(limited.report?.stale == true)
        #expect(limited.report?.active.count == 2)
        guard case .status(.nws, 429, _, _) = limited.error else {
            Issue.record("\(String(describing: limited.error))")
            return
        }
        // Within Retry-After: no request at all, still stale.
        clock.advance(by: 5 * 60)
        let held = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        #expect(server.requestCount() == 2)
        guard case .backingOff(.nws, _) = held.error else {
            Issue.record("\(String(describing: held.error))")
            return
        }
        #expect(held.report?.stale == true)
        clock.advance(by: 11 * 60)
        let back = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        #expect(back.error == nil)
        #expect(back.report?.stale == false)
        #expect(server.requestCount() == 3)
    }

    @Test func staleAlertsAreNeverShownPastTheirExpires() async throws {
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [.file(AlertFixtures.nwsPhoenix), .body("oops", status: 503)]
        ])
        defer { server.stop() }
        let db = try store()
        let clock = ManualClock(nwsTime)
        _ = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        // The heat warning's message expires at 10:00Z on the 19th; at 10:30Z only the air quality alert is left.
        clock.set(AlertFixtures.date("2024-07-19T10:30:00Z"))
        let failing = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        #expect(failing.error != nil)
        #expect(failing.report == nil)  // the stored answer is older than maximumStaleAgeS (14 h)
        // Within the stale window the expired one is dropped.
        let server2 = try FixtureServer.started(routes: [
            "/alerts/active": [.file(AlertFixtures.nwsPhoenix), .body("oops", status: 503)]
        ])
        defer { server2.stop() }
        let clock2 = ManualClock(AlertFixtures.date("2024-07-19T06:00:00Z"))
        let db2 = try store()
        _ = await service(server2, store: db2, clock: clock2).alerts(at: phoenix, offline: false)
        clock2.set(AlertFixtures.date("2024-07-19T10:30:00Z"))
        let aged = await service(server2, store: db2, clock: clock2).alerts(at: phoenix, offline: false)
        #expect(aged.report?.stale == true)
        #expect(aged.report?.active.map(\.event) == ["Air Quality Alert"])
    }

    @Test func offlineServesStoredAlertsOnly() async throws {
        let server = try FixtureServer.started(routes: ["/alerts/active": [.file(AlertFixtures.nwsPhoenix)]])
        defer { server.stop() }
        let db = try store()
        let clock = ManualClock(nwsTime)
        let none = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: true)
        #expect(none.report == nil && none.error == .offline)
        _ = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: false)
        clock.advance(by: 20 * 60)
        let stored = await service(server, store: db, clock: clock).alerts(at: phoenix, offline: true)
        #expect(stored.report?.active.count == 2)
        #expect(stored.report?.stale == true)
        #expect(server.requestCount() == 1)
    }

    @Test func concurrentChecksForOneSpotShareOneRequest() async throws {
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [FixtureResponse(file: AlertFixtures.nwsPhoenix, delay: 0.5)]
        ])
        defer { server.stop() }
        let svc = service(server, store: try store(), clock: ManualClock(nwsTime))
        async let a = svc.alerts(at: phoenix, offline: false)
        async let b = svc.alerts(at: Coordinate(lat: 33.26, lon: -112.3)!, offline: false)
        let (first, second) = await (a, b)
        #expect(first.report?.active.count == 2)
        #expect(second.report == first.report)
        #expect(server.requestCount() == 1)
        #expect(await svc.fetchCount == 1)
    }

    @Test func readingMakerCarriesTheAlertsFromTheServiceCache() async throws {
        let server = try FixtureServer.started(routes: [
            "/alerts/active": [.file(AlertFixtures.nwsPhoenix)],
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))],
        ])
        defer { server.stop() }
        let clock = ManualClock(nwsTime)
        let db = try store()
        let alerts = service(server, store: db, clock: clock)
        let weather = WeatherService(
            fetcher: OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()), cache: db, settings: Settings(),
            clock: clock)
        let places = PlaceService(reverse: nil, searcher: nil, offline: PlaceTestData.offline, cache: db)
        let maker = ReadingMaker(weather: weather, places: places, store: db, clock: clock, alerts: alerts)
        _ = await alerts.alerts(at: phoenix, offline: false)  // the run loop's check
        let reading = await maker.reading(
            at: .manual(phoenix, at: clock.now()), trigger: .alert, force: false, offline: false)
        #expect(reading.alerts?.active.count == 2)
        #expect(server.requestCount(path: "/alerts/active") == 1)
        #expect(reading.errors.allSatisfy { $0.component != .alerts })
        let stored = try #require(try await db.lastReading())
        #expect(stored.alerts == reading.alerts)
        #expect(stored.trigger == .alert)
    }

    // MARK: - MeteoAlarm (one feed per country, placed offline)

    let annecy = Coordinate(lat: 45.8992, lon: 6.1294)!
    let lyon = Coordinate(lat: 45.764, lon: 4.8357)!
    let franceTime = AlertFixtures.date("2022-12-08T00:36:08Z")
    static let francePath = "/feeds/meteoalarm-legacy-atom-france"

    @Test func aFailingFeedLeavesTheStoredOneStaleForEveryPositionInTheCountry() async throws {
        let server = try FixtureServer.started(routes: [
            Self.francePath: [.file(AlertFixtures.meteoAlarmFrance), .body("down", status: 503)]
        ])
        defer { server.stop() }
        let clock = ManualClock(franceTime)
        let alerts = service(server, store: try store(), clock: clock)
        let first = await alerts.alerts(at: annecy, offline: false)
        #expect(first.error == nil)
        #expect(first.report?.source == .meteoalarm)
        #expect(first.report?.active.map(\.area) == ["Haute Savoie"])
        clock.advance(by: 11 * 60)
        let failing = await alerts.alerts(at: annecy, offline: false)
        #expect(failing.report?.stale == true)
        #expect(failing.report?.active.map(\.area) == ["Haute Savoie"], "the stored feed, placed again")
        if case .status(.meteoalarm, 503, _, _)? = failing.error {
        } else {
            Issue.record("\(String(describing: failing.error))")
        }
        // Held back after the 503: no request, the stored feed placed for Lyon, still stale.
        let held = await alerts.alerts(at: lyon, offline: false)
        #expect(held.report?.stale == true && held.report?.active.isEmpty == true)
        #expect(server.requestCount(path: Self.francePath) == 2)
        // Offline: the stored feed, wherever in the country, without a request.
        let offline = await alerts.alerts(at: annecy, offline: true)
        #expect(offline.report?.active.count == 1)
        #expect(server.requestCount(path: Self.francePath) == 2)
    }

    /// MeteoAlarm's feed keeps only a warning's newest version, under a new identifier: placed again,
    /// it continues the warning placed before (whose id it keeps, the new one an alias), so it is not
    /// news to `alerts.command` or MQTT again; a run started afresh on the same store continues it too.
    @Test func aWarningReissuedUnderANewIdentifierKeepsItsFirstID() async throws {
        let original = try String(contentsOfFile: AlertFixtures.meteoAlarmFrance, encoding: .utf8)
        let firstID = "2.49.0.0.250.0.FR.20221207160058.764028"
        let newID = "2.49.0.0.250.0.FR.20221207200058.764099"
        #expect(original.contains(firstID))
        let reissued = original.replacingOccurrences(of: firstID, with: newID).replacingOccurrences(
            of: "<cap:sent>2022-12-07T15:00:58+00:00</cap:sent>", with: "<cap:sent>2022-12-07T19:00:58+00:00</cap:sent>"
        )
        let server = try FixtureServer.started(routes: [Self.francePath: [.body(original), .body(reissued)]])
        defer { server.stop() }
        let clock = ManualClock(franceTime)
        let db = try store()
        let alerts = service(server, store: db, clock: clock)
        let first = await alerts.alerts(at: annecy, offline: false)
        #expect(first.report?.active.map(\.id) == [firstID])
        clock.advance(by: 11 * 60)
        let second = await alerts.alerts(at: annecy, offline: false)
        #expect(server.requestCount(path: Self.francePath) == 2)
        #expect(second.report?.active.map(\.id) == [firstID], "continued, not a new warning")
        #expect(second.report?.active.first?.aliases.contains(newID) == true)
        clock.advance(by: 11 * 60)
        let restarted = await service(server, store: db, clock: clock).alerts(at: annecy, offline: false)
        #expect(restarted.report?.active.map(\.id) == [firstID])
        // Without a warning placed before, the reissued one is what it says it is.
        let fresh = await service(server, store: try store(), clock: clock).alerts(at: annecy, offline: false)
        #expect(fresh.report?.active.map(\.id) == [newID])
    }

    /// The stored check names its feed by slug ("france"), as the offline path and the unplaced counts
    /// look it up: it was stored as the region's key ("meteoalarm.france"), so a feed fetched a moment
    /// ago read as stale offline, and each feed's unplaced count wiped the other feeds' counts.
    @Test func aStoredFeedIsFreshOfflineAndEveryFeedKeepsItsUnplacedCount() async throws {
        let ukPath = "/feeds/meteoalarm-legacy-atom-united-kingdom"
        let server = try FixtureServer.started(routes: [
            Self.francePath: [.file(AlertFixtures.meteoAlarmFrance)], ukPath: [.file(AlertFixtures.meteoAlarmUK)],
        ])
        defer { server.stop() }
        let clock = ManualClock(franceTime)
        let db = try store()
        let alerts = service(server, store: db, clock: clock)
        let london = Coordinate(lat: 51.5072, lon: -0.1276)!
        _ = await alerts.alerts(at: london, offline: false)
        let uk = AlertService.unplacedAreas(stateText: try await db.state(AlertService.unplacedAreasKey))
        #expect(uk > 0, "the UK feed names areas the table cannot place")
        #expect(await alerts.alerts(at: annecy, offline: false).report?.stale == false)
        // France's count (0) is kept beside the UK's, not in its place.
        #expect(AlertService.unplacedAreas(stateText: try await db.state(AlertService.unplacedAreasKey)) == uk)
        // Offline a minute later: the feed checked a minute ago is not stale.
        clock.advance(by: 60)
        let offline = await alerts.alerts(at: annecy, offline: true)
        #expect(offline.report?.stale == false)
        #expect(offline.report?.active.count == 1)
        #expect(server.requestCount(path: Self.francePath) == 1)
    }

    /// A feed is read into its tree once, when fetched or when its stored copy is first loaded; every
    /// position after that is placed on the same tree. A stored copy that is no feed is an error.
    @Test func aFeedIsReadOnceAndPlacedForEveryPosition() async throws {
        let server = try FixtureServer.started(routes: [Self.francePath: [.file(AlertFixtures.meteoAlarmFrance)]])
        defer { server.stop() }
        let clock = ManualClock(franceTime)
        let db = try store()
        let fetching = service(server, store: db, clock: clock)
        #expect(await fetching.alerts(at: annecy, offline: false).report?.active.count == 1)
        #expect(await fetching.alerts(at: lyon, offline: false).report?.active.isEmpty == true)
        #expect(await fetching.feedsRead == 0, "the fetched feed came read")
        // Another run on the same store: the stored copy is read once, for all three positions.
        let later = service(server, store: db, clock: clock)
        for (position, count) in [(annecy, 1), (lyon, 0), (annecy, 1)] {
            #expect(await later.alerts(at: position, offline: true).report?.active.count == count)
        }
        #expect(await later.feedsRead == 1)
        #expect(server.requestCount(path: Self.francePath) == 1)
        // A stored copy that is no feed: an error, never "no alerts here".
        let key = AlertService.feedKey("france")
        let stored = try #require(try await db.state(key))
        var check = try #require(MeteoAlarmFeedCheck(json: try JSONValue.parse(stored)))
        check.body = "<html><body>gone</body></html>"
        try await db.setState(key, check.json.serialized())
        let broken = await service(server, store: db, clock: clock).alerts(at: annecy, offline: true)
        #expect(broken.report == nil)
        #expect(
            broken.error
                == .invalidResponse(source: .meteoalarm, detail: "not an Atom feed (the root element is <html>)"))
    }

    struct MissingAreas: AlertAreaProviding {
        func areaTable() -> Result<AlertAreaTable, AlertAreaUnavailable> {
            .failure(AlertAreaUnavailable(detail: "alert-areas.bin not found in /nowhere"))
        }
    }

    @Test func withoutTheAreaTableEveryWarningIsListedAsAreaUnknownAndSaidOnce() async throws {
        let server = try FixtureServer.started(routes: [Self.francePath: [.file(AlertFixtures.meteoAlarmFrance)]])
        defer { server.stop() }
        var s = Settings.Alerts()
        s.meteoAlarmBaseURL = server.baseURL
        let alerts = AlertService.make(
            settings: s, http: CurlHTTPClient(), countries: PlaceTestData.offline, areas: MissingAreas(), state: nil,
            clock: ManualClock(franceTime))
        let outcome = await alerts.alerts(at: lyon, offline: false)
        #expect(outcome.report?.active.count == 1)
        #expect(outcome.report?.active.first?.area?.hasSuffix("(area unknown)") == true)
        #expect(outcome.error == .areasUnavailable(detail: "alert-areas.bin not found in /nowhere"))
        #expect(outcome.error?.message.hasPrefix("alerts: ") == true)
    }
}
