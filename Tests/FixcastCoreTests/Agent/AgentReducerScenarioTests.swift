import FixcastCore
import FoundationEssentials
import Testing

/// Whole stories through the agent's reducer: dates advanced by hand, no thread, no sleep; every
/// answer compared with the exact effects.
@Suite struct AgentReducerScenarioTests {
    typealias F = PolicyFixture
    typealias A = AgentFixture

    @Test func aDriveWithATunnelAndALostFix() {
        var r = A.reducer()
        #expect(r.handle(.started(at: F.at(0), sleepOffsetS: 0)) == [.connectGPS])
        #expect(r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1))) == [])
        #expect(r.handle(.gps(.device("/dev/ttyACM0"), at: F.at(0.2))) == [])

        // The first fix: the startup reading, the first track point, the first last-known save.
        let f1 = A.fix(F.berlin, at: 1)
        let p1 = A.position(f1)
        #expect(
            r.handle(.gps(.fix(f1), at: F.at(1)))
                == [
                    .takeReading(ReadingRequest(trigger: .startup, position: p1, forced: false)),
                    .recordTrackPoint(f1), .saveLastKnown(p1), .redraw,
                ])
        #expect(r.status.gps == .fixing)
        #expect(r.status.updating)
        // A reading in flight: nothing timed until it ends but the kept track's write, 5 s on.
        #expect(r.nextDeadline == F.at(6))
        let startup = A.reading(.startup, at: p1, time: 2)
        #expect(r.handle(.readingFinished(startup, at: F.at(2))) == [.printReading(startup), .redraw])
        #expect(r.handle(.deadline(at: F.at(6))) == [.writeTrack])
        #expect(r.nextDeadline == F.at(1 + 1800))

        // Driving north; 3 km is no move yet.
        let f2 = A.fix(F.north(km: 3), at: 100)
        let p2 = A.position(f2)
        #expect(r.handle(.gps(.fix(f2), at: F.at(100))) == [.recordTrackPoint(f2), .saveLastKnown(p2), .redraw])

        // The tunnel: the fix is lost; repeated reports change nothing.
        // (A turn the loop takes anyway, 20 s after the point at 100 s was kept: its write goes now.)
        #expect(r.handle(.gps(.noFix, at: F.at(120))) == [.writeTrack, .redraw])
        #expect(r.status.gps == .lost(since: F.at(120)))
        #expect(r.status.fixLostSince == F.at(120))
        #expect(r.status.position == p2)
        #expect(r.status.problems == [])  // a lost fix shows on the position line, not the status line
        #expect(r.handle(.gps(.noFix, at: F.at(130))) == [])

