import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Issue 21's sources through the binary: MeteoAlarm country feeds placed offline with the bundled area
/// table, and ECCC's OGC API, served by the loopback fixture server with every timestamp moved so that
/// the recording reads as fetched just now (AlertFixtures.shifted).
@Suite(.serialized, .scratch) struct AlertsEuropeCanadaAcceptanceTests {
    static let annecy = "45.8992,6.1294"  // Haute-Savoie: warned in the French recording
    static let lyon = "45.764,4.8357"  // Rhône, the neighbouring area of the warned Isère: not warned
    static let london = "51.5,-0.12"
    static let toronto = "43.6532,-79.3832"
    static let hamilton = "43.2557,-79.8711"
    static let francePath = "/feeds/meteoalarm-legacy-atom-france"
    static let ukPath = "/feeds/meteoalarm-legacy-atom-united-kingdom"
    static let ecccPath = "/collections/weather-alerts/items"
    static let warning = "2.49.0.0.250.0.FR.20221207160058.764028"

    static func env(_ server: FixtureServer) -> [String: String] {
        Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true",
                "FIXCAST_ALERTS_METEOALARM_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_ECCC_BASE_URL": server.baseURL,
            ])
    }

    static func active(_ obj: [String: Any]) -> [[String: Any]] { obj["active"] as? [[String: Any]] ?? [] }

    /// Makes the stored copy of `feed` `minutes` older, as if it had been fetched that long ago.
    static func age(feed: String, in home: AcceptanceHome, minutes: Double) async throws {
        let store = try SQLiteStore(path: home.db)
        let key = "alerts.feed.meteoalarm.\(feed)"
        let text = try #require(try await store.state(key))
        var check = try #require(MeteoAlarmFeedCheck(json: try JSONValue.parse(text)))
        check.checkedAt = check.checkedAt.addingTimeInterval(-minutes * 60)
        try await store.setState(key, check.json.serialized())
    }

    @Test(
        "MeteoAlarm: a warned French area lists its warning, the neighbouring area does not; one request per feed per check_min; a 304 re-filters the stored feed"
    )
    func meteoAlarmFrance() async throws {
        let home = AcceptanceHome("alerts-meteoalarm")
        defer { home.remove() }
        let feed = try AlertFixtures.shifted(
            AlertFixtures.meteoAlarmFrance, reference: AlertFixtures.meteoAlarmFranceUpdated, in: home.dir)
        let validators = ["ETag": "\"fr-1\"", "Last-Modified": "Thu, 08 Dec 2022 00:36:08 GMT"]
        let server = try FixtureServer.started(routes: [
            Self.francePath: [
                .file(feed, headers: validators.merging(["Content-Type": "application/atom+xml"]) { a, _ in a }),
                .body("", status: 304, headers: validators),
            ]
        ])
        defer { server.stop() }

        let here = try home.run(["alerts", "--at", Self.annecy, "--json"], env: Self.env(server))
        #expect(here.status == 0, "stderr: \(here.stderr)")
        #expect(here.stderr.isEmpty, "\(here.stderr)")
        let obj = try Acceptance.object(here)
        #expect(obj.string("source") == "meteoalarm")
        #expect(obj.bool("covered") == true)
        #expect(Self.active(obj).map { $0.string("id") } == [Self.warning])
        #expect(Self.active(obj).first?.string("area") == "Haute Savoie")
        let first = try #require(server.requests().first)
        #expect(first.path == Self.francePath)
        #expect(first.headers["user-agent"]?.hasPrefix("fixcast/") == true)
        #expect(first.headers["if-none-match"] == nil && first.headers["if-modified-since"] == nil)

        // 110 km away, same country, within check_min: the stored feed answers, with no request.
        let nextDoor = try home.run(["alerts", "--at", Self.lyon, "--json"], env: Self.env(server))
        #expect(nextDoor.status == 0, "stderr: \(nextDoor.stderr)")
        let nextObj = try Acceptance.object(nextDoor)
        #expect(nextObj.bool("covered") == true)
        #expect(Self.active(nextObj).isEmpty, "\(nextDoor.stdout)")
        #expect(server.requestCount(path: Self.francePath) == 1, "one request per feed per check_min")

        // Past check_min: a conditional GET; the server's 304 leaves the stored feed, placed again here.
        try await Self.age(feed: "france", in: home, minutes: 11)
        let revalidated = try home.run(["alerts", "--at", Self.annecy, "--json"], env: Self.env(server))
        #expect(revalidated.status == 0, "stderr: \(revalidated.stderr)")
        #expect(Self.active(try Acceptance.object(revalidated)).map { $0.string("id") } == [Self.warning])
        let requests = server.requests()
        #expect(requests.count == 2)
        #expect(requests.last?.headers["if-none-match"] == "\"fr-1\"")
        #expect(requests.last?.headers["if-modified-since"] == "Thu, 08 Dec 2022 00:36:08 GMT")
        let afterRevalidation = try home.run(["alerts", "--at", Self.lyon, "--json"], env: Self.env(server))
        #expect(Self.active(try Acceptance.object(afterRevalidation)).isEmpty)
        #expect(server.requestCount(path: Self.francePath) == 2, "the 304 restarted check_min")

        // Human: the source named, its credit given.
        let human = try home.run(["alerts", "--at", Self.annecy], env: Self.env(server))
        #expect(human.stdout.contains("1 active alert here (MeteoAlarm"), "\(human.stdout)")
        #expect(human.stdout.contains("[MODERATE] Moderate avalanches warning"), "\(human.stdout)")
        #expect(human.stdout.contains("— Haute Savoie"), "\(human.stdout)")
        #expect(human.stdout.contains("MeteoAlarm / EUMETNET"))

        let status = try home.run(["status", "--json"], env: Self.env(server))
        let statusObj = try Acceptance.object(status)
        #expect(statusObj.dict("alerts")?["unplaced_areas"] as? Int == 0)
    }

    @Test("MeteoAlarm: warnings whose areas the table cannot place are listed as area unknown and counted in status")
    func meteoAlarmUnplaced() throws {
        let home = AcceptanceHome("alerts-meteoalarm-uk")
        defer { home.remove() }
        let feed = try AlertFixtures.shifted(
            AlertFixtures.meteoAlarmUK, reference: AlertFixtures.meteoAlarmUKUpdated, in: home.dir)
        let server = try FixtureServer.started(routes: [Self.ukPath: [.file(feed)]])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.london, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let alerts = Self.active(try Acceptance.object(r))
        #expect(!alerts.isEmpty)
        #expect(alerts.allSatisfy { $0.string("area")?.hasSuffix("(area unknown)") == true }, "\(alerts)")
        let text = try String(contentsOfFile: feed, encoding: .utf8)
        let codes = Set(text.components(separatedBy: "<value>").dropFirst().map { $0.components(separatedBy: "<")[0] })
        let status = try Acceptance.object(try home.run(["status", "--json"], env: Self.env(server)))
        #expect(status.dict("alerts")?["unplaced_areas"] as? Int == codes.count)
        let human = try home.run(["status"], env: Self.env(server))
        #expect(human.stdout.contains("\(codes.count) MeteoAlarm area codes not in the area table"), "\(human.stdout)")
    }

    @Test("ECCC: Toronto lists the City of Toronto warning, Hamilton its own; the box is asked once per check_min")
    func ecccToronto() throws {
        let home = AcceptanceHome("alerts-eccc")
        defer { home.remove() }
        let body = try AlertFixtures.shifted(
            AlertFixtures.ecccToronto, reference: AlertFixtures.ecccTimeStamp, in: home.dir)
        let server = try FixtureServer.started(routes: [Self.ecccPath: [.file(body)]])
        defer { server.stop() }
        let r = try home.run(["alerts", "--at", Self.toronto, "--json"], env: Self.env(server))
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let obj = try Acceptance.object(r)
        #expect(obj.string("source") == "eccc")
        #expect(Self.active(obj).map { $0.string("area") } == ["City of Toronto"])
        #expect(Self.active(obj).first?.string("event") == "Freezing rain warning")
        let request = try #require(server.requests().first)
        #expect(request.query == "f=json&lang=en&bbox=-79.4332,43.6032,-79.3332,43.7032&limit=100")
        #expect(request.headers["user-agent"]?.hasPrefix("fixcast/") == true)

        let again = try home.run(["alerts", "--at", "43.66,-79.39", "--json"], env: Self.env(server))
        #expect(Self.active(try Acceptance.object(again)).map { $0.string("area") } == ["City of Toronto"])
        #expect(server.requestCount(path: Self.ecccPath) == 1, "within check_min and 5 km: no request")

        let hamilton = try home.run(["alerts", "--at", Self.hamilton, "--json"], env: Self.env(server))
        let areas = Self.active(try Acceptance.object(hamilton)).map { $0.string("area") }
        #expect(areas == ["City of Hamilton"], "the neighbouring area's warning, not Toronto's")

        let human = try home.run(["alerts", "--at", Self.toronto], env: Self.env(server))
        #expect(human.stdout.contains("(ECCC"), "\(human.stdout)")
        #expect(human.stdout.contains("Environment and Climate Change Canada"))
    }

    @Test("a country no source covers says so and names the sources that exist, without a request")
    func notCovered() throws {
        let home = AcceptanceHome("alerts-tokyo")
        defer { home.remove() }
        let server = try FixtureServer.started(routes: [:])
        defer { server.stop() }
        let human = try home.run(["alerts", "--at", "35.68,139.69"], env: Self.env(server))
        #expect(human.status == 0, "stderr: \(human.stderr)")
        #expect(human.stdout.contains("not covered here (JP)"), "\(human.stdout)")
        #expect(human.stdout.contains("ECCC covers Canada") && human.stdout.contains("MeteoAlarm covers"))
        let json = try home.run(["alerts", "--at", "35.68,139.69", "--json"], env: Self.env(server))
        #expect(
            json.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"covered":false,"source":null,"active":[]}"#)
        #expect(server.requestCount() == 0)
    }
}
