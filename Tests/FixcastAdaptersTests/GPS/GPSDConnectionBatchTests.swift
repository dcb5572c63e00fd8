import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Reports left to gather in gpsd's socket and read together (`ReportGathering`) keep the moments they
/// came (`BatchArrival`), through a real gpsd: crafted NMEA at 4 Hz, fed in real time, read at once.
@Suite("Fixes read together keep their arrival times", .serialized, .scratch)
struct GPSDConnectionBatchTests {
    static let intervalS = 0.25

    /// Connects a `GPSDConnection` beside a synced watcher, lets it read what gpsd sent so far, feeds
    /// `count` epochs `apartS` apart in receiver time with `pause` between them, waits for the
    /// watcher to see the last, then reads the connection once. The fixes, and when that read began
    /// and ended.
    static func readTogether(count: Int, apartS: Double = intervalS, pause: Double) async throws -> (
        fixes: [Fix], before: Date, after: Date
    ) {
        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        guard let connection = rig.openConnection() else { return ([], Date(), Date()) }
        defer { connection.close() }
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 30).rounded(.down))
        var events: [GPSEvent] = []
        try await rig.warmUp(
            connection, before: start, lat: 52.5199, lon: 13.405, into: &events,
            at: MonotonicInstant(seconds: Syscall.monotonicSeconds()))

        let epochs = (0..<count).map {
            NMEAWriter.Epoch(
                lat: 52.52 + Double($0) * 0.0001, lon: 13.405, time: start.addingTimeInterval(Double($0) * apartS))
        }
        for epoch in epochs {
            for line in NMEAWriter.log([epoch]) { rig.gpsd.write(line) }
            try await Task.sleep(for: .seconds(pause))
        }
        let last = epochs[count - 1].time
        #expect(await rig.recorder.wait { $0.fix?.time == last } != nil, "gpsd reported the last epoch")
        try await Task.sleep(for: .milliseconds(200))  // the same report reaches the other client

        events.removeAll()
        let before = Date()
        #expect(connection.readAvailable(into: &events))
        let after = Date()
        return (events.compactMap(\.fix), before, after)
    }

    @Test func fixesThatWaitedInTheSocketAreStampedWhenTheyCameNotWhenRead() async throws {
        let (fixes, before, after) = try await Self.readTogether(count: 6, pause: Self.intervalS)
        #expect(fixes.count >= 4, "one read brought the epochs that waited: \(fixes.count)")
        let lastFix = try #require(fixes.last)
        #expect(lastFix.receivedAt >= before && lastFix.receivedAt <= after, "the newest came at the read")
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            let receiver = try #require(b.time).timeIntervalSince(try #require(a.time))
            #expect(abs(b.receivedAt.timeIntervalSince(a.receivedAt) - receiver) < 1e-3, "apart as the receiver says")
        }
        let first = try #require(fixes.first)
        #expect(after.timeIntervalSince(first.receivedAt) >= Double(fixes.count - 1) * Self.intervalS - 1e-3)
    }

    @Test func reportsDroppedAfterASuspendAreNeverReadAndWhatFollowsIsStampedFromNow() async throws {
        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        guard let connection = rig.openConnection() else { return }
        defer { connection.close() }
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 30).rounded(.down))
        let epochs = (0..<5).map {
            NMEAWriter.Epoch(lat: 52.52 + Double($0) * 0.0001, lon: 13.405, time: start.addingTimeInterval(Double($0)))
        }
        for epoch in epochs[..<4] {
            for line in NMEAWriter.log([epoch]) { rig.gpsd.write(line) }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await rig.recorder.wait { $0.fix?.time == epochs[3].time } != nil)
        try await Task.sleep(for: .milliseconds(200))
        #expect(connection.hasWaitingReport, "the epochs wait unread")
        #expect(connection.discardWaiting())
        #expect(!connection.hasWaitingReport, "and are gone")

        for line in NMEAWriter.log([epochs[4]]) { rig.gpsd.write(line) }
        #expect(await rig.recorder.wait { $0.fix?.time == epochs[4].time } != nil)
        try await Task.sleep(for: .milliseconds(200))
        var events: [GPSEvent] = []
        let before = Date()
        #expect(connection.readAvailable(into: &events))
        let after = Date()
        let fixes = events.compactMap(\.fix)
        #expect(fixes.map(\.time) == [epochs[4].time], "only what came after the drop")
        #expect(fixes.allSatisfy { $0.receivedAt >= before && $0.receivedAt <= after })
    }

    @Test func fixesFedFasterThanTheirTimesAreAllStampedWithTheRead() async throws {
        // Six epochs a second apart in receiver time, fed within a few milliseconds (a log replayed
        // fast): the receiver's times cannot be when they came, so none is backdated.
        let (fixes, before, after) = try await Self.readTogether(count: 6, apartS: 1, pause: 0.002)
        #expect(fixes.count >= 2)
        for fix in fixes { #expect(fix.receivedAt >= before && fix.receivedAt <= after) }
    }
}
