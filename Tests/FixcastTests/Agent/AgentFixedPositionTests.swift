import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastTestSupport

/// `fixcast run --at` / `--place`: a desk or a machine without GPS. No gpsd is needed; the agent
/// takes its startup reading at the fixed position and answers SIGUSR1 and SIGTERM as it does on the road.
@Suite(.scratch) struct AgentFixedPositionTests {
    @Test func fixedPositionReadingsWithoutGpsd() async throws {
        let home = TestPaths.temporaryDirectory("agent-fixed")
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]
        ])
        defer { server.stop() }
        let unusedGpsd = freeLoopbackPort()
        let agent = try RunningFixcast(
            [
                "run", "--json", "--place", "Berlin", "--gpsd", "127.0.0.1:\(unusedGpsd)", "--db",
                home.appendingPathComponent("f.sqlite").path,
            ],
            env: ["FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline"], home: home)
        #expect(agent.waitForLines(1, seconds: 30), "stderr: \(agent.stderr)")
        agent.signal(SIGUSR1)
        #expect(agent.waitForLines(2, seconds: 20))
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0)
        let readings = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        #expect(readings.map { $0["trigger"]?.stringValue } == ["startup", "manual"])
        for r in readings {
            #expect(r["position"]?["source"]?.stringValue == "manual")
            #expect(r["place"]?["name"]?.stringValue == "Berlin")
            #expect(r["place"]?["source"]?.stringValue == "search")
            #expect(r["weather"]?["provider"]?.stringValue == "open-meteo")
        }
        // The forced reading came within the 1-minute floor: served from the store, no second request.
        #expect(readings.last?["weather"]?["cached"]?.boolValue == true)
        #expect(server.requestCount(path: "/v1/forecast") == 1)
    }

    /// A stop while the weather is still being asked: the agent waits 3 s for the reading, then leaves
    /// without it, and says so on stderr (it is not stored), where before it left saying nothing.
    @Test func aReadingLeftBehindAtTheStopIsSaid() async throws {
        let home = TestPaths.temporaryDirectory("agent-fixed")
        var slow = FixtureResponse.file(TestPaths.fixture("api/open-meteo-forecast.json"))
        slow.delay = 15
        let server = try FixtureServer(routes: ["/v1/forecast": [slow]])
        defer { server.stop() }
        let db = home.appendingPathComponent("f.sqlite").path
        let agent = try RunningFixcast(
            ["run", "--json", "--place", "Berlin", "--gpsd", "127.0.0.1:\(freeLoopbackPort())", "--db", db],
            env: ["FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline"], home: home)
        let asked = Date().addingTimeInterval(20)
        while server.requestCount(path: "/v1/forecast") == 0, Date() < asked { usleep(50_000) }
        #expect(server.requestCount(path: "/v1/forecast") == 1, "stderr: \(agent.stderr)")
        let stoppedAt = Date()
        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 10) == 0)
        #expect(Date().timeIntervalSince(stoppedAt) < 8)
        #expect(agent.stdoutLines.isEmpty)
        let said = agent.stderr.split(separator: "\n").filter { $0.contains("reading in progress") }
        #expect(said.count == 1, "stderr: \(agent.stderr)")
        #expect(said.first?.hasPrefix("fixcast run: ") == true)
        #expect(try StoreTestData.sqlite3(db, "SELECT count(*) FROM readings") == "0")
    }
}
