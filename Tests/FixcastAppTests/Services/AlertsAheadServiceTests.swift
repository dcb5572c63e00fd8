import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Alerts ahead through the alert service: the regions the samples cross asked whole (NWS by state)
/// over the real HTTP client against the loopback fixture server, once per `check_min` whatever the
/// number of samples, and matched by `AlertsAhead.match`.
@Suite(.serialized, .scratch) struct AlertsAheadServiceTests {
    static let reno = Coordinate(lat: 39.53, lon: -119.81)!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Eight samples from Reno south past Carson City, 15 min apart (0.06° of latitude each).
    static let samples: [AheadForecast.Sample] = (1...8).map { i in
        AheadForecast.Sample(
            minutes: 15 * i, eta: now.addingTimeInterval(900 * Double(i)), distanceKm: 6.7 * Double(i),
            coordinate: Coordinate(lat: 39.56 - 0.06 * Double(i), lon: -119.78)!, place: "S\(i)")
    }

    static func time(_ minutes: Double) -> String { UTCTime.format(now.addingTimeInterval(minutes * 60)) }

    /// An NWS FeatureCollection: a warning drawn around Carson City (39.10–39.22°N), one that begins only
    /// after the samples have passed it, and one without geometry, whose zone (`zoneBody`) lies further
    /// south.
    static func nwsBody(secondWithoutGeometry: Bool = false) -> String {
        let box = "[[[-119.85,39.10],[-119.70,39.10],[-119.70,39.22],[-119.85,39.22],[-119.85,39.10]]]"
        func feature(_ id: String, _ event: String, geometry: String, onset: Double, expires: Double) -> String {
            """
            {"id":"\(id)","type":"Feature","geometry":\(geometry),"properties":{"id":"\(id)","status":"Actual",
            "affectedZones":["https://api.weather.gov/zones/forecast/NVZ003","https://evil.example/x?y"],
            "messageType":"Alert","event":"\(event)","severity":"Severe","headline":"\(event) for Carson City",
            "onset":"\(time(onset))","expires":"\(time(expires))","areaDesc":"Carson City"}}
            """
        }
        let polygon = "{\"type\":\"Polygon\",\"coordinates\":\(box)}"
        var features = [
            feature("urn:ws", "Winter Storm Warning", geometry: polygon, onset: -60, expires: 3000),
            feature("urn:late", "Wind Advisory", geometry: polygon, onset: 300, expires: 3000),
            feature("urn:null", "Flood Watch", geometry: "null", onset: -60, expires: 3000),
        ]
        if secondWithoutGeometry {
            features.append(feature("urn:null2", "Flood Advisory", geometry: "null", onset: -60, expires: 3000))
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    }

    /// Zone NVZ003 as NWS serves it: a Feature whose polygon holds sample 7 (39.14°N) and not sample 6.
    static let zoneBody = """
        {"id":"https://api.weather.gov/zones/forecast/NVZ003","type":"Feature","geometry":{"type":"Polygon",
        "coordinates":[[[-119.9,39.05],[-119.6,39.05],[-119.6,39.17],[-119.9,39.17],[-119.9,39.05]]]},
        "properties":{"id":"NVZ003","name":"Greater Lake Tahoe Area"}}
        """

    func service(_ server: FixtureServer, store: SQLiteStore, clock: ManualClock) -> AlertService {
        var s = Settings.Alerts()
        s.nwsBaseURL = server.baseURL
        return AlertService.make(
            settings: s, http: CurlHTTPClient(), countries: PlaceTestData.offline, state: store, clock: clock)
    }

    @Test func theStateAheadIsAskedOncePerCheckMinAndItsWarningMetAtTheFirstSampleInside() async throws {
        let dir = TestPaths.temporaryDirectory("alerts-ahead")
        let bodyPath = dir.appendingPathComponent("nws-nv.json").path
        try Self.nwsBody().write(toFile: bodyPath, atomically: true, encoding: .utf8)
        let server = try FixtureServer.started(routes: [
            "/zones/forecast/NVZ003": [.body(Self.zoneBody, headers: ["Content-Type": "application/geo+json"])],
            "/alerts/active": [
                .file(
                    bodyPath,
                    headers: [
                        "Content-Type": "application/geo+json", "Last-Modified": "Wed, 01 Dec 2026 00:00:00 GMT",
                    ])
            ],
        ])
        defer { server.stop() }
        let store = try SQLiteStore(path: dir.appendingPathComponent("f.sqlite").path)
        let clock = ManualClock(Self.now)
        let alerts = service(server, store: store, clock: clock)

        let outcome = await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false)
        #expect(outcome.error == nil)
        let ahead = outcome.alerts
        // Sample 6 (39.20°N) is the first in the box; the advisory begins after sample 7 has left it;
        // the watch, sent without geometry, is placed by its zone's polygon: sample 7.
        #expect(ahead.map(\.id) == ["urn:ws", "urn:null"])
        #expect(ahead.last?.inMin == 105 && ahead.last?.place == "S7")
        func zoneQueries() -> Int { server.requests().filter { $0.path.hasPrefix("/zones/") }.count }
        // One zone request (the second "zone" is another host's URL: never asked).
        #expect(zoneQueries() == 1)
        #expect(server.requests().allSatisfy { !$0.path.contains("evil") && $0.path != "/x" })
        #expect(
            ahead.first?.inMin == 90 && ahead.first?.place == "S6" && ahead.first?.atKm == Self.samples[5].distanceKm)
        #expect(ahead.first?.event == "Winter Storm Warning" && ahead.first?.severity == "severe")
        // Reno itself is not in the drawn ones: here, only the watch the point query vouches for.
        #expect(await alerts.alerts(at: Self.reno, offline: false).report?.active.map(\.id) == ["urn:null"])

