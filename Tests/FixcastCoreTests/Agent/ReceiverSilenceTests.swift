import FixcastCore
import FoundationEssentials
import Testing

/// The rule alone: how long a receiver may go without a fix read, in virtual time.
@Suite struct ReceiverSilenceTests {
    typealias F = PolicyFixture

    @Test func aOneHertzReceiverIsSilentFifteenSecondsAfterItsLastFix() {
        var s = ReceiverSilence()
        #expect(s.deadline == nil)  // nothing to lose before a fix
        s.fixesRead(intervalS: nil, at: F.at(1))
        s.fixesRead(intervalS: 1, at: F.at(2))
        #expect(s.intervalS == 1)
        #expect(s.limitS == ReceiverSilence.minimumS)
        #expect(s.deadline == F.at(17))
        let early = s.isDue(at: F.at(16.9))
        #expect(!early)
        let due = s.isDue(at: F.at(17))
        #expect(due)
        #expect(s.isSilent)
        // Said once: no deadline until a fix comes again.
        #expect(s.deadline == nil)
        let again = s.isDue(at: F.at(60))
        #expect(!again)
        s.fixesRead(intervalS: 58, at: F.at(60))
        #expect(!s.isSilent)
    }

    @Test func aSlowReceiverIsGivenThreeOfItsIntervalsAndTheIntervalIsCapped() {
        var s = ReceiverSilence()
        s.fixesRead(intervalS: nil, at: F.at(0))
        s.fixesRead(intervalS: 10, at: F.at(10))
        #expect(s.limitS == 30)
        #expect(s.deadline == F.at(40))
        // A gap of ten minutes (a tunnel) does not put the rule off for half an hour.
        s.fixesRead(intervalS: 600, at: F.at(610))
        #expect(s.limitS == 3 * ReceiverSilence.longestIntervalS)
    }

    @Test func aGatheredReadCountsItsFixesForTheInterval() {
        // The one interval rule, shared with the gather window: ten fixes of a 1 Hz receiver read at
        // once, ten seconds after the read before; on a first read, several fixes at once are a fast
        // receiver's; one is not enough to tell.
        #expect(ReportGathering.reportIntervalS(fixes: 10, sincePreviousFixReadS: 10) == 1)
        #expect(ReportGathering.reportIntervalS(fixes: 3, sincePreviousFixReadS: nil) == 0)
        #expect(ReportGathering.reportIntervalS(fixes: 1, sincePreviousFixReadS: nil) == nil)
        #expect(ReportGathering.reportIntervalS(fixes: 0, sincePreviousFixReadS: 5) == nil)
        var s = ReceiverSilence()
        s.fixesRead(intervalS: nil, at: F.at(0))
        s.fixesRead(intervalS: ReportGathering.reportIntervalS(fixes: 10, sincePreviousFixReadS: 10), at: F.at(10))
        #expect(s.intervalS == 1)
        #expect(s.deadline == F.at(25))
        // A read whose interval is unknown keeps the one known.
        s.fixesRead(intervalS: nil, at: F.at(12))
        #expect(s.intervalS == 1)
        #expect(s.deadline == F.at(27))
    }

    @Test func noFixToWaitForAndAWakeUp() {
        var s = ReceiverSilence()
        s.fixesRead(intervalS: nil, at: F.at(0))
        s.fixesRead(intervalS: 10, at: F.at(10))
        // gpsd said the fix is lost: the receiver talks; nothing to wait for until the next fix.
        s.noFix(connectionEnded: false)
        #expect(s.deadline == nil)
        #expect(s.intervalS == 10)
        s.fixesRead(intervalS: nil, at: F.at(20))
        #expect(s.deadline == F.at(50))
        // The connection ended: the interval goes with it.
        s.noFix(connectionEnded: true)
        #expect(s.intervalS == nil)
        s.fixesRead(intervalS: nil, at: F.at(30))
        #expect(s.deadline == F.at(45))
        // Woken after an hour asleep: counted from the wake-up, not from the fix before the suspend.
        s.resumed(at: F.at(3630))
        #expect(s.deadline == F.at(3645))
        // With no fix watched, a wake-up starts nothing.
        var idle = ReceiverSilence()
        idle.resumed(at: F.at(5))
        #expect(idle.deadline == nil)
    }
}
