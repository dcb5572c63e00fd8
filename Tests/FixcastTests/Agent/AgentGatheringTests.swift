import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `fixcast run --json` with a 1 Hz receiver: with no one watching, it reads gpsd every 10 s
/// (`ReportGathering`), and yet a manual reading acts on the newest fix, the stop keeps every fix in
/// the track, and each track point keeps the second it came (`BatchArrival`).
@Suite(.serialized, .scratch) struct AgentGatheringTests {
    @Test func aHeadlessAgentReadsInBatchesButActsOnTheNewestFixAndKeepsEveryOne() async throws {
        let rig = try await AgentReplayTests.startRig()
        defer { rig.stop() }
        let (gpsd, agent, recorder, db) = (rig.gpsd, rig.agent, rig.recorder, rig.db)

        // A walk north at 1 Hz, 100 m an epoch (every fix a track point), in real time.
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 30)
        let epochs = (0..<6).map {
            NMEAWriter.Epoch(lat: 52.52 + Double($0) * 0.0009, lon: 13.405, time: start.addingTimeInterval(Double($0)))
        }
        func feed(_ epoch: NMEAWriter.Epoch) async throws {
            for line in NMEAWriter.log([epoch]) { gpsd.write(line) }
            // (By position: gpsd's first fix comes from GGA alone, without the date RMC gives it.)
            #expect(await recorder.wait { $0.fix.map { abs($0.coordinate.lat - epoch.lat) < 1e-6 } ?? false } != nil)
        }
        try await feed(epochs[0])
        #expect(agent.waitForLines(1, seconds: 30), "the startup reading at the first fix; stderr: \(agent.stderr)")
        for epoch in epochs[1...] {
            try await Task.sleep(for: .seconds(1))
            try await feed(epoch)
        }
        try await Task.sleep(for: .milliseconds(100))

        // Within the 10 s window that the second fix opened: SIGUSR1 reads what waits, then asks.
        agent.signal(SIGUSR1)
        #expect(agent.waitForLines(2, seconds: 20), "a manual reading; stderr: \(agent.stderr)")
        let lines = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        let manual = try #require(lines.last)
        #expect(manual["trigger"]?.stringValue == "manual")
        let lat = try #require(manual["position"]?["lat"]?.doubleValue)
        #expect(abs(lat - epochs[5].lat) < 1e-6, "the newest fix, not the one the window began with: \(lat)")

        agent.signal(SIGTERM)
        #expect(agent.waitForExit(seconds: 20) == 0, "stderr: \(agent.stderr)")
        let store = try SQLiteStore(path: db)
        var points: [Fix] = []
        try await store.forEachTrackPoint(since: nil, until: nil, by: .received) { points.append($0) }
        #expect(
            points.map(\.coordinate.lat).map { ($0 * 10_000).rounded() } == epochs.map { ($0.lat * 10_000).rounded() },
            "every fix is in the track")
        #expect(points.dropFirst().map(\.time) == epochs.dropFirst().map(\.time))
        // Epochs 2-5 were read together, yet keep a second between them as they came (not one time for
        // the lot); each point comes after the one before.
        for (a, b) in zip(points.dropFirst(2), points.dropFirst(3)) {
            let apart = b.receivedAt.timeIntervalSince(a.receivedAt)
            #expect(abs(apart - 1) < 0.01, "track times a second apart: \(apart)")
        }
        for (a, b) in zip(points, points.dropFirst()) { #expect(b.receivedAt > a.receivedAt) }
    }
}
