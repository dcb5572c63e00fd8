import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `fixcast ahead` through the binary: the loopback server answers the multi-location form (built
/// from the recorded Berlin answer, hours relabelled to now), a real SQLite store holds a track of
/// the last minutes (the speed is learned from it), and a GPX route is followed.
@Suite(.serialized, .scratch) struct AheadCommandAcceptanceTests {
    let berlin = Coordinate(lat: 52.52, lon: 13.41)!
    let recorded = TestPaths.fixture("api/open-meteo-ahead-multi-location.json")

    /// A store at `path` with 10 minutes of track driving north at 25 m/s up to now, and a route
    /// 120 km north from Berlin in `dir`.
    func prepare(_ dir: URL) async throws -> (db: String, route: String) {
        let db = dir.appendingPathComponent("fixcast.sqlite").path
        let store = try SQLiteStore(path: db)
        let now = Date()
        var fixes: [Fix] = []
        for k in 0...60 {
            let t = now.addingTimeInterval(Double(k - 60) * 10)
            let at = SphereNavigation.destination(from: berlin, bearingDeg: 0, distanceM: Double(k - 60) * 250)
            fixes.append(
                Fix(time: t, receivedAt: t, coordinate: at.coordinate, mode: .threeD, speedMps: 25, trackDeg: 0))
        }
        try await store.appendTrackPoints(fixes)
        let end = SphereNavigation.destination(from: berlin, bearingDeg: 0, distanceM: 120_000).coordinate
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test"><rte><name>North</name>
            <rtept lat="\(berlin.lat)" lon="\(berlin.lon)"/><rtept lat="\(end.lat)" lon="\(end.lon)"/></rte></gpx>
            """
        let route = dir.appendingPathComponent("north.gpx")
        try Data(gpx.utf8).write(to: route)
        return (db, route.path)
    }

    @Test func aheadJSONIsTheContractsObjectFromOneRequestHoldingEverySample() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded, rebaseHours: true)]])
        defer { server.stop() }
        let home = TestPaths.temporaryDirectory("ahead-cli")
        let (db, route) = try await prepare(home)
        let result = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route, "--json"],
            env: ["FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": server.baseURL], home: home)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONValue.parse(result.stdout)
        guard case .object(let members) = json else {
            Issue.record("not an object: \(result.stdout)")
            return
        }
        #expect(
            members.map(\.0) == [
                "basis", "off_route", "made_at", "stale", "from", "speed_mps", "speed_source", "route", "samples",
                "rain", "worst", "alerts",
            ])
        #expect(json["basis"]?.stringValue == "route" && json["speed_source"]?.stringValue == "history")
        #expect(json["route"]?["name"]?.stringValue == "North")
        let samples = json["samples"]?.arrayValue ?? []
        // 120 km at 25 m/s (22.5 km a sample): 5 samples, then the route's end.
        #expect(samples.count == 6)
        #expect(samples.allSatisfy { $0["temperature_c"]?.doubleValue != nil && $0["place"]?.stringValue != nil })
        let requests = server.requests()
        #expect(requests.count == 1)
        let lats = requests.first?.query.split(separator: "&").first { $0.hasPrefix("latitude=") }?.split(
            separator: ",")
        #expect(lats?.count == samples.count)
    }

    @Test func theTableHasTheHeadlineAndOneRowPerSample() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.multiLocation(recorded, rebaseHours: true)]])
        defer { server.stop() }
        let home = TestPaths.temporaryDirectory("ahead-cli")
        let (db, route) = try await prepare(home)
        let result = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route, "--hours", "1"],
            env: ["FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": server.baseURL], home: home)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "No rain ahead in the next 1 h.")
        #expect(lines.contains { $0.hasPrefix("Along the route \"North\"") })
        #expect(lines.contains { $0.contains("against you") && $0.contains("place") })
        // 1 h at 25 m/s: 4 samples (15, 30, 45, 60 min).
        #expect(lines.filter { $0.contains(" min ") || $0.hasPrefix("1 h") || $0.contains(" h ") }.count >= 4)
    }

    @Test func aFixedPositionWithoutARouteSaysWhatItNeeds() throws {
        let home = TestPaths.temporaryDirectory("ahead-cli")
        let result = try CLIRunner.run(
            ["ahead", "--at", "52.52,13.41"], env: ["FIXCAST_AHEAD_ENABLED": "true"], home: home)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("ahead: ") && result.stderr.contains("route"))
        #expect(result.stdout.isEmpty)
    }

    /// A route named in the config file that cannot be followed is a configuration error naming the
    /// file's line (exit 2, for `ahead` and `run` alike); `--route` overrides it, and is named alone.
    @Test func aBadRouteFromTheConfigNamesItsLine() throws {
        let home = TestPaths.temporaryDirectory("ahead-route-config")
        let config = home.appendingPathComponent("config.toml")
        try Data("[ahead]\nenabled = true\nroute = \"gone.gpx\"\n".utf8).write(to: config)
        let gone = home.appendingPathComponent("gone.gpx").path
        for command in [["ahead"], ["run", "--json"]] {
            let result = try CLIRunner.run(
                command + ["--config", config.path, "--at", "52.52,13.41", "--offline"],
                env: ["FIXCAST_AHEAD_ENABLED": "true"], home: home, timeout: 20)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(
                result.stderr
                    == "ahead: the route file \(gone) does not exist; pass a readable GPX file with --route or ahead.route; ahead.route is set at \(config.path) line 3.\n"
            )
        }
        let other = home.appendingPathComponent("other.gpx").path
        let result = try CLIRunner.run(
            ["ahead", "--config", config.path, "--route", other, "--at", "52.52,13.41", "--offline"],
            env: ["FIXCAST_AHEAD_ENABLED": "true"], home: home, timeout: 20)
        #expect(result.status == 2)
        #expect(result.stderr.contains("the route file \(other) does not exist") && !result.stderr.contains("line 3"))
    }

    /// A MeteoAlarm warning drawn (CAP polygon) 35–60 km north of Berlin, in the German feed, times now:
    /// `fixcast ahead` lists it ahead (JSON and text), at the second sample (45 km, 30 min), while Berlin
    /// itself is not warned; the feed is asked once, for here and the region ahead alike.
    @Test func aWarningOnTheRouteIsListedAheadFromTheCountryFeedAskedOnce() async throws {
        let t = ISO8601DateFormatter()
        let lat0 = berlin.lat + 0.32
        let lat1 = berlin.lat + 0.54
        let polygon = "\(lat0),13.0 \(lat0),14.0 \(lat1),14.0 \(lat1),13.0 \(lat0),13.0"
        let feed = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
            <entry><id>w1</id><cap:identifier>w1</cap:identifier><cap:areaDesc>Uckermark</cap:areaDesc>
            <cap:event>Wind</cap:event><cap:severity>Severe</cap:severity><cap:status>Actual</cap:status>
            <cap:message_type>Alert</cap:message_type>
            <cap:expires>\(t.string(from: Date().addingTimeInterval(86_400)))</cap:expires>
            <cap:polygon>\(polygon)</cap:polygon></entry></feed>
            """
        let feedPath = "/feeds/meteoalarm-legacy-atom-germany"
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.multiLocation(recorded, rebaseHours: true)],
            feedPath: [.body(feed, headers: ["Content-Type": "application/atom+xml"])],
        ])
        defer { server.stop() }
        let home = TestPaths.temporaryDirectory("ahead-cli")
        let (db, route) = try await prepare(home)
        let env = [
            "FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": server.baseURL, "FIXCAST_ALERTS_ENABLED": "true",
            "FIXCAST_ALERTS_METEOALARM_BASE_URL": server.baseURL,
        ]
        let result = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route, "--json"], env: env, home: home)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONValue.parse(result.stdout)
        let alerts = json["alerts"]?.arrayValue ?? []
        #expect(alerts.map { $0["id"]?.stringValue } == ["w1"], "\(result.stdout)")
        #expect(alerts.first?["event"]?.stringValue == "Wind" && alerts.first?["severity"]?.stringValue == "severe")
        #expect(alerts.first?["in_min"]?.doubleValue == 30)
        #expect(alerts.first?["at_km"]?.doubleValue == json["samples"]?[1]?["distance_km"]?.doubleValue)
        #expect(alerts.first?["place"]?.stringValue == json["samples"]?[1]?["place"]?.stringValue)
        #expect(server.requests().filter { $0.path == feedPath }.count == 1)

        let text = try CLIRunner.run(
            ["ahead", "--db", db, "--at", "52.52,13.41", "--route", route], env: env, home: home)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.split(separator: "\n").contains {
                $0.hasPrefix("Alert ahead: Wind (severe) in about 30 min, ")
            },
            "\(text.stdout)")
        // Within check_min the stored feed stands: still one request.
        #expect(server.requests().filter { $0.path == feedPath }.count == 1)
    }
}
