import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Issue 21.5 through the binary: `fixcast run` with weather ahead along the demo drive's route
/// (Reno → Lake Tahoe, replayed through a real gpsd) and an NWS warning drawn over the road south of
/// Reno (times moved to now). Reported ahead before the car reaches it, then as current once inside;
/// the state is asked once for the whole replay (one `check_min`), however many samples lie in it.
@Suite(.serialized, .scratch) struct AlertsAheadReplayTests {
    /// The warned box: from 39.20 to 39.345°N, 120.05 to 119.86°W (the road from Steamboat to Washoe
    /// Valley); the drive starts at 39.43°N, 119.77°W, outside it.
    static let box = (south: 39.20, north: 39.345, west: -120.05, east: -119.86)

    static func nwsBody(now: Date) -> String {
        let b = Self.box
        let ring =
            "[[[\(b.west),\(b.south)],[\(b.east),\(b.south)],[\(b.east),\(b.north)],[\(b.west),\(b.north)],"
            + "[\(b.west),\(b.south)]]]"
        func t(_ hours: Double) -> String { UTCTime.format(now.addingTimeInterval(hours * 3600)) }
        return """
            {"type":"FeatureCollection","features":[{"id":"urn:wsw","type":"Feature",
            "geometry":{"type":"Polygon","coordinates":\(ring)},
            "properties":{"id":"urn:wsw","status":"Actual","messageType":"Alert","event":"Winter Storm Warning",
            "severity":"Severe","headline":"Winter Storm Warning for the Carson Range","onset":"\(t(-1))",
            "expires":"\(t(10))","areaDesc":"Greater Lake Tahoe Area"}}]}
            """
    }

    static func inside(_ r: JSONValue) -> Bool {
        guard let lat = r["position"]?["lat"]?.doubleValue, let lon = r["position"]?["lon"]?.doubleValue else {
            return false
        }
        return lat >= box.south && lat <= box.north && lon >= box.west && lon <= box.east
    }

    @Test func aWarnedAreaOnTheRouteIsReportedAheadThenAsCurrentOnceInside() async throws {
        let dir = TestPaths.temporaryDirectory("alerts-ahead-replay")
        let body = dir.appendingPathComponent("nws.json").path
        try Self.nwsBody(now: Date()).write(toFile: body, atomically: true, encoding: .utf8)
        let route = TestPaths.repoRoot.appendingPathComponent("demo/reno_tahoe_route.gpx").path
        let rig = try await AgentReplayTests.startRig(
            routes: [
                AheadReplayTests.aheadPath: [.multiLocation(AheadReplayTests.recorded, rebaseHours: true)],
                "/alerts/active": [.file(body, headers: ["Content-Type": "application/geo+json"])],
            ],
            env: [
                "FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": "$SERVER/ahead",
                "FIXCAST_ALERTS_ENABLED": "true", "FIXCAST_ALERTS_NWS_BASE_URL": "$SERVER",
            ],
            arguments: ["--route", route])
        defer { rig.stop() }
        _ = try await AgentReplayTests.driveStart(rig, percent: 30)
        rig.agent.signal(SIGTERM)
        #expect(rig.agent.waitForExit(seconds: 20) == 0, "stderr: \(rig.agent.stderr)")

        let printed = AgentReplayTests.readings(rig)
        let startup = try #require(printed.first)
        // Not reached yet: not current here, but ahead, at a sample further along the route.
        #expect(!Self.inside(startup))
        #expect(startup["alerts"]?["active"]?.arrayValue?.isEmpty == true, "stderr: \(rig.agent.stderr)")
        let ahead = try #require(startup["ahead"]?["alerts"]?.arrayValue, "stderr: \(rig.agent.stderr)")
        #expect(ahead.map { $0["id"]?.stringValue } == ["urn:wsw"])
        #expect((ahead.first?["in_min"]?.doubleValue ?? 0) > 0)
        #expect((ahead.first?["at_km"]?.doubleValue ?? 0) > 0)
        #expect(ahead.first?["severity"]?.stringValue == "severe")
        #expect(ahead.first?["event"]?.stringValue == "Winter Storm Warning")
        // Once inside: the warning is current.
        let within = printed.filter(Self.inside)
        #expect(!within.isEmpty, "the replay reaches the box")
        #expect(
            within.allSatisfy { r in
                (r["alerts"]?["active"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == "urn:wsw" }
            })
        // Stored with the forecast (the store's ahead_alerts rows).
        let stored = try StoreTestData.sqlite3(
            rig.db, "SELECT count(*) FROM ahead_alerts WHERE alert_id = 'urn:wsw' AND in_min > 0")
        #expect(Int(stored.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= 1, "\(stored)")
        // One request for the state for the whole replay (one check_min), however many samples lie in it;
        // the samples' other state (California, near the lake) at most once too.
        let areas = rig.server.requests().filter { $0.path == "/alerts/active" && $0.query.hasPrefix("area=") }
        #expect(areas.filter { $0.query == "area=NV" }.count == 1)
        #expect(Dictionary(grouping: areas, by: \.query).values.allSatisfy { $0.count == 1 })
    }
}
