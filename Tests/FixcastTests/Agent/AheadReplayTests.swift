import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `fixcast run` with weather ahead on, through a real gpsd replaying a real drive (Reno → Lake Tahoe)
/// and the loopback server answering the multi-location form (recorded Berlin values, hours relabelled
/// to now) on its own path, so its requests are counted apart from the weather's.
@Suite(.serialized, .scratch) struct AheadReplayTests {
    static let aheadPath = "/ahead/v1/forecast"
    static let recorded = TestPaths.fixture("api/open-meteo-ahead-multi-location.json")

    @Test func readingsCarryTheForecastAheadFromOneRequestPerRefresh() async throws {
        let rig = try await AgentReplayTests.startRig(
            routes: [Self.aheadPath: [.multiLocation(Self.recorded, rebaseHours: true)]],
            env: ["FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": "$SERVER/ahead"])
        defer { rig.stop() }
        // The first 12 % of the drive: two moves of 5 km, so three readings.
        _ = try await AgentReplayTests.driveStart(rig, percent: 12)
        rig.agent.signal(SIGTERM)
        #expect(rig.agent.waitForExit(seconds: 20) == 0, "stderr: \(rig.agent.stderr)")

        let printed = AgentReplayTests.readings(rig)
        #expect(printed.count >= 3)
        let aheads = printed.compactMap { r -> JSONValue? in
            guard let a = r["ahead"], !a.isNull else { return nil }
            return a
        }
        // The drive moves from its first fix: every reading has the forecast ahead along the course.
        #expect(aheads.count == printed.count, "stderr: \(rig.agent.stderr)")
        #expect(aheads.allSatisfy { $0["basis"]?.stringValue == "course" && $0["route"]?.isNull == true })
        #expect(aheads.allSatisfy { ($0["samples"]?.arrayValue?.count ?? 0) > 0 })
        #expect(
            printed.allSatisfy { r in
                (r["errors"]?.arrayValue ?? []).allSatisfy { $0["component"]?.stringValue != "ahead" }
            })
        // The whole replay is well inside ahead.refresh_min: one refresh, so one request, and every
        // reading carries that one forecast; the request held every sample's location.
        let requests = rig.server.requests().filter { $0.path == Self.aheadPath }
        #expect(requests.count == 1)
        #expect(Set(aheads.compactMap { $0["made_at"]?.stringValue }).count == 1)
        let lats = requests.first?.query.split(separator: "&").first { $0.hasPrefix("latitude=") }?.split(
            separator: ",")
        #expect(lats?.count == aheads.first?["samples"]?.arrayValue?.count)
    }

    /// The same drive with its own route (the demo's, made from this drive's NMEA): the samples
    /// follow what remains of the route.
    @Test func withItsRouteTheSamplesFollowTheRoute() async throws {
        let route = TestPaths.repoRoot.appendingPathComponent("demo/reno_tahoe_route.gpx").path
        let rig = try await AgentReplayTests.startRig(
            routes: [Self.aheadPath: [.multiLocation(Self.recorded, rebaseHours: true)]],
            env: ["FIXCAST_AHEAD_ENABLED": "true", "FIXCAST_AHEAD_BASE_URL": "$SERVER/ahead"],
            arguments: ["--route", route])
        defer { rig.stop() }
        let lines = try String(contentsOfFile: AgentReplayTests.track, encoding: .utf8).split(separator: "\n").map(
            String.init)
        // The startup reading's samples are what is checked: the drive's first epochs are enough.
        AgentReplayTests.feed(rig, lines: lines[0..<6], pause: 0.01)
        #expect(rig.agent.waitForLines(1, seconds: 30), "a startup reading; stderr: \(rig.agent.stderr)")
        rig.agent.signal(SIGTERM)
        #expect(rig.agent.waitForExit(seconds: 20) == 0, "stderr: \(rig.agent.stderr)")
        let aheads = AgentReplayTests.readings(rig).compactMap { r -> JSONValue? in
            guard let a = r["ahead"], !a.isNull else { return nil }
            return a
        }
        let first = try #require(aheads.first)
        #expect(first["basis"]?.stringValue == "route" && first["off_route"]?.boolValue == false)
        #expect(first["route"]?["name"]?.stringValue == "Reno - Lake Tahoe (demo drive)")
        let remaining = try #require(first["route"]?["remaining_km"]?.doubleValue)
        // Samples along what remains: none beyond the route's end, each further along than the last.
        let km = first["samples"]?.arrayValue?.compactMap { $0["distance_km"]?.doubleValue } ?? []
        #expect(
            !km.isEmpty && zip(km, km.dropFirst()).allSatisfy { $0 < $1 } && (km.last ?? .infinity) <= remaining + 0.1)
        #expect(rig.server.requests().filter { $0.path == Self.aheadPath }.count == 1)
    }
}
