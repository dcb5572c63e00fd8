import FixcastCore
import FoundationEssentials
import Testing

/// The stories the agent's loop used to decide itself, told to the reducer in virtual time: how
/// gpsd's socket is read (gathering, an early end on a person's request, a suspend, gpsd lost within
/// a gather window, reconnecting), when the track goes to the store, when rejected fixes are counted,
/// when the screen is drawn, and how the agent leaves. No thread, no socket, no sleep.
@Suite struct AgentReducerLoopStoryTests {
    typealias F = PolicyFixture
    typealias A = AgentFixture

    static let noneRejected = RejectedFixCounts()

    /// One read of gpsd at `t` that brought these fixes (as the loop hands a read on).
    static func read(
        _ r: inout AgentReducer, _ fixes: [Fix], at t: Double, connected: Bool = true,
        rejected: RejectedFixCounts = noneRejected
    ) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        for fix in fixes { effects += r.handle(.gps(.fix(fix), at: F.at(t))) }
        effects += r.handle(.gpsReadEnded(connected: connected, rejectedFixes: rejected, at: F.at(t)))
        return effects
    }

    /// A reducer connected to gpsd whose startup reading (fix at 1 s) finished at 2 s.
    static func running(_ configuration: AgentReducer.Configuration = .init()) -> AgentReducer {
        var r = A.reducer(configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.5)))
        let f1 = A.fix(F.berlin, at: 1)
        _ = read(&r, [f1], at: 1)
        _ = r.handle(.readingFinished(A.reading(.startup, at: A.position(f1), time: 2), at: F.at(2)))
        return r
    }

    static func has(_ effects: [AgentEffect], _ wanted: AgentEffect) -> Bool { effects.contains(wanted) }

    @Test func theStartConnectsToGPSDAndALiveScreenIsDrawn() {
        var headless = A.reducer()
        #expect(headless.handle(.started(at: F.at(0), sleepOffsetS: 0)) == [.connectGPS])
        var live = A.reducer(.init(liveScreen: true))
        #expect(live.handle(.started(at: F.at(0), sleepOffsetS: 0)) == [.connectGPS, .redraw])
        var fixed = A.reducer(fixed: Position.manual(F.berlin, at: F.at(0)))
        #expect(!Self.has(fixed.handle(.started(at: F.at(0), sleepOffsetS: 0)), .connectGPS))
        #expect(fixed.gpsWatch == nil)
    }

    // MARK: gathering

    /// A receiver in a garage sends a report without a fix each second: headless, after the loss was
    /// acted on at once, those reports gather for 10 s (one wake-up in ten, not one a second for as
    /// long as there is no fix); the live screen, and the startup wait, read each as it comes.
    @Test func headlessReportsWithoutAFixGatherOnceTheLossIsKnown() {
        var r = Self.running()
        _ = r.handle(.gps(.noFix, at: F.at(3)))
        _ = r.handle(.gpsReadEnded(connected: true, rejectedFixes: Self.noneRejected, at: F.at(3)))
        #expect(r.gpsWatch == .reports)  // the loss itself is read at once
        #expect(r.status.gps == .lost(since: F.at(3)))
        _ = r.handle(.gps(.noFix, at: F.at(4)))
        _ = r.handle(.gpsReadEnded(connected: true, rejectedFixes: Self.noneRejected, at: F.at(4)))
        #expect(r.gpsWatch == .hangUpOnly)
        #expect(r.gpsd.quietUntil == F.at(14))
        // The fix comes back in the window: read at its end, and reports are read as they come again
        // until the receiver's rate is known anew.
        #expect(r.handle(.deadline(at: F.at(14))) == [.readGPS])
        _ = Self.read(&r, [A.fix(F.berlin, at: 13)], at: 14)
        #expect(r.status.gps == .fixing)

        var live = Self.running(.init(liveScreen: true))
        for t in [3.0, 4, 5] {
            _ = live.handle(.gps(.noFix, at: F.at(t)))
            _ = live.handle(.gpsReadEnded(connected: true, rejectedFixes: Self.noneRejected, at: F.at(t)))
        }
        #expect(live.gpsWatch == .reports)

        // No fix yet at the start: the startup reading waits on the first fix, read as it comes.
        var starting = A.reducer()
        _ = starting.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = starting.handle(.gps(.connected(address: A.gpsd), at: F.at(0.5)))
        for t in [1.0, 2, 3] {
            _ = starting.handle(.gps(.noFix, at: F.at(t)))
            _ = starting.handle(.gpsReadEnded(connected: true, rejectedFixes: Self.noneRejected, at: F.at(t)))
        }
        #expect(starting.gpsWatch == .reports)
    }

    @Test func headlessA1HzReceiverIsReadOncePerTenSeconds() {
        var r = Self.running()
        #expect(r.gpsWatch == .reports)
        // The second read shows the rate (1 s): what follows gathers for 10 s, polled for a hang-up only.
        _ = Self.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        #expect(r.gpsWatch == .hangUpOnly)
        #expect(r.gpsd.quietUntil == F.at(12))
        #expect(r.nextDeadline == F.at(12))
        #expect(r.handle(.deadline(at: F.at(11.9))) == [])
        #expect(r.handle(.deadline(at: F.at(12))) == [.readGPS])
        #expect(r.gpsWatch == .reports)
        // The read brings the ten fixes that gathered; the next window starts from it.
        let gathered = (3...12).map { A.fix(F.berlin, at: Double($0)) }
        _ = Self.read(&r, gathered, at: 12)
        #expect(r.gpsd.quietUntil == F.at(22))
    }

    @Test func theLiveScreenReadsA1HzReceiverAsEachFixComesAndAFastOneOncePerSecond() {
        var r = Self.running(.init(liveScreen: true))
        _ = Self.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        #expect(r.gpsWatch == .reports)
        // 10 Hz: ten fixes in a read a second after the last.
        _ = Self.read(&r, (0..<10).map { A.fix(F.berlin, at: 2.1 + Double($0) / 10) }, at: 3)
        #expect(r.gpsd.quietUntil == F.at(4))
    }

    @Test func aLostFixIsNeverHeld() {
        var r = Self.running()
        // The same read as would open a 10 s window, but it ends with the receiver saying the fix is lost.
        _ = r.handle(.gps(.fix(A.fix(F.berlin, at: 2)), at: F.at(2)))
        _ = r.handle(.gps(.noFix, at: F.at(2)))
        _ = r.handle(.gpsReadEnded(connected: true, rejectedFixes: Self.noneRejected, at: F.at(2)))
        #expect(r.gpsWatch == .reports)
        #expect(r.gpsd.quietUntil == nil)
    }

    @Test func aPersonsRequestEndsTheWindowAndIsAnsweredForTheNewestFix() {
        var r = Self.running()
        _ = Self.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        #expect(r.gpsWatch == .hangUpOnly)
        // SIGUSR1 at 5 s: what gathered is read first.
        #expect(r.handle(.manualRequest(at: F.at(5))) == [.readGPS])
        #expect(r.gpsWatch == .reports)
        // The receiver moved on meanwhile: the manual reading is for the newest fix, not the one of 2 s.
        let newest = A.fix(F.north(km: 0.5), at: 5)
        let effects = Self.read(&r, [A.fix(F.north(km: 0.3), at: 4), newest], at: 5)
        #expect(
            A.requests(effects) == [ReadingRequest(trigger: .manual, position: A.position(newest), forced: true)])
    }

    @Test func aStopDuringAWindowKeepsEveryFixUpToIt() {
        var r = Self.running(.init(trackIntervalS: 1))
        _ = Self.read(&r, [A.fix(F.berlin, at: 2)], at: 2)  // the batch so far goes at once (a 10 s wait)
        #expect(r.handle(.stopRequested(at: F.at(5))) == [.readGPS])
        let last = A.fix(F.berlin, at: 5)
        let effects = Self.read(&r, [A.fix(F.berlin, at: 4), last], at: 5)
        #expect(Self.has(effects, .recordTrackPoint(last)))
        #expect(Array(effects.suffix(2)) == [.writeTrack, .exit(code: 0)])
    }

    @Test func aKeyDuringAWindowIsDecidedAfterTheRead() {
        var r = Self.running(.init(liveScreen: true))
        _ = Self.read(&r, (0..<10).map { A.fix(F.berlin, at: 2.1 + Double($0) / 10) }, at: 3)
        #expect(r.gpsWatch == .hangUpOnly)
        #expect(r.handle(.key(UInt8(ascii: "q"), at: F.at(3.5))) == [.readGPS])
        let effects = r.handle(.gpsReadEnded(connected: true, rejectedFixes: Self.noneRejected, at: F.at(3.5)))
        #expect(effects.last == .exit(code: 0))
    }

    // MARK: suspend

    @Test func aSuspendDropsWhatGatheredUnread() {
        var r = Self.running()
        _ = Self.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        #expect(r.gpsWatch == .hangUpOnly)
        // A sample that moved less than the resolution is no news (the loop samples every turn).
        #expect(r.handle(.resumeSample(sleepOffsetS: 0.2, at: F.at(3))) == [])
        // An hour asleep: the gathered reports go unread, and the forced resume reading waits for the
        // first fix after the wake-up.
        let effects = r.handle(.resumeSample(sleepOffsetS: 3600, at: F.at(4)))
        #expect(effects.first == .dropGathered)
        #expect(A.requests(effects).isEmpty)
        #expect(r.gpsWatch == .reports)
        // The receiver's rate is learnt anew: the next fix is read as it comes, and is the resume reading's.
        let read = Self.read(&r, [A.fix(F.berlin, at: 5)], at: 5)
        #expect(A.requests(read).map(\.trigger) == [.resume])
        #expect(r.gpsWatch == .reports)
    }

    // MARK: gpsd going away

    @Test func gpsdLostWithinAGatherWindowIsSaidAtOnceAndReconnected() {
        var r = Self.running()
        _ = Self.read(&r, [A.fix(F.berlin, at: 2)], at: 2)
        #expect(r.gpsWatch == .hangUpOnly)
        // gpsd hung up at 4 s: the loop reads what it sent before, then sees the end.
        var effects = Self.read(&r, [A.fix(F.berlin, at: 3)], at: 4, connected: false)
        effects += r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(4)))
        #expect(
            effects.contains {
                if case .announceHealth(let n) = $0 { return n.first?.component == .gps } else { return false }
            })
        #expect(r.status.gps == .problem(.connectionLost(address: A.gpsd)))
        #expect(r.gpsWatch == .reports)
        #expect(r.nextDeadline == F.at(5))
    }

    @Test func reconnectingBacksOffAndStartsAgainOnceConnected() {
        var r = Self.running()
        _ = r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(10)))
        #expect(r.handle(.deadline(at: F.at(10.9))).isEmpty)
        #expect(r.handle(.deadline(at: F.at(11))) == [.connectGPS])
        let refused = GPSError.unreachable(address: A.gpsd, detail: "Connection refused")
        _ = r.handle(.gps(.disconnected(refused), at: F.at(11)))
        #expect(r.nextDeadline == F.at(13))  // 2 s
        #expect(r.handle(.deadline(at: F.at(13))) == [.connectGPS])
        _ = r.handle(.gps(.disconnected(refused), at: F.at(13)))
        #expect(r.nextDeadline == F.at(17))  // 4 s
        #expect(r.handle(.deadline(at: F.at(17))) == [.connectGPS])
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(17)))
        #expect(r.gpsd.reconnectAt == nil)
        _ = r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(30)))
        #expect(r.nextDeadline == F.at(31))  // back to 1 s
    }

    /// A connection gpsd's port took but nothing answered on as gpsd (an SSH banner, a hung gpsd): it
    /// waited for ever. Dropped `answerTimeoutS` after it opened, and its `.disconnected` backs off.
    @Test func aConnectionThatNeverAnswersIsDroppedAfterFiveSeconds() {
        var r = Self.running()
        _ = r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(10)))
        #expect(r.handle(.deadline(at: F.at(11))) == [.connectGPS])
        _ = r.handle(.gps(.opened(address: A.gpsd), at: F.at(11)))
        #expect(r.nextDeadline == F.at(16))
        #expect(r.handle(.deadline(at: F.at(15.9))).isEmpty)
        #expect(r.handle(.deadline(at: F.at(16))) == [.dropUnansweredGPS])
        #expect(r.handle(.deadline(at: F.at(16.5))).isEmpty, "once")
        let unanswered = GPSError.unreachable(address: A.gpsd, detail: "it said nothing")
        _ = r.handle(.gps(.disconnected(unanswered), at: F.at(16)))
        #expect(r.nextDeadline == F.at(18))  // the back-off: 2 s after the first retry's 1 s
        // A connection that answers in time is kept.
        #expect(r.handle(.deadline(at: F.at(18))) == [.connectGPS])
        _ = r.handle(.gps(.opened(address: A.gpsd), at: F.at(18)))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(20)))
        #expect(r.gpsd.answerDueAt == nil)
        #expect(!Self.has(r.handle(.deadline(at: F.at(40))), .dropUnansweredGPS))
    }

    // MARK: writes

    @Test func afterAGatheredReadTheTrackGoesAtOnce() {
        var r = Self.running(.init(trackIntervalS: 1))
        // The startup fix (1 s) waits; the second read opens a 10 s window, whose end would be 5 s
        // too late for it: the batch goes now, with the fix just kept.
        let f2 = A.fix(F.berlin, at: 2)
        let effects = Self.read(&r, [f2], at: 2)
        #expect(r.gpsWatch == .hangUpOnly)
        #expect(Self.has(effects, .recordTrackPoint(f2)))
        #expect(effects.last == .writeTrack)
        #expect(r.nextDeadline == F.at(12))
    }

    @Test func aSilentGPSDStillGetsItsTrackWrittenWithinFiveSeconds() {
        var r = Self.running(.init(liveScreen: true))
        // The startup fix at 1 s is waiting; nothing else comes.
        #expect(r.nextDeadline == F.at(6))
        #expect(r.handle(.deadline(at: F.at(6))) == [.writeTrack])
        // gpsd stays silent: 15 s after the last fix its fix counts as lost (ReceiverSilence).
        #expect(r.nextDeadline == F.at(16))
        #expect(r.handle(.deadline(at: F.at(16))) == [.redraw])
        #expect(r.nextDeadline == F.at(60))  // the screen's clock
    }

    @Test func atOneHertzOnTheLiveScreenWritesGoAtTheFirstFixFourSecondsAfterTheOldest() {
        var r = Self.running(.init(trackIntervalS: 1, liveScreen: true))
        var writesAt: [Double] = []
        for t in 2...11 {
            if Self.has(Self.read(&r, [A.fix(F.berlin, at: Double(t))], at: Double(t)), .writeTrack) {
                writesAt.append(Double(t))
            }
        }
        #expect(writesAt == [5, 10])
    }

    // MARK: rejected fixes

    @Test func rejectedFixCountsAreSavedAtMostEveryTenSecondsAndTheRestAtTheEnd() {
        var r = Self.running()
        func rejected(_ n: Int) -> RejectedFixCounts { RejectedFixCounts(jump: n) }
        #expect(Self.has(Self.read(&r, [], at: 3, rejected: rejected(1)), .saveRejectedFixes(rejected(1))))
        #expect(
            !Self.read(&r, [], at: 5, rejected: rejected(3)).contains {
                if case .saveRejectedFixes = $0 { true } else { false }
            })
        #expect(Self.has(Self.read(&r, [], at: 13, rejected: rejected(4)), .saveRejectedFixes(rejected(3))))
        _ = Self.read(&r, [], at: 14, rejected: rejected(6))
        #expect(r.handle(.stopRequested(at: F.at(15))) == [.saveRejectedFixes(rejected(2)), .exit(code: 0)])
    }

    // MARK: the screen

    @Test func theLiveScreenIsDrawnWhenItsClockTurnsAMinute() {
        // t0 is on a minute (1_800_000_000 s).
        var r = Self.running(.init(liveScreen: true))
        _ = r.handle(.deadline(at: F.at(6)))  // the track's write
        _ = r.handle(.deadline(at: F.at(16)))  // the receiver's silence (ReceiverSilence)
        #expect(r.nextDeadline == F.at(60))
        #expect(r.handle(.deadline(at: F.at(60))) == [.redraw])
        // The fix (at 1 s) turns a minute old: its "just now" becomes "1 min ago" then, not at 120 s.
        #expect(r.nextDeadline == F.at(61))
        #expect(r.handle(.deadline(at: F.at(61))) == [.redraw])
        #expect(r.nextDeadline == F.at(120))
        // Headless nothing is drawn, so nothing wakes for a minute.
        var h = Self.running()
        _ = h.handle(.deadline(at: F.at(6)))
        _ = h.handle(.deadline(at: F.at(16)))
        #expect(h.nextDeadline == F.at(1801))
    }

    @Test func aResizeRedrawsTheLiveScreenOnly() {
        var live = Self.running(.init(liveScreen: true))
        #expect(live.handle(.screenChanged(at: F.at(3))) == [.redraw])
        var headless = Self.running()
        #expect(headless.handle(.screenChanged(at: F.at(3))) == [])
    }

    @Test func aHungUpTerminalTurnsTheAgentHeadless() {
        var r = Self.running(.init(liveScreen: true))
        #expect(r.handle(.terminalHungUp(at: F.at(3))) == [.useJSONLines])
        #expect(!r.liveScreen)
        #expect(r.gpsd.headless)
        // Health changes now go to stderr, the only place left to say them.
        let effects = r.handle(.gps(.disconnected(.connectionLost(address: A.gpsd)), at: F.at(4)))
        #expect(effects.contains { if case .announceHealth = $0 { true } else { false } })
    }

    // MARK: printing and leaving

    @Test func aFinishedReadingIsPrinted() {
        var r = Self.running()
        _ = r.handle(.manualRequest(at: F.at(10)))
        let reading = A.reading(.manual, at: A.position(A.fix(F.berlin, at: 1)), time: 11)
        #expect(r.handle(.readingFinished(reading, at: F.at(11))).first == .printReading(reading))
    }

    @Test func aStopWaitsUpToThreeSecondsForTheReadingInFlight() {
        var r = Self.running(.init(trackIntervalS: 1, liveScreen: true))  // live: no gather window
        _ = r.handle(.manualRequest(at: F.at(10)))  // the startup fix's write goes at this turn
        _ = Self.read(&r, [A.fix(F.berlin, at: 10.5)], at: 10.5)  // kept, not yet written
        #expect(r.handle(.stopRequested(at: F.at(11))) == [])
        #expect(r.nextDeadline == F.at(14))
        #expect(r.gpsWatch == nil)
        #expect(!r.listensToPeople)
        #expect(r.handle(.stopRequested(at: F.at(12))) == [])  // a second stop changes nothing
        let reading = A.reading(.manual, at: A.position(A.fix(F.berlin, at: 1)), time: 12)
        #expect(r.handle(.readingFinished(reading, at: F.at(12))) == [.printReading(reading)])
        // Leaves at the next turn, once the print's outcome is known; the kept track goes first.
        #expect(r.handle(.deadline(at: F.at(12))) == [.writeTrack, .exit(code: 0)])
        #expect(r.nextDeadline == nil)
    }

    @Test func aReadingThatDoesNotFinishInThreeSecondsIsLeftBehind() {
        var r = Self.running()
        _ = r.handle(.manualRequest(at: F.at(10)))
        _ = r.handle(.stopRequested(at: F.at(11)))
        #expect(r.handle(.deadline(at: F.at(13.9))) == [])
        // Said once the screen is closed: the reading was not finished, so not stored.
        #expect(r.handle(.deadline(at: F.at(14))) == [.sayReadingAbandoned, .exit(code: 0)])
    }

    @Test func aReadingThatCannotBePrintedAtTheStopIsSaidOnceAndExitsOne() {
        var r = Self.running()
        _ = r.handle(.manualRequest(at: F.at(10)))
        _ = r.handle(.stopRequested(at: F.at(11)))
        let reading = A.reading(.manual, at: A.position(A.fix(F.berlin, at: 1)), time: 12)
        _ = r.handle(.readingFinished(reading, at: F.at(12)))
        #expect(r.handle(.outputLost(.refused(errno: 28), at: F.at(12))) == [.sayOutputFailed(.refused(errno: 28))])
        #expect(r.handle(.outputLost(.refused(errno: 28), at: F.at(12))) == [])
        #expect(r.handle(.deadline(at: F.at(12))).last == .exit(code: 1))
    }
}