        func areaQueries() -> [(path: String, query: String, headers: [String: String])] {
            server.requests().filter { $0.query.hasPrefix("area=") }
        }
        // Eight samples, all in Nevada: one request for the state, and one for the point here.
        #expect(areaQueries().map(\.query) == ["area=NV"])
        #expect(server.requests().filter { $0.query.hasPrefix("point=") }.count == 1)

        // Again within check_min: the stored state answer stands, nothing is asked.
        clock.advance(by: 120)
        #expect(
            await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false).alerts.map(\.id) == [
                "urn:ws", "urn:null",
            ])
        #expect(areaQueries().count == 1)
        // Offline: the stored copy only.
        #expect(
            await alerts.alertsAhead(Self.samples, from: Self.reno, offline: true).alerts.map(\.id) == [
                "urn:ws", "urn:null",
            ])
        #expect(areaQueries().count == 1)
        // Past check_min (10 min): asked again, with the stored copy's validator.
        clock.advance(by: 600)
        _ = await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false)
        #expect(areaQueries().count == 2)
        #expect(areaQueries().last?.headers["if-modified-since"] == "Wed, 01 Dec 2026 00:00:00 GMT")
        // The zone is kept a day: not asked again until then.
        #expect(zoneQueries() == 1)
        clock.advance(by: 86_400)
        _ = await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false)
        #expect(zoneQueries() == 2)
    }

    /// A zone NWS does not know (404) was asked again at every forecast, and once for each alert that
    /// names it: it is kept as one without geometry for the day, as an answer is, and a zone that
    /// fails is asked once a pass.
    @Test func aZoneThatIsNotThereIsAskedOnceADayAndOnceAPass() async throws {
        let dir = TestPaths.temporaryDirectory("alerts-ahead-404")
        let bodyPath = dir.appendingPathComponent("nws-nv.json").path
        try Self.nwsBody(secondWithoutGeometry: true).write(toFile: bodyPath, atomically: true, encoding: .utf8)
        let server = try FixtureServer.started(routes: [
            "/zones/forecast/NVZ003": [.body("{\"status\":404}", status: 404)],
            "/alerts/active": [.file(bodyPath, headers: ["Content-Type": "application/geo+json"])],
        ])
        defer { server.stop() }
        let store = try SQLiteStore(path: dir.appendingPathComponent("f.sqlite").path)
        let clock = ManualClock(Self.now)
        let alerts = service(server, store: store, clock: clock)
        func zoneQueries() -> Int { server.requests().filter { $0.path.hasPrefix("/zones/") }.count }
        let first = await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false)
        // The warnings drawn are met; the two sent without geometry have no zone to place them.
        #expect(first.alerts.map(\.id) == ["urn:ws"])
        #expect(zoneQueries() == 1, "two alerts name the zone: asked once")
        clock.advance(by: 700)  // past check_min: the state is asked again, the zone is not
        _ = await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false)
        #expect(zoneQueries() == 1)
        clock.advance(by: 86_400)
        _ = await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false)
        #expect(zoneQueries() == 2)
    }

    /// Each zone asked left its geometry in the store for good, and each region ahead its whole
    /// document: a tour of the US (or Canada's boxes) kept every one it crossed. After a pass that asked
    /// one, only the last day's stay, the newest `keptZones.limit` (`keptRegions.limit`).
    @Test func storedZonesAndRegionsAreKeptForADayAndToTheLimit() async throws {
        let dir = TestPaths.temporaryDirectory("alerts-ahead-trim")
        let bodyPath = dir.appendingPathComponent("nws-nv.json").path
        try Self.nwsBody().write(toFile: bodyPath, atomically: true, encoding: .utf8)
        let server = try FixtureServer.started(routes: [
            "/zones/forecast/NVZ003": [.body(Self.zoneBody, headers: ["Content-Type": "application/geo+json"])],
            "/alerts/active": [.file(bodyPath, headers: ["Content-Type": "application/geo+json"])],
        ])
        defer { server.stop() }
        let store = try SQLiteStore(path: dir.appendingPathComponent("f.sqlite").path)
        func zone(checkedSecondsAgo: Double) -> String {
            let at = UTCTime.format(Self.now.addingTimeInterval(-checkedSecondsAgo))
            return #"{"checked_at":"\#(at)","footprint":null}"#
        }
        let limit = AlertService.keptZones.limit
        try await store.setState(AlertService.zoneKey("/zones/forecast/OLD"), zone(checkedSecondsAgo: 90_000))
        try await store.setState(AlertService.zoneKey("/zones/forecast/JUNK"), "not a zone")
        for i in 0..<limit {
            try await store.setState(
                AlertService.zoneKey("/zones/county/Z\(i)"), zone(checkedSecondsAgo: Double(60 + i)))
        }
        try await store.setState("alerts.last.nws", "kept: not a zone")
        func region(_ name: String, checkedSecondsAgo: Double) -> String {
            let at = UTCTime.format(Self.now.addingTimeInterval(-checkedSecondsAgo))
            return
                #"{"feed":"\#(name)","checked_at":"\#(at)","expires":null,"body":"\#(String(repeating: "x", count: 5_000))"}"#
        }
        try await store.setState("alerts.region.eccc.-80.43.-79.44", region("eccc", checkedSecondsAgo: 3_600))
        try await store.setState("alerts.region.nws.AZ", region("nws.AZ", checkedSecondsAgo: 100_000))
        let alerts = service(server, store: store, clock: ManualClock(Self.now))
        _ = await alerts.alertsAhead(Self.samples, from: Self.reno, offline: false)
        #expect(server.requests().filter { $0.path.hasPrefix("/zones/") }.count == 1)
        let kept = try await store.stateHeads(prefix: AlertService.zoneKey("/"), length: 1_000)
        #expect(kept.count == limit)
        #expect(kept[AlertService.zoneKey("/zones/forecast/NVZ003")] != nil, "the zone just asked")
        #expect(kept[AlertService.zoneKey("/zones/forecast/OLD")] == nil)
        #expect(kept[AlertService.zoneKey("/zones/forecast/JUNK")] == nil)
        #expect(kept[AlertService.zoneKey("/zones/county/Z\(limit - 1)")] == nil, "the oldest made room")
        #expect(kept[AlertService.zoneKey("/zones/county/Z0")] != nil)
        #expect(try await store.state("alerts.last.nws") != nil, "another family is not touched")
        let regions = try await store.stateHeads(prefix: "alerts.region.", length: 20)
        #expect(regions.keys.sorted() == ["alerts.region.eccc.-80.43.-79.44", "alerts.region.nws.NV"])
        #expect(StateFamilyLimit.checkedAt(zone(checkedSecondsAgo: 0)) == Self.now)
    }

    /// Without a store the copies of regions ahead live in memory: every one a run asked stayed there (an
    /// ECCC box is new wherever the road goes). Now the last `maxReadFeeds`.
    @Test func withoutAStoreTheRegionCopiesHeldAreTheLastFew() async throws {
        let dir = TestPaths.temporaryDirectory("alerts-ahead-memory")
        let body = try AlertFixtures.shifted(
            AlertFixtures.ecccToronto, reference: AlertFixtures.ecccTimeStamp, to: Self.now, in: dir)
        let server = try FixtureServer.started(routes: ["/collections/weather-alerts/items": [.file(body)]])
        defer { server.stop() }
        var s = Settings.Alerts()
        s.ecccBaseURL = server.baseURL
        let alerts = AlertService.make(
            settings: s, http: CurlHTTPClient(), countries: PlaceTestData.offline, state: nil,
            clock: ManualClock(Self.now))
        // Twelve Canadian cities, each in a box of its own.
        let cities = [
            (43.65, -79.38), (45.42, -75.70), (46.81, -71.21), (44.65, -63.57), (49.90, -97.14), (50.45, -104.61),
            (51.05, -114.07), (53.55, -113.49), (49.28, -123.12), (52.13, -106.67), (48.38, -89.25), (46.49, -80.99),
        ]
        for (i, city) in cities.enumerated() {
            let here = Coordinate(lat: city.0, lon: city.1)!
            let sample = AheadForecast.Sample(
                minutes: 15, eta: Self.now.addingTimeInterval(900), distanceKm: 20,
                coordinate: Coordinate(lat: city.0 + 0.1, lon: city.1)!, place: "C\(i)")
            _ = await alerts.alertsAhead([sample], from: here, offline: false)
            #expect(await alerts.feedCopiesHeld <= AlertService.maxReadFeeds, "after city \(i)")
        }
        let boxes = Set(server.requests().filter { $0.query.contains("bbox=") && $0.query.contains(",") }.map(\.query))
        #expect(boxes.count == 2 * cities.count, "each city's point and its box of its own: \(boxes.sorted())")
        #expect(await alerts.feedCopiesHeld == AlertService.maxReadFeeds)
    }

    /// A region ahead that fails says so (one alerts sentence for the reading's errors), and the alerts
    /// already had here are still matched; the failure backs the source off as a point query's does.
    @Test func aFailingRegionAheadSaysSoAndWhatIsHadHereStillCounts() async throws {
        let dir = TestPaths.temporaryDirectory("alerts-ahead")
        let bodyPath = dir.appendingPathComponent("nws-nv.json").path
        try Self.nwsBody().write(toFile: bodyPath, atomically: true, encoding: .utf8)
        let server = try FixtureServer.started(routes: [
            "/zones/forecast/NVZ003": [.body(Self.zoneBody, headers: ["Content-Type": "application/geo+json"])],
            // The point query here answers; the state's request after it fails.
            "/alerts/active": [.file(bodyPath), .body("{\"title\":\"down\"}", status: 503)],
        ])
        defer { server.stop() }
        let store = try SQLiteStore(path: dir.appendingPathComponent("f.sqlite").path)
        let alerts = service(server, store: store, clock: ManualClock(Self.now))
        // Asked from inside the warning (Carson City): the point's answer holds it.
        let carson = Coordinate(lat: 39.16, lon: -119.77)!
        let outcome = await alerts.alertsAhead(Self.samples, from: carson, offline: false)
        let error = try #require(outcome.error)
        #expect(ReadingIssue(error).component == .alerts)
        // The warning the point query gave is still matched ahead; NWS is backed off after the 503, so
        // the watch's zone is not asked (it is not placed this time).
        #expect(outcome.alerts.map(\.id) == ["urn:ws"])
        #expect(server.requests().filter { $0.query.hasPrefix("area=") }.count == 1)
        #expect(server.requests().filter { $0.path.hasPrefix("/zones/") }.isEmpty)
    }
}