        // Still in the tunnel when the period is up: a periodic reading at the last position, saying so.
        #expect(r.nextDeadline == F.at(1801))
        #expect(r.handle(.deadline(at: F.at(1800))) == [])
        let note = ReadingIssue(
            component: .gps,
            message:
                "gps: no fix since 2027-01-15T08:02:00Z; using the last known position from 2027-01-15T08:01:40Z, 28 min old."
        )
        #expect(
            r.handle(.deadline(at: F.at(1801)))
                == [
                    .takeReading(
                        ReadingRequest(trigger: .periodic, position: A.lastKnown(p2), forced: false, notes: [note])),
                    .redraw,
                ])
        let periodic = A.reading(.periodic, at: A.lastKnown(p2), time: 1802)
        #expect(r.handle(.readingFinished(periodic, at: F.at(1802))) == [.printReading(periodic), .redraw])

        // Out of the tunnel, 6 km on from where the weather was fetched: a move, live again.
        let f3 = A.fix(F.north(km: 9), at: 1900)
        let p3 = A.position(f3)
        #expect(
            r.handle(.gps(.fix(f3), at: F.at(1900)))
                == [
                    .takeReading(ReadingRequest(trigger: .moved, position: p3, forced: false)),
                    .recordTrackPoint(f3), .saveLastKnown(p3), .redraw,
                ])
        #expect(r.status.gps == .fixing)
        #expect(r.status.fixLostSince == nil)
    }

    @Test func gpsdRestarting() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.1)))
        let f1 = A.fix(F.berlin, at: 1)
        _ = r.handle(.gps(.fix(f1), at: F.at(1)))
        _ = r.handle(.readingFinished(A.reading(.startup, at: A.position(f1), time: 2), at: F.at(2)))
        _ = r.handle(.deadline(at: F.at(6)))  // the track's write

        // gpsd stops: a typed problem on the status line, the fix counts as lost.
        let lost = GPSError.connectionLost(address: A.gpsd)
        #expect(
            r.handle(.gps(.disconnected(lost), at: F.at(50)))
                == [.announceHealth([HealthNotice(component: .gps, message: lost.message, isFailure: true)]), .redraw])
        #expect(r.status.gps == .problem(lost))
        #expect(r.status.problems == [ReadingIssue(lost)])
        #expect(r.status.fixLostSince == F.at(50))
        // The reconnects fail while it is down.
        let refused = GPSError.unreachable(address: A.gpsd, detail: "Connection refused")
        #expect(r.handle(.gps(.disconnected(refused), at: F.at(52))) == [.redraw])
        #expect(r.status.gps == .problem(refused))
        #expect(r.handle(.gps(.disconnected(refused), at: F.at(54))) == [])
        #expect(r.status.fixLostSince == F.at(50))

        // It is back: the problem goes; until a fix comes the fix is still lost.
        #expect(
            r.handle(.gps(.connected(address: A.gpsd), at: F.at(55)))
                == [
                    .announceHealth([
                        HealthNotice(component: .gps, message: HealthNotice.gpsdBack(address: A.gpsd), isFailure: false)
                    ]), .redraw,
                ])
        #expect(r.status.gps == .lost(since: F.at(50)))
        #expect(r.status.problems == [])
        #expect(r.handle(.gps(.device("/dev/ttyACM0"), at: F.at(55.1))) == [])
        let f2 = A.fix(F.berlin, at: 56)
        #expect(
            r.handle(.gps(.fix(f2), at: F.at(56))) == [.recordTrackPoint(f2), .saveLastKnown(A.position(f2)), .redraw])
        #expect(r.status.gps == .fixing)
        #expect(r.status.fixLostSince == nil)
    }

    @Test func aSuspend() {
        var r = A.reducer()
        // Cold start: the first sample is a baseline only, however large.
        #expect(r.handle(.started(at: F.at(0), sleepOffsetS: 5000)) == [.connectGPS])
        let f1 = A.fix(F.berlin, at: 1)
        let p1 = A.position(f1)
        #expect(A.requests(r.handle(.gps(.fix(f1), at: F.at(1)))).map(\.trigger) == [.startup])
        #expect(r.handle(.resumeSample(sleepOffsetS: 5000, at: F.at(1.5))) == [])
        _ = r.handle(.readingFinished(A.reading(.startup, at: p1, time: 2), at: F.at(2)))
        _ = r.handle(.deadline(at: F.at(6)))  // the track's write

        // A lid closed for 29 s: nothing.
        #expect(r.handle(.resumeSample(sleepOffsetS: 5029, at: F.at(100))) == [])
        // 30 s: the fix held is from before the suspend; the forced resume reading waits for the next.
        let resumed = r.handle(.resumeSample(sleepOffsetS: 5059, at: F.at(200)))
        #expect(A.requests(resumed).isEmpty)
        #expect(r.status.gps == .lost(since: F.at(170)))
        // The next sample without more sleep adds nothing.
        #expect(r.handle(.resumeSample(sleepOffsetS: 5059, at: F.at(201))) == [])
        // The first fix after the wake-up, 80 km on: the resume reading is for it.
        let f2 = A.fix(F.north(km: 80), at: 202)
        let p2 = A.position(f2)
        #expect(
            A.requests(r.handle(.gps(.fix(f2), at: F.at(202))))
                == [ReadingRequest(trigger: .resume, position: p2, forced: true)])
    }

    @Test func sigusr1DuringAnOrdinaryReadingThenDuringAForcedOne() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let f1 = A.fix(F.berlin, at: 1)
        let p1 = A.position(f1)
        _ = r.handle(.gps(.fix(f1), at: F.at(1)))  // the startup reading, ordinary, in flight

        // joinThenForce: nothing now, a forced reading the moment the ordinary one ends.
        #expect(r.handle(.manualRequest(at: F.at(1.5))) == [])
        let startup = A.reading(.startup, at: p1, time: 2)
        #expect(
            r.handle(.readingFinished(startup, at: F.at(2)))
                == [
                    .takeReading(ReadingRequest(trigger: .manual, position: p1, forced: true)), .printReading(startup),
                    .redraw,
                ])
        #expect(r.status.updating)

        // join: a second request during the forced one adds nothing, now or after.
        #expect(r.handle(.manualRequest(at: F.at(2.5))) == [])
        #expect(r.handle(.key(UInt8(ascii: "r"), at: F.at(2.6))) == [])
        let manual = A.reading(.manual, at: p1, time: 3)
        #expect(r.handle(.readingFinished(manual, at: F.at(3))) == [.printReading(manual), .redraw])
        #expect(!r.status.updating)
        #expect(r.nextDeadline == F.at(6))  // the track's write
        _ = r.handle(.deadline(at: F.at(6)))
        #expect(r.nextDeadline == F.at(2 + 1800))  // the forced reading restarted the period
    }

    @Test func aStartupWithNoFixAndAStoredPosition() {
        let stored = Position(coordinate: F.berlin, obtainedAt: F.at(-3600), source: .gps, satellitesUsed: 7)
        var r = A.reducer(lastKnown: stored)
        #expect(r.handle(.started(at: F.at(0), sleepOffsetS: 0)) == [.connectGPS])
        #expect(r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.5))) == [])
        #expect(r.handle(.gps(.noFix, at: F.at(1))) == [])
        #expect(r.status.gps == .starting)
        #expect(r.nextDeadline == F.at(8))

        // Each retry is announced on the status line; headless, the first on stderr (once).
        let waiting = "gps: no fix yet after 8 s; waiting again (retry 1 of 2)."
        #expect(
            r.handle(.deadline(at: F.at(8)))
                == [.announceHealth([HealthNotice(component: .gps, message: waiting, isFailure: true)]), .redraw])
        #expect(r.status.gps == .waitingForFix(retry: 1, of: 2, timeoutS: 8))
        #expect(r.status.problems.map(\.message) == ["gps: no fix yet after 8 s; waiting again (retry 1 of 2)."])
        #expect(r.nextDeadline == F.at(9))
        #expect(r.handle(.deadline(at: F.at(9))) == [])
        #expect(r.nextDeadline == F.at(17))
        #expect(r.handle(.deadline(at: F.at(17))) == [.redraw])
        #expect(r.status.gps == .waitingForFix(retry: 2, of: 2, timeoutS: 8))
        #expect(r.handle(.deadline(at: F.at(18))) == [])
        #expect(r.nextDeadline == F.at(26))

        // Then the startup reading at the stored position, marked last-known with its true age.
        // The one last-known note: `now`'s, naming why the wait ended (ReadingRequestTests).
        let note = ReadingIssue(
            component: .gps,
            message:
                "gps: no fix after 3 tries of 8 s; using the last known position from 2027-01-15T07:00:00Z, 60 min old."
        )
        #expect(
            r.handle(.deadline(at: F.at(26)))
                == [
                    .takeReading(
                        ReadingRequest(trigger: .startup, position: A.lastKnown(stored), forced: false, notes: [note])),
                    .redraw,
                ])
        #expect(r.status.problems == [])
        #expect(r.nextDeadline == nil)
        _ = r.handle(
            .readingFinished(A.reading(.startup, at: A.lastKnown(stored), time: 27, errors: [note]), at: F.at(27)))
        #expect(r.nextDeadline == F.at(26 + 1800))
        #expect(r.status.problems == [note])

        // The first fix, where it was stored: no move, no second reading.
        let f = A.fix(F.north(km: 1), at: 40)
        let fixes = HealthNotice(component: .gps, message: HealthNotice.fixesCome, isFailure: false)
        #expect(
            r.handle(.gps(.fix(f), at: F.at(40)))
                == [.recordTrackPoint(f), .saveLastKnown(A.position(f)), .announceHealth([fixes]), .redraw])
        // The note was the reading's, and is no longer true: the status line drops it.
        #expect(r.status.problems == [])
    }

    @Test func aStartupWithNoFixAndNothingStored() {
        var r = A.reducer(.init(fixRetries: 0))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let none = GPSStatus.noPosition.issue?.message ?? ""
        #expect(
            r.handle(.deadline(at: F.at(8)))
                == [.announceHealth([HealthNotice(component: .gps, message: none, isFailure: true)]), .redraw])
        #expect(r.status.gps == .noPosition)
        #expect(
            r.status.problems.map(\.message)
                == [
                    "gps: no fix yet and no stored position; the first fix will bring a reading (check the receiver with cgps)."
                ])
        #expect(r.nextDeadline == nil)
        let f = A.fix(F.berlin, at: 60)
        #expect(
            r.handle(.gps(.fix(f), at: F.at(60)))
                == [
                    .takeReading(ReadingRequest(trigger: .startup, position: A.position(f), forced: false)),
                    .recordTrackPoint(f), .saveLastKnown(A.position(f)),
                    .announceHealth([HealthNotice(component: .gps, message: HealthNotice.fixesCome, isFailure: false)]),
                    .redraw,
                ])
        #expect(r.status.problems == [])
    }

    @Test func aFixedPosition() {
        let here = Position.manual(F.berlin, at: F.at(0))
        var r = A.reducer(fixed: here)
        #expect(r.status.position == here)
        #expect(r.status.gps == .fixing)
        #expect(r.nextDeadline == nil)  // nothing before the loop is up
        #expect(r.handle(.deadline(at: F.at(30))) == [])
        #expect(
            r.handle(.started(at: F.at(0.1), sleepOffsetS: 100))
                == [.takeReading(ReadingRequest(trigger: .startup, position: here, forced: false)), .redraw])
        // No gpsd: whatever a stray gps event says is ignored.
        #expect(r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(0.5))) == [])
        #expect(r.handle(.gps(.fix(A.fix(F.north(km: 50), at: 0.6)), at: F.at(0.6))) == [])
        _ = r.handle(.readingFinished(A.reading(.startup, at: here, time: 1), at: F.at(1)))
        #expect(r.nextDeadline == F.at(0.1 + 1800))
        #expect(
            r.handle(.deadline(at: F.at(0.1 + 1800)))
                == [.takeReading(ReadingRequest(trigger: .periodic, position: here, forced: false)), .redraw])
        _ = r.handle(.readingFinished(A.reading(.periodic, at: here, time: 1801), at: F.at(1801)))
        #expect(
            r.handle(.resumeSample(sleepOffsetS: 200, at: F.at(2000)))
                == [.takeReading(ReadingRequest(trigger: .resume, position: here, forced: true)), .redraw])
    }

    @Test func alerts() {
        var r = A.reducer(.init(alertCheckMin: 10))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let f1 = A.fix(F.berlin, at: 1)
        let p1 = A.position(f1)
        // The first reading starts the checks.
        #expect(
            r.handle(.gps(.fix(f1), at: F.at(1)))
                == [
                    .takeReading(ReadingRequest(trigger: .startup, position: p1, forced: false)), .checkAlerts(p1),
                    .recordTrackPoint(f1), .saveLastKnown(p1), .redraw,
                ])
        #expect(r.nextDeadline == F.at(6))  // the track's write, then the alert check
        // The answer comes while the startup reading is in flight: it answers for the alert too.
        #expect(
            r.handle(.alertsChecked(activeIDs: ["a1"], at: F.at(1.5)))
                == [.announceAlerts(["a1"]), .rememberAlertsSeen(["a1"]), .redraw])
        #expect(r.status.activeAlertIDs == ["a1"])
        _ = r.handle(.readingFinished(A.reading(.startup, at: p1, time: 2), at: F.at(2)))
        #expect(r.handle(.deadline(at: F.at(6))) == [.writeTrack])
        #expect(r.nextDeadline == F.at(601))

        // Every 10 minutes a check; an id already seen here brings nothing.
        #expect(r.handle(.deadline(at: F.at(601))) == [.checkAlerts(p1)])
        #expect(r.nextDeadline == F.at(1201))
        #expect(r.handle(.alertsChecked(activeIDs: ["a1"], at: F.at(602))) == [])
        // A new one: one ordinary alert reading.
        #expect(
            r.handle(.alertsChecked(activeIDs: ["a1", "a2"], at: F.at(603)))
                == [
                    .takeReading(ReadingRequest(trigger: .alert, position: p1, forced: false)), .announceAlerts(["a2"]),
                    .rememberAlertsSeen(["a1", "a2"]), .redraw,
                ])
        _ = r.handle(.readingFinished(A.reading(.alert, at: p1, time: 604), at: F.at(604)))
        #expect(r.handle(.alertsChecked(activeIDs: ["a2", "a1"], at: F.at(605))) == [.redraw])  // same ids, new order

        // Moved 6 km under the same alerts: nothing is news (once per identity, wherever it is met).
        let f2 = A.fix(F.north(km: 6), at: 700)
        let p2 = A.position(f2)
        #expect(A.requests(r.handle(.gps(.fix(f2), at: F.at(700)))).map(\.trigger) == [.moved])
        _ = r.handle(.readingFinished(A.reading(.moved, at: p2, time: 701), at: F.at(701)))
        _ = r.handle(.deadline(at: F.at(705)))  // the track's write
        #expect(r.handle(.deadline(at: F.at(1201))) == [.checkAlerts(p2)])
        #expect(r.handle(.alertsChecked(activeIDs: ["a1", "a2"], at: F.at(1202))) == [.redraw])  // the order only
        // A check without an answer ends nothing; "a1" gone at an answered one and back at the next
        // (an NWS message that expired before its update came): not news, and still remembered.
        #expect(r.handle(.alertsChecked(activeIDs: nil, at: F.at(1203))) == [])
        #expect(r.handle(.alertsChecked(activeIDs: ["a2"], at: F.at(1204))) == [.redraw])
        #expect(r.handle(.alertsChecked(activeIDs: ["a1", "a2"], at: F.at(1205))) == [.redraw])
        // Gone for longer than an hour's checks (6 at 10 min): forgotten, and news again when back.
        #expect(r.handle(.alertsChecked(activeIDs: ["a2"], at: F.at(1206))) == [.redraw])
        for k in 1..<6 { #expect(r.handle(.alertsChecked(activeIDs: ["a2"], at: F.at(1206 + Double(k)))) == []) }
        #expect(r.handle(.alertsChecked(activeIDs: ["a2"], at: F.at(1212))) == [.rememberAlertsSeen(["a2"])])
        #expect(
            r.handle(.alertsChecked(activeIDs: ["a1", "a2"], at: F.at(1213)))
                == [
                    .takeReading(ReadingRequest(trigger: .alert, position: p2, forced: false)), .announceAlerts(["a1"]),
                    .rememberAlertsSeen(["a1", "a2"]), .redraw,
                ])
    }

    /// The ids an earlier run kept: a restart under the same alerts announces none of them.
    @Test func aRestartUnderTheSameAlertsAnnouncesNothing() {
        var configuration = AgentReducer.Configuration(alertCheckMin: 10)
        configuration.alertsSeen = ["a1"]
        var r = A.reducer(configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.fix(A.fix(F.berlin, at: 1)), at: F.at(1)))
        #expect(!r.handle(.alertsChecked(activeIDs: ["a1"], at: F.at(1.5))).contains(.announceAlerts(["a1"])))
        #expect(r.handle(.alertsChecked(activeIDs: ["a1", "a3"], at: F.at(2))).contains(.announceAlerts(["a3"])))
    }

    @Test func alertsOffNeverCheck() {
        var r = A.reducer(.init(alertCheckMin: nil))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        let f1 = A.fix(F.berlin, at: 1)
        let effects = r.handle(.gps(.fix(f1), at: F.at(1)))
        #expect(!effects.contains { if case .checkAlerts = $0 { return true } else { return false } })
        _ = r.handle(.readingFinished(A.reading(.startup, at: A.position(f1), time: 2), at: F.at(2)))
        _ = r.handle(.deadline(at: F.at(6)))  // the track's write
        #expect(r.nextDeadline == F.at(1801))
        #expect(r.handle(.alertsChecked(activeIDs: ["a1"], at: F.at(3))) == [])
        #expect(r.status.activeAlertIDs == [])
    }

    @Test(arguments: [UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x04])
    func aQuitKeyExits(key: UInt8) {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        #expect(r.handle(.key(UInt8(ascii: "x"), at: F.at(1))) == [])
        #expect(r.handle(.key(key, at: F.at(2))) == [.exit(code: 0)])
        // Once leaving, nothing more is decided.
        #expect(r.nextDeadline == nil)
        #expect(r.handle(.gps(.fix(A.fix(F.berlin, at: 3)), at: F.at(3))) == [])
        #expect(r.handle(.manualRequest(at: F.at(4))) == [])
    }

    @Test func stopRequestedExitsEvenWithAReadingInFlight() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.fix(A.fix(F.berlin, at: 1)), at: F.at(1)))
        // The reading in flight may finish for 3 s; then the agent leaves without it.
        #expect(r.handle(.stopRequested(at: F.at(1.2))) == [])
        #expect(r.handle(.stopRequested(at: F.at(1.3))) == [])
        #expect(r.handle(.deadline(at: F.at(4.2))) == [.sayReadingAbandoned, .writeTrack, .exit(code: 0)])
    }

    @Test func trackThinningAndTheLastKnownRate() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        var kept: [Double] = []
        var saved: [Double] = []
        func feed(_ c: Coordinate, at t: Double) {
            for effect in r.handle(.gps(.fix(A.fix(c, at: t)), at: F.at(t))) {
                if case .recordTrackPoint(let fix) = effect { kept.append(fix.receivedAt.timeIntervalSince(F.at(0))) }
                if case .saveLastKnown(let p) = effect { saved.append(p.obtainedAt.timeIntervalSince(F.at(0))) }
            }
        }
        // Parked, one fix a second for 25 s: a point (and a save) every 10 s.
        for t in 0...25 { feed(F.berlin, at: Double(t)) }
        #expect(kept == [0, 10, 20])
        #expect(saved == [0, 10, 20])
        // Then 20 m/s north, one fix a second: a point once 50 m from the last (every 60 m, 3 s);
        // the last-known position only with a kept point and at most every 10 s.
        kept = []
        saved = []
        for s in 1...15 { feed(F.north(km: Double(s) * 0.02), at: 25 + Double(s)) }
        #expect(kept == [28, 31, 34, 37, 40])
        #expect(saved == [31])
    }

    /// As `run` configures it (`Configuration(settings:)`): parked, a point (and a save) every 45 s,
    /// not every 10 s; moving, as before.
    @Test func standingStillTheTrackKeepsAPointEvery45s() {
        var configuration = AgentReducer.Configuration(settings: Settings(), alertCheckMin: nil)
        #expect(configuration.trackStillIntervalS == TrackThinner.standingStillIntervalS)
        configuration.liveScreen = false
        var r = A.reducer(configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        var kept: [Double] = []
        for t in 0...100 {
            for effect in r.handle(.gps(.fix(A.fix(F.berlin, at: Double(t))), at: F.at(Double(t)))) {
                if case .recordTrackPoint(let fix) = effect { kept.append(fix.receivedAt.timeIntervalSince(F.at(0))) }
            }
        }
        #expect(kept == [0, 45, 90])
        for s in 1...6 {
            for effect in r.handle(
                .gps(.fix(A.fix(F.north(km: Double(s) * 0.02), at: 100 + Double(s))), at: F.at(100 + Double(s))))
            {
                if case .recordTrackPoint(let fix) = effect { kept.append(fix.receivedAt.timeIntervalSince(F.at(0))) }
            }
        }
        // 20 m on is still standing (under 25 m); 40 m on, 12 s later, is moving: kept; then each 50 m.
        #expect(kept == [0, 45, 90, 102, 105])
    }
}
