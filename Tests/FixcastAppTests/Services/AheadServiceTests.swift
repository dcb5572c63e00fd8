import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// The ahead service over the real HTTP client against the loopback server (the multi-location form
/// built from the recorded Berlin answer) and a real SQLite store holding the recent track.
@Suite(.serialized, .scratch) struct AheadServiceTests {
    /// The recorded Berlin hours start here (2025-07-27T00:00Z), so every ETA of 3 h is inside them.
    let start = UTCTime.parse("2025-07-27T00:10:00Z")!
    let recorded = TestPaths.fixture("api/open-meteo-ahead-multi-location.json")
    let berlin = Coordinate(lat: 52.52, lon: 13.41)!

    /// A store whose track drove east at 25 m/s for the 10 minutes before `start`.
    func store() throws -> SQLiteStore {
        let path = TestPaths.temporaryDirectory("ahead-store").appendingPathComponent("s.sqlite").path
        return try SQLiteStore(path: path)
    }

    func drive(_ store: SQLiteStore, until end: Date, mps: Double = 25) async throws {
        var fixes: [Fix] = []
        for k in 0...60 {
            let t = end.addingTimeInterval(Double(k - 60) * 10)
            let at = SphereNavigation.destination(from: berlin, bearingDeg: 90, distanceM: Double(k - 60) * 10 * mps)
            fixes.append(
                Fix(time: t, receivedAt: t, coordinate: at.coordinate, mode: .threeD, speedMps: mps, trackDeg: 90))
        }
        try await store.appendTrackPoints(fixes)
    }

    func position(at t: Date, mps: Double = 25) -> Position {
        Position(
            fix: Fix(time: t, receivedAt: t, coordinate: berlin, mode: .threeD, speedMps: mps, trackDeg: 90))
    }

    func service(_ server: FixtureServer, store: SQLiteStore?, clock: ManualClock, route: RouteGeometry? = nil)
        -> AheadService
    {
        var settings = Settings().ahead
        settings.baseURL = server.baseURL
        return AheadService(
            settings: settings, route: route, http: CurlHTTPClient(), store: store, places: OfflinePlaces(),
            clock: clock)
    }

