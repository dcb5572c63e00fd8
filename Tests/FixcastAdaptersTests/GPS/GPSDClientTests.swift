import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The gpsd client against a real gpsd (gpsd on a pty of the test's own, or gpsfake), replaying real receiver logs.
@Suite("GPSDClient against a real gpsd", .serialized, .scratch)
struct GPSDClientTests {
    @Test("a log that acquires its fix late: the first fix is the log's first usable fixed position")
    func firstFixAfterLateAcquisition() async throws {
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/haicom-305N.log"))
        // The log is from 2007: its first fixes are held until 3 agree (FixPlausibility's time rule).
        let expected = try #require(NMEAReference.firstUsedPositionOfAnOldLog(in: log.lines))
        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        let (gpsd, recorder) = (rig.gpsd, rig.recorder)
        let primed = recorder.events.count
        let feeding = feedInBackground(gpsd, log)
        defer { feeding.cancel() }

        let event = await recorder.wait { $0.fix != nil }
        let fix = try #require(event?.fix)
        #expect(abs(fix.coordinate.lat - expected.lat) < 1e-5)
        #expect(abs(fix.coordinate.lon - expected.lon) < 1e-5)
        #expect(fix.time != nil)
        let events = recorder.events
        let firstFixIndex = try #require(events.firstIndex { $0.fix != nil })
        #expect(events[primed..<firstFixIndex].contains(.noFix), "the log starts without a fix")
        #expect(events[..<firstFixIndex].contains(.device(gpsd.slavePath)))

        // Fixes keep coming, never two with the same receiver time.
        await feeding.value
        _ = await recorder.wait(after: firstFixIndex + 1) { $0.fix != nil }
        let times = recorder.events.compactMap { $0.fix?.time }
        #expect(times.count > 1)
        #expect(Set(times).count == times.count)
    }

    @Test("a receiver that gives its first fix before any date: the fix comes with no time, never a made-up one")
    func fixWithoutDate() async throws {
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/telit-he910.log"))
        let expected = try #require(NMEAReference.firstFixedPosition(in: log.lines))
        let firstFixLine = try #require(log.lines.firstIndex { NMEAReference.firstFixedPosition(in: [$0]) != nil })
        // Independently of gpsd: no RMC date and no ZDA anywhere up to that fix.
        let datedBefore = log.lines[...firstFixLine].contains { NMEAReference.carriesDate($0) }
        #expect(!datedBefore)

        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        let (gpsd, recorder) = (rig.gpsd, rig.recorder)
        let feeding = feedInBackground(gpsd, log, pause: 0.001)
        defer { feeding.cancel() }
        let fix = try #require(await recorder.wait(seconds: 30) { $0.fix != nil }?.fix)
        #expect(abs(fix.coordinate.lat - expected.lat) < 1e-5)
        #expect(abs(fix.coordinate.lon - expected.lon) < 1e-5)
        #expect(fix.time == nil)
    }

    @Test("a binary protocol log (u-blox UBX) gives fixes where its header says it was recorded")
    func binaryUBXLog() async throws {
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/ublox-neo-m8n.log"))
        #expect(!log.isText)
        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        let (gpsd, recorder) = (rig.gpsd, rig.recorder)
        let feeding = feedRepeatedly(gpsd, log)
        defer { feeding.cancel() }
        let fix = try #require(await recorder.wait(seconds: 30) { $0.fix != nil }?.fix)
        // Header: "Location: Adelaide, SA, Australia, 34.9285S 138.6007E".
        let adelaide = try #require(Coordinate(lat: -34.9285, lon: 138.6007))
        #expect(GreatCircle.distanceKm(fix.coordinate, adelaide) < 20)
        #expect(fix.mode == .threeD)
    }

    @Test("a binary protocol log (SiRF) replayed by gpsfake gives fixes near Adelboden")
    func binarySiRFLogThroughGPSFake() async throws {
        let fake = try GPSFake(log: TestPaths.fixture("gpsd/bu303-moving.log"))
        defer { fake.stop() }
        let client = GPSDClient(address: try GPSDAddress(parsing: "127.0.0.1:\(fake.port)"))
        let recorder = EventRecorder(client)
        client.start()
        defer { client.stop() }
        let fix = try #require(await recorder.wait(seconds: 30) { $0.fix != nil }?.fix)
        // Header: "Location: Adelboden, Bern, Switzerland, 46N7E".
        #expect((46.0..<47.0).contains(fix.coordinate.lat))
        #expect((7.0..<8.0).contains(fix.coordinate.lon))
    }

    @Test("gpsd killed and started again: the client reconnects and reads fixes again by itself")
    func reconnectsAfterRestart() async throws {
        let log = try ReceiverLog(path: TestPaths.fixture("gpsd/haicom-305N.log"))
        let rig = try await WatchedGPSD.start(backoff: ReconnectBackoff(initialS: 0.5, maximumS: 2))
        defer { rig.stop() }
        let (gpsd, recorder) = (rig.gpsd, rig.recorder)
        gpsd.feed(log)
        #expect(await recorder.wait { $0.fix != nil } != nil)

        gpsd.killGPSD()
        let lostAt = recorder.events.count
        let lost = await recorder.wait(after: lostAt) { $0.disconnection != nil }
        #expect(lost?.disconnection == .connectionLost(address: "127.0.0.1:\(gpsd.port)"))

        try gpsd.startGPSD()
        let back = recorder.events.count
        #expect(await recorder.wait(after: back) { $0.isConnected } != nil)
        #expect(gpsd.waitForClient())
        let resumedAt = recorder.events.count
        let feeding = feedInBackground(gpsd, log)
        defer { feeding.cancel() }
        #expect(await recorder.wait(after: resumedAt) { $0.fix != nil } != nil)
    }

    @Test("nothing listening: unreachable, named with the address, and retried")
    func unreachable() async throws {
        let port = freeLoopbackPort()
        let client = GPSDClient(
            address: try GPSDAddress(parsing: "127.0.0.1:\(port)"),
            backoff: ReconnectBackoff(initialS: 0.1, maximumS: 0.2))
        let recorder = EventRecorder(client)
        client.start()
        defer { client.stop() }
        let first = await recorder.wait { $0.disconnection != nil }
        #expect(
            first?.disconnection?.message
                == "gps: gpsd at 127.0.0.1:\(port) is not answering; start gpsd (systemctl start gpsd) or pass --at LAT,LON."
        )
        // It keeps trying (a second failed attempt), as a daemon must.
        #expect(await recorder.wait(after: recorder.events.count) { $0.disconnection != nil } != nil)
    }

    @Test("stop() ends the event stream promptly, also while connected")
    func stopEndsStream() async throws {
        let gpsd = try GPSDOnPTY()
        defer { gpsd.stop() }
        let client = GPSDClient(address: try GPSDAddress(parsing: "127.0.0.1:\(gpsd.port)"))
        let recorder = EventRecorder(client)
        client.start()
        #expect(await recorder.wait { $0.isConnected } != nil)
        client.stop()
        #expect(await recorder.waitForEnd())
        // The reader thread closes its connection after noticing the stop.
        var closed = false
        for _ in 0..<100 where !closed {
            closed = establishedConnections(toPort: gpsd.port) == 0
            if !closed { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(closed)
    }

    @Test("a fast receiver: every fix in order, none lost, none twice")
    func fastReceiverFixesComeInOrder() async throws {
        // 400 epochs of the real drive (RMC + GGA each) at 2 ms a line: about 250 fixes a second.
        let lines = Array(try ReceiverLog(path: TestPaths.fixture("tracks/reno_tahoe_gga_rmc.nmea")).lines.prefix(800))
        // The 2005 log is held until 3 fixes agree (FixPlausibility's time rule): the first two never come.
        let expected = Array(NMEAReference.fixedRMCTimes(in: lines).dropFirst(FixPlausibility.agreeingFixes - 1))
        #expect(expected.count >= 350)
        let rig = try await WatchedGPSD.start()
        defer { rig.stop() }
        let (gpsd, recorder) = (rig.gpsd, rig.recorder)
        let primedBatches = recorder.batches.count
        for line in lines {
            gpsd.write(Array((line + "\r\n").utf8))
            try await Task.sleep(for: .milliseconds(2))
        }
        var fixes = 0
        for _ in 0..<400 where fixes < expected.count {
            try await Task.sleep(for: .milliseconds(50))
            fixes = recorder.events.count { $0.fix != nil }
        }

        // Every fix gpsd made of the log, in order, none twice, none lost. (gpsd moves this 2005 log's
        // dates on by 1024 GPS weeks, so compare each fix's time from the first.)
        let times = recorder.events.compactMap { $0.fix?.time }
        let offsets = times.map { $0.timeIntervalSince(times[0]) }
        let expectedOffsets = expected.map { $0.timeIntervalSince(expected[0]) }
        #expect(times.count == expected.count)
        #expect(offsets == expectedOffsets, "fix times differ from the log's")
        // Each read hands over what the socket held: never more batches with fixes than fixes.
        let batches = recorder.batches.dropFirst(primedBatches)
        let withFixes = batches.filter { $0.contains { $0.fix != nil } }
        #expect(withFixes.count <= times.count)
    }
}
