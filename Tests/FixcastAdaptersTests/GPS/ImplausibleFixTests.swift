import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Crafted NMEA through a real gpsd: fixes that are not where the receiver is never reach fixcast's
/// consumers (`FixPlausibility`), and each is counted. The logs are written by `NMEAWriter` at test
/// time with dates around the real clock, since the time rule measures against it.
@Suite("Implausible fixes through a real gpsd", .serialized, .scratch)
struct ImplausibleFixTests {
    static let berlin = (lat: 52.52, lon: 13.405)
    static let munich = (lat: 48.137, lon: 11.575)

    /// Epochs one second apart from `start`, at `places` (lat, lon), with optional receiver times.
    static func epochs(from start: Date, _ places: [(lat: Double, lon: Double, time: Date?)]) -> [NMEAWriter.Epoch] {
        places.enumerated().map { i, p in
            NMEAWriter.Epoch(lat: p.lat, lon: p.lon, time: p.time ?? start.addingTimeInterval(Double(i)))
        }
    }

    /// Starts gpsd and a watching client, feeds the epochs, and waits for the fix stamped `last`.
    static func run(_ epochs: [NMEAWriter.Epoch], waitFor last: Date) async throws -> (
        fixes: [Fix], rejected: RejectedFixCounts
    ) {
        try await run(lines: NMEAWriter.log(epochs), waitFor: last)
    }

    static func run(lines: [[UInt8]], waitFor last: Date) async throws -> (fixes: [Fix], rejected: RejectedFixCounts) {
        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        let gpsd = rig.gpsd
        let feeding = Task.detached {
            for line in lines {
                gpsd.write(line)
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { feeding.cancel() }
        let lastFix = await rig.recorder.wait { $0.fix?.time.map { abs($0.timeIntervalSince(last)) < 0.5 } ?? false }
        #expect(lastFix != nil, "the last epoch's fix arrived: \(rig.recorder.events)")
        return (rig.recorder.events.compactMap(\.fix), rig.client.rejectedFixes)
    }

    static var start: Date { Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded(.down)) }

    @Test("Berlin, then a fix at 0,0, then Berlin again: the 0,0 fix is not delivered, and it is counted")
    func nullIsland() async throws {
        let b = Self.berlin
        let start = Self.start
        var places: [(lat: Double, lon: Double, time: Date?)] = []
        for i in 0..<4 { places.append((b.lat + Double(i) * 0.0001, b.lon, nil)) }
        places.append((0, 0, nil))
        for i in 5..<9 { places.append((b.lat + Double(i) * 0.0001, b.lon, nil)) }
        let epochs = Self.epochs(from: start, places)
        let (fixes, rejected) = try await Self.run(epochs, waitFor: epochs[8].time)

        #expect(!fixes.contains { abs($0.coordinate.lat) < 1 && abs($0.coordinate.lon) < 1 }, "fixes: \(fixes)")
        #expect(fixes.contains { $0.time == epochs[5].time }, "Berlin after the 0,0 fix is delivered at once")
        #expect(rejected.nullIsland >= 1)
        #expect(rejected.jump == 0)
    }

    @Test("a jump from Berlin to Munich is held, then accepted on the third agreeing fix")
    func jumpHeldThenAccepted() async throws {
        let (b, m) = (Self.berlin, Self.munich)
        let start = Self.start
        var places: [(lat: Double, lon: Double, time: Date?)] = []
        for i in 0..<4 { places.append((b.lat + Double(i) * 0.0001, b.lon, nil)) }
        for i in 0..<5 { places.append((m.lat + Double(i) * 0.0001, m.lon, nil)) }
        let epochs = Self.epochs(from: start, places)
        let (fixes, rejected) = try await Self.run(epochs, waitFor: epochs[8].time)

        let munichFixes = fixes.filter { $0.coordinate.lat < 50 }
        let firstMunich = try #require(munichFixes.first, "fixes: \(fixes)")
        #expect(firstMunich.time == epochs[6].time, "the third Munich epoch is the first delivered")
        #expect(!fixes.contains { $0.time == epochs[4].time || $0.time == epochs[5].time })
        #expect(munichFixes.contains { $0.time == epochs[7].time }, "and Munich goes on after it")
        #expect(rejected.jump == 2)
    }

    @Test("a fix dated 1994 and one dated 10 years ahead are not delivered; the fixes around them are")
    func wrongDates() async throws {
        let b = Self.berlin
        let start = Self.start
        let year = 365.25 * 86_400
        let in1994 = Date(
            timeIntervalSince1970: 773_020_800 + start.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400))
        var places: [(lat: Double, lon: Double, time: Date?)] = []
        for i in 0..<4 { places.append((b.lat + Double(i) * 0.0001, b.lon, nil)) }
        places.append((b.lat + 0.0004, b.lon, in1994.addingTimeInterval(4)))
        places.append((b.lat + 0.0005, b.lon, start.addingTimeInterval(5 + 10 * year)))
        for i in 6..<9 { places.append((b.lat + Double(i) * 0.0001, b.lon, nil)) }
        let epochs = Self.epochs(from: start, places)
        let (fixes, rejected) = try await Self.run(epochs, waitFor: epochs[8].time)

        let now = Date()
        // gpsd's first fix has no time (a GGA before any date); every dated one must be near the clock.
        for fix in fixes {
            guard let t = fix.time else { continue }
            #expect(abs(t.timeIntervalSince(now)) < 86_400, "a fix dated \(t) was delivered")
        }
        #expect(fixes.contains { $0.time == epochs[3].time })
        #expect(fixes.contains { $0.time == epochs[6].time })
        #expect(rejected.time >= 2, "rejected: \(rejected)")
    }

    // The committed logs (Fixtures/gpsd/hostile-*.log, written by make_hostile_logs.py) are dated
    // 2026-11-30 12:00 UTC. Replayed on another day they are an old log (the first fixes are held
    // until 3 agree); the hostile epochs must be dropped either way.
    static let logStart = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-30T12:00:00Z

    static func replay(_ name: String) async throws -> (fixes: [Fix], rejected: RejectedFixCounts) {
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/\(name)"))
        return try await run(lines: log.chunks, waitFor: logStart.addingTimeInterval(9))
    }

    @Test("the committed logs replayed: no 0,0 fix, no early Munich fix, no fix dated 1994 or 2036")
    func committedLogs() async throws {
        let null = try await Self.replay("hostile-null-island.log")
        #expect(!null.fixes.contains { abs($0.coordinate.lat) < 1 && abs($0.coordinate.lon) < 1 })
        #expect(null.rejected.nullIsland >= 1)
        #expect(null.fixes.contains { $0.time == Self.logStart.addingTimeInterval(6) })

        let jump = try await Self.replay("hostile-jump.log")
        let munich = jump.fixes.filter { $0.coordinate.lat < 50 }
        #expect(munich.first?.time == Self.logStart.addingTimeInterval(7), "the third Munich epoch: \(munich)")
        #expect(jump.rejected.jump == 2)

        let dates = try await Self.replay("hostile-dates.log")
        for fix in dates.fixes {
            guard let t = fix.time else { continue }
            #expect(abs(t.timeIntervalSince(Self.logStart)) < 60, "a fix dated \(t) was delivered")
        }
        #expect(dates.fixes.contains { $0.time == Self.logStart.addingTimeInterval(7) })
        #expect(dates.rejected.time >= 2)
    }
}
