import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `fixcast run` end to end: a real 137 km drive (a Garmin receiver's own NMEA, Reno → Lake Tahoe)
/// through a real gpsd, weather from a loopback server of a recorded Open-Meteo response, a real
/// SQLite file. What the agent did is checked against what the log itself says.
@Suite(.serialized, .scratch) struct AgentReplayTests {
    static let track = TestPaths.fixture("tracks/reno_tahoe_gga_rmc.nmea")

    /// The fixes of these lines of the drive, read straight from the NMEA (GGA with a fix),
    /// independently of gpsd and fixcast.
    static func trackFixes(_ lines: ArraySlice<String>) -> [Coordinate] {
        lines.compactMap { line -> Coordinate? in
            guard let star = line.firstIndex(of: "*") else { return nil }
            let f = line[..<star].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.first == "$GPGGA", f.count > 7, let q = Int(f[6]), q > 0, let used = Int(f[7]), used > 0,
                let lat = NMEAReference.degrees(f[2], f[3]), let lon = NMEAReference.degrees(f[4], f[5])
            else { return nil }
            return Coordinate(lat: lat, lon: lon)
        }
    }

    /// The rules of DESIGN.md §2-3, applied to the log: a reading when more than 5 km from where the
    /// weather was last fetched; a reading within 5 km of an earlier fetch is served from the cache
    /// (all of them are inside 10 minutes here) and then measures from that fetch point.
    static func expectedMovedReadings(fixes: [Coordinate], from start: Int) -> (moved: Int, fetches: Int) {
        var anchor = fixes[start]
        var fetchPoints = [fixes[start]]
        var moved = 0
        for f in fixes[(start + 1)...] where GreatCircle.distanceKm(anchor, f) > 5 {
            moved += 1
            if let hit = fetchPoints.last(where: { GreatCircle.distanceKm($0, f) <= 5 }) {
                anchor = hit
            } else {
                fetchPoints.append(f)
                anchor = f
            }
        }
        return (moved, fetchPoints.count)
    }

    struct Rig: @unchecked Sendable {
        let gpsd: GPSDOnPTY
        let server: FixtureServer
        let agent: RunningFixcast
        let observer: GPSDClient
        /// The observer's events (what gpsd sent), to wait for a fed epoch.
        let recorder: EventRecorder
        let db: String
        let home: URL

        func stop() {
            observer.stop()
            gpsd.stop()
            server.stop()
        }
    }

    /// gpsd on a pty, the loopback weather server, `fixcast run --json` on both (offline places), and an
    /// observer client synced to gpsd's stream.
    /// `routes` and `env` add to the weather's (weather ahead's tests: its own path on the server).
    static func startRig(
        routes: [String: [FixtureResponse]] = [:], env: [String: String] = [:], arguments: [String] = []
    ) async throws -> Rig {
        let home = TestPaths.temporaryDirectory("agent-replay")
        let gpsd = try GPSDOnPTY()
        let server = try FixtureServer(
            routes: ["/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-forecast.json"))]].merging(routes) {
                $1
            })
        let db = home.appendingPathComponent("fixcast.sqlite").path
        let agent = try RunningFixcast(
            ["run", "--json", "--gpsd", "127.0.0.1:\(gpsd.port)", "--db", db] + arguments,
            env: ["FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline"].merging(
                env.map { ($0.key, $0.value.replacing("$SERVER", with: server.baseURL)) }
            ) { $1 }, home: home)
        let observer = GPSDClient(
            address: try GPSDAddress(host: "127.0.0.1", port: Int(gpsd.port)), clock: SystemClock())
        observer.start()
        let recorder = EventRecorder(observer)
        #expect(gpsd.waitForClient(count: 2, seconds: 20), "fixcast run and the observer connect to gpsd")
        #expect(await primeUntilSynced(gpsd, observer: recorder))
        return Rig(gpsd: gpsd, server: server, agent: agent, observer: observer, recorder: recorder, db: db, home: home)
    }

    /// Writes the lines with a pause after each; stops early when the calling task is cancelled (a feed
    /// left running after its test would hold a thread of the test process's small pool and starve the
    /// next test).
    static func feed(_ rig: Rig, lines: ArraySlice<String>, pause: Double) {
        for line in lines where !Task.isCancelled {
            rig.gpsd.write(Array((line + "\r\n").utf8))
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        }
    }

    /// Drives the first `percent` % of the drive as every replay here does: its first epochs, then a
    /// wait for the startup reading (the car stands until it is taken), then the rest with 10 ms after
    /// each line, and 2 s for the last readings to finish. Returns the lines fed.
    static func driveStart(_ rig: Rig, percent: Int) async throws -> ArraySlice<String> {
        let lines = try String(contentsOfFile: track, encoding: .utf8).split(separator: "\n").map(String.init)
        let fed = lines[..<(lines.count * percent / 100)]
        feed(rig, lines: fed[0..<6], pause: 0.01)
        #expect(rig.agent.waitForLines(1, seconds: 30), "a startup reading; stderr: \(rig.agent.stderr)")
        feed(rig, lines: fed[6...], pause: 0.01)
        try await Task.sleep(for: .seconds(2))
        return fed
    }

    static func readings(_ rig: Rig) -> [JSONValue] {
        rig.agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
    }

    @Test func replayedDriveTriggersStoresAndAnswersSignals() async throws {
        let rig = try await Self.startRig()
        defer { rig.stop() }
        // The first 32 % of the drive (five moves of 5 km; the rule itself is ReadingScheduler's, tested
        // in virtual time), at 50 epochs a second: 2 km of road a second, so one of the GPS client's
        // one-second batches never spans the 5 km between two readings. (The count below assumes each
        // crossing is seen on its own; a feed of 10 km a second would arrive batched, as no real
        // receiver's fixes ever do.)
        let fed = try await Self.driveStart(rig, percent: 32)

        var printed = Self.readings(rig)
        let startup = try #require(printed.first)
        #expect(startup["trigger"]?.stringValue == "startup")
        #expect(startup["position"]?["source"]?.stringValue == "gps")
        #expect(startup["place"]?["source"]?.stringValue == "offline")
        #expect(startup["weather"]?["provider"]?.stringValue == "open-meteo")

        // moved readings: as many as the log itself says.
        let fixes = Self.trackFixes(fed)
        let lat = try #require(startup["position"]?["lat"]?.doubleValue)
        let lon = try #require(startup["position"]?["lon"]?.doubleValue)
        let start = try #require(fixes.firstIndex { abs($0.lat - lat) < 1e-6 && abs($0.lon - lon) < 1e-6 })
        let expected = Self.expectedMovedReadings(fixes: fixes, from: start)
        let triggers = printed.compactMap { $0["trigger"]?.stringValue }
        #expect(expected.moved >= 5, "the drive moves far: \(expected.moved)")
        #expect(triggers.filter { $0 == "moved" }.count == expected.moved)
        #expect(triggers.filter { $0 == "startup" }.count == 1, "exactly one load at start")

        // One request per reading not served from the cache: no duplicates.
        let fresh = printed.filter { $0["weather"]?["cached"]?.boolValue == false }.count
        #expect(rig.server.requestCount(path: "/v1/forecast") == fresh)
        #expect(fresh == expected.fetches)

        // SIGUSR1: one manual reading, forced.
        let before = printed.count
        rig.agent.signal(SIGUSR1)
        #expect(rig.agent.waitForLines(before + 1, seconds: 20))
        try await Task.sleep(for: .milliseconds(500))
        printed = Self.readings(rig)
        #expect(printed.count == before + 1)
        #expect(printed.last?["trigger"]?.stringValue == "manual")

        // SIGTERM: exit 0 with everything committed.
        rig.agent.signal(SIGTERM)
        #expect(rig.agent.waitForExit(seconds: 20) == 0, "stderr: \(rig.agent.stderr)")
        let store = try SQLiteStore(path: rig.db)
        #expect(try await store.readingCount() == printed.count)
        var storedTimes: [String] = []
        try await store.forEachReading(since: nil, until: nil) {
            storedTimes.append(UTCTime.format($0.time) + $0.trigger.rawValue)
        }
        #expect(
            storedTimes
                == printed.compactMap { r in r["time"]?.stringValue.map { $0 + (r["trigger"]?.stringValue ?? "") } })

        // The thinned track: some points, far fewer than fixes, each ≥ 10 s or ≥ 50 m from the one before.
        var points: [Fix] = []
        try await store.forEachTrackPoint(since: nil, until: nil, by: .received) { points.append($0) }
        #expect(points.count > 50)
        #expect(points.count < fixes.count)
        for (a, b) in zip(points, points.dropFirst()) {
            let farEnough = GreatCircle.distanceM(a.coordinate, b.coordinate) >= 50
            let longEnough = b.receivedAt.timeIntervalSince(a.receivedAt) >= 10
            #expect(farEnough || longEnough)
        }
        #expect(try await store.integrityCheck())
    }

    @Test func killNineMidReplayLeavesAGoodStore() async throws {
        let rig = try await Self.startRig()
        defer { rig.stop() }
        let lines = try String(contentsOfFile: Self.track, encoding: .utf8).split(separator: "\n").map(String.init)
        Self.feed(rig, lines: lines[0..<6], pause: 0.01)
        #expect(rig.agent.waitForLines(1, seconds: 30))
        let feeder = Task.detached { Self.feed(rig, lines: lines[6...], pause: 0.002) }
        #expect(rig.agent.waitForLines(4, seconds: 60))
        rig.agent.signal(SIGKILL)
        _ = rig.agent.waitForExit(seconds: 10)
        feeder.cancel()
        await feeder.value
        let printed = Self.readings(rig)
        let store = try SQLiteStore(path: rig.db)
        #expect(try await store.integrityCheck())
        var stored: [String] = []
        try await store.forEachReading(since: nil, until: nil) {
            stored.append(UTCTime.format($0.time) + $0.trigger.rawValue)
        }
        for r in printed {
            let key = (r["time"]?.stringValue ?? "") + (r["trigger"]?.stringValue ?? "")
            #expect(stored.contains(key), "printed before the kill, so committed: \(key)")
        }
    }
}