    @Test func oneRequestHoldsEverySampleAndTheSpeedIsLearnedFromTheTrack() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        let store = try store()
        try await drive(store, until: start)
        let clock = ManualClock(start)
        // The receiver says 10 m/s; the track's 25 m/s must win.
        let outcome = await service(server, store: store, clock: clock).forecast(
            from: position(at: start, mps: 10), offline: false)
        #expect(outcome.issue == nil)
        let f = try #require(outcome.forecast)
        #expect(f.basis == .course && f.speedSource == .history)
        #expect(abs((f.speedMps ?? 0) - 25) < 0.5)
        // 3 h at 15 min: 12 samples, each 22.5 km further east, every one with a temperature.
        #expect(f.samples.count == 12)
        #expect(f.samples.allSatisfy { $0.temperatureC != nil && $0.place != nil })
        #expect(f.samples.map(\.minutes) == Array(stride(from: 15, through: 180, by: 15)))
        let requests = server.requests()
        #expect(requests.count == 1)
        let query = try #require(requests.first?.query)
        let lats = query.split(separator: "&").first { $0.hasPrefix("latitude=") }?.split(separator: ",") ?? []
        #expect(lats.count == 12)
        #expect(requests.first?.headers["user-agent"]?.hasPrefix("fixcast/") == true)
        #expect(f.rain == nil && f.worst.minTemperatureC != nil)
    }

    /// `fixcast ahead` asked again: the stored forecast answers while it is what would be asked, within
    /// `weather.cache_min` (1 min forced); offline, marked stale after that until its samples have
    /// passed; moved more than a model cell, it is asked again.
    @Test func aStoredForecastAnswersWhileItIsWhatWouldBeAsked() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        let store = try store()
        try await drive(store, until: start)
        let clock = ManualClock(start)
        let first = await service(server, store: store, clock: clock).forecast(
            from: position(at: start), offline: false)
        let made = try #require(first.forecast)
        #expect(!first.reused)
        _ = try await store.storeAheadForecast(made)

        // Each call is a new process (a new service), as `fixcast ahead` is.
        func ask(after s: Double, x: Double = 0, force: Bool = false, offline: Bool = false) async -> AheadOutcome {
            let now = start.addingTimeInterval(s)
            clock.set(now)
            let at = SphereNavigation.destination(from: berlin, bearingDeg: 90, distanceM: x).coordinate
            let fix = Fix(time: now, receivedAt: now, coordinate: at, mode: .threeD, speedMps: 25, trackDeg: 90)
            return await service(server, store: store, clock: clock).forecast(
                from: Position(fix: fix), offline: offline, force: force)
        }
        let soon = await ask(after: 50, x: 1_250)
        #expect(soon.reused && soon.forecast == made && soon.issue == nil)
        #expect(server.requestCount() == 1)
        // Forced: its one-minute floor, then asked.
        #expect(await ask(after: 50, x: 1_250, force: true).reused)
        let forced = await ask(after: 70, x: 1_750, force: true)
        #expect(!forced.reused && forced.forecast?.madeAt == start.addingTimeInterval(70))
        #expect(server.requestCount() == 2)
        // Moved 2.5 km: not what it was made for.
        #expect(!(await ask(after: 100, x: 2_500)).reused)
        #expect(server.requestCount() == 3)
        // Offline, 20 min on, from where it was made (the same samples on the same course): stale,
        // saying why.
        let offline = await ask(after: 1_200, x: 0, offline: true)
        #expect(offline.reused && offline.forecast?.stale == true && offline.forecast?.madeAt == start)
        #expect(offline.issue?.component == .ahead)
        #expect(server.requestCount() == 3)
    }

    @Test func aFailedRefreshKeepsTheLastForecastMarkedStaleAndBacksOff() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [
                .multiLocation(recorded),
                .body("{\"error\":true,\"reason\":\"busy\"}", status: 429, headers: ["Retry-After": "3600"]),
            ]
        ])
        defer { server.stop() }
        let store = try store()
        try await drive(store, until: start)
        let clock = ManualClock(start)
        let service = service(server, store: store, clock: clock)
        let first = await service.refreshed(from: position(at: start), force: false, offline: false)
        #expect(first.forecast?.stale == false && first.issue == nil)
        // Within refresh_min and not forced: the last forecast, no request.
        clock.advance(by: 120)
        let kept = await service.refreshed(from: position(at: clock.now()), force: false, offline: false)
        #expect(kept.forecast == first.forecast && server.requestCount() == 1)
        // Forced: asked, 429: the last one kept, stale, and the reading's error names ahead.
        clock.advance(by: 60)
        let failed = await service.refreshed(from: position(at: clock.now()), force: true, offline: false)
        #expect(server.requestCount() == 2)
        #expect(failed.forecast?.stale == true && failed.forecast?.madeAt == start)
        #expect(failed.issue?.component == .ahead && failed.issue?.message.contains("429") == true)
        // A reading before the next refresh is due: nothing asked, and the forecast it carries is still
        // the kept one, stale, with the same error (it read as fresh, with no error, before).
        clock.advance(by: 120)
        let between = await service.refreshed(from: position(at: clock.now()), force: false, offline: false)
        #expect(server.requestCount() == 2)
        #expect(between.forecast?.stale == true && between.forecast?.madeAt == start)
        #expect(between.issue == failed.issue)
        // Retry-After 3600 s: the next due refresh (16 min after the failure) is not asked at all.
        clock.advance(by: 14 * 60)
        let held = await service.refreshed(from: position(at: clock.now()), force: false, offline: false)
        #expect(server.requestCount() == 2)
        #expect(held.forecast?.stale == true && held.issue?.message.contains("wait") == true)
    }

    /// Refreshes failing for longer than the forecast reaches: once its last sample's arrival has passed
    /// it is not served any more, and the reading says why.
    @Test func aKeptForecastIsDroppedOnceEveryArrivalHasPassed() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.multiLocation(recorded), .body("busy", status: 503)]
        ])
        defer { server.stop() }
        let store = try store()
        try await drive(store, until: start)
        let clock = ManualClock(start)
        let service = service(server, store: store, clock: clock)
        let made = await service.refreshed(from: position(at: start), force: false, offline: false)
        let first = try #require(made.forecast)
        let lastArrival = try #require(first.samples.map(\.eta).max())
        // Just before the last arrival: still kept, stale.
        clock.advance(by: lastArrival.timeIntervalSince(start) - 60)
        let kept = await service.refreshed(from: position(at: clock.now()), force: true, offline: false)
        #expect(kept.forecast?.stale == true && kept.forecast?.madeAt == start)
        #expect(kept.issue?.component == .ahead)
        // After it: nothing about the way ahead any more; the error still names ahead.
        clock.advance(by: 120)
        let gone = await service.refreshed(from: position(at: clock.now()), force: true, offline: false)
        #expect(gone.forecast == nil)
        #expect(gone.issue?.component == .ahead)
        #expect(server.requestCount() == 3)
    }

    @Test func aFixedPositionWithoutARouteHasNothingToFollow() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        let clock = ManualClock(start)
        let outcome = await service(server, store: nil, clock: clock).forecast(
            from: .manual(berlin, at: start), offline: false)
        #expect(outcome.forecast == nil && outcome.issue == ReadingIssue(AheadError.noBasis))
        #expect(server.requestCount() == 0)
    }

    /// `ahead --route FILE --at …` with no stored drive: the route is there, the speed is what is missing.
    @Test func aFixedPositionOnARouteWithoutASpeedSaysSo() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        let end = SphereNavigation.destination(from: berlin, bearingDeg: 0, distanceM: 60_000).coordinate
        let route = try #require(RouteGeometry(GPXRoute(name: "North", points: [berlin, end])))
        let outcome = await service(server, store: nil, clock: ManualClock(start), route: route).forecast(
            from: .manual(berlin, at: start), offline: false)
        #expect(outcome.forecast == nil && outcome.issue == ReadingIssue(AheadError.noSpeed))
        #expect(outcome.issue?.message.contains("needs a route") == false)
        #expect(server.requestCount() == 0)
    }

    /// `run` with a route and no speed (no moving track, no receiver speed): each reading's `errors`
    /// says what is missing; `ahead` was null with no error at all.
    @Test func inRunARouteWithoutASpeedIsInTheReadingsErrors() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        let end = SphereNavigation.destination(from: berlin, bearingDeg: 0, distanceM: 60_000).coordinate
        let route = try #require(RouteGeometry(GPXRoute(name: "North", points: [berlin, end])))
        let clock = ManualClock(start)
        let service = service(server, store: nil, clock: clock, route: route)
        let first = await service.refreshed(from: .manual(berlin, at: start), force: false, offline: false)
        #expect(first.forecast == nil && first.issue == ReadingIssue(AheadError.noSpeed))
        clock.advance(by: 30)
        let next = await service.refreshed(from: .manual(berlin, at: clock.now()), force: true, offline: false)
        #expect(next.forecast == nil && next.issue == ReadingIssue(AheadError.noSpeed))
        #expect(server.requestCount() == 0)
    }

    /// No route and no course yet is how every `run` starts (and all of `run --at`): no error, so a
    /// start does not say "nothing to follow" on stderr and then "can be had again".
    @Test func inRunNoCourseYetIsNoError() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        let clock = ManualClock(start)
        let service = service(server, store: nil, clock: clock)
        let first = await service.refreshed(from: .manual(berlin, at: start), force: false, offline: false)
        #expect(first.forecast == nil && first.issue == nil)
        // The one-shot command still says why it has nothing.
        let once = await service.forecast(from: .manual(berlin, at: start), offline: false)
        #expect(once.issue == ReadingIssue(AheadError.noBasis))
        #expect(server.requestCount() == 0)
    }

    /// `run --offline`: nothing is asked, and the reading says so in `errors` (`ahead` was null, or the
    /// kept forecast went stale, without a word); the readings until the next refresh keep saying it.
    @Test func offlineSaysSoAndTheKeptForecastGoesStaleWithIt() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        let store = try store()
        try await drive(store, until: start)
        let clock = ManualClock(start)
        let service = service(server, store: store, clock: clock)
        let fresh = await service.refreshed(from: position(at: start), force: false, offline: true)
        #expect(fresh.forecast == nil && fresh.issue == ReadingIssue(AheadError.offline))
        #expect(fresh.issue?.message.hasPrefix("ahead: --offline") == true)
        // A forecast made online, then a forced refresh offline: kept, stale, and said why.
        clock.advance(by: 120)
        let made = await service.refreshed(from: position(at: clock.now()), force: true, offline: false)
        #expect(made.forecast?.stale == false && made.issue == nil)
        clock.advance(by: 120)
        let offline = await service.refreshed(from: position(at: clock.now()), force: true, offline: true)
        #expect(offline.forecast?.stale == true && offline.forecast?.madeAt == made.forecast?.madeAt)
        #expect(offline.issue == ReadingIssue(AheadError.offline))
        clock.advance(by: 30)
        let between = await service.refreshed(from: position(at: clock.now()), force: false, offline: true)
        #expect(between.forecast?.stale == true && between.issue == ReadingIssue(AheadError.offline))
        #expect(server.requestCount() == 1)
    }

    @Test func alongARouteTheSamplesFollowItAndStopAtItsEnd() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded)]])
        defer { server.stop() }
        // 60 km north from Berlin: at 25 m/s the end comes at 40 min.
        let end = SphereNavigation.destination(from: berlin, bearingDeg: 0, distanceM: 60_000).coordinate
        let route = try #require(RouteGeometry(GPXRoute(name: "North", points: [berlin, end])))
        let clock = ManualClock(start)
        let f = try #require(
            await service(server, store: nil, clock: clock, route: route).forecast(
                from: position(at: start), offline: false
            ).forecast)
        #expect(f.basis == .route && f.route?.name == "North" && f.speedSource == .gps)
        #expect(f.samples.count == 3)
        #expect(abs((f.samples.last?.distanceKm ?? 0) - 60) < 0.1)
        // The route goes north; the receiver's course (east) is not what the samples follow.
        #expect(f.samples.allSatisfy { abs($0.coordinate.lon - berlin.lon) < 0.01 })
    }

    @Test func aRouteFileThatCannotBeReadIsOneSentenceNamingAhead() throws {
        let dir = TestPaths.temporaryDirectory("ahead-route")
        let missing = dir.appendingPathComponent("none.gpx").path
        #expect(throws: AheadError.routeFile(path: missing, detail: "does not exist")) {
            try AheadService.loadRoute(missing)
        }
        let bad = dir.appendingPathComponent("bad.gpx")
        try Data("<gpx version=\"1.1\"><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>".utf8).write(to: bad)
        do {
            _ = try AheadService.loadRoute(bad.path)
            Issue.record("a one-point route was accepted")
        } catch {
            #expect(error.message.hasPrefix("ahead: ") && error.component == .ahead)
            // The file is named, wherever its path came from (--route, or ahead.route in a config file).
            #expect(
                error.message.contains("the route file \(bad.path) has only one distinct point"), "\(error.message)")
        }
        #expect(try AheadService.loadRoute("") == nil)
    }

    /// A route path from the config file or the environment names where it was set, so the person
    /// knows which line to mend; one given with --route (no origin) is named as before.
    @Test func aRouteFromTheConfigNamesTheLineThatSetIt() throws {
        let missing = TestPaths.temporaryDirectory("ahead-route-origin").appendingPathComponent("none.gpx").path
        let origin = ConfigOrigin.file(path: "/etc/fixcast/config.toml", line: 12)
        #expect(throws: AheadError.routeSetting(.routeFile(path: missing, detail: "does not exist"), origin)) {
            try AheadService.loadRoute(missing, setAt: origin)
        }
        do {
            _ = try AheadService.loadRoute(missing, setAt: .environment(variable: "FIXCAST_AHEAD_ROUTE"))
            Issue.record("a missing route was accepted")
        } catch {
            #expect(
                error.message
                    == "ahead: the route file \(missing) does not exist; pass a readable GPX file with --route or ahead.route; ahead.route is set by FIXCAST_AHEAD_ROUTE."
            )
            #expect(error.component == .ahead)
        }
        #expect(try AheadService.loadRoute("", setAt: origin) == nil)
    }
}
