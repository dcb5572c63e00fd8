import FixcastCore
import Testing

@Suite struct ReportGatheringTests {
    @Test func aHeadlessOneHertzReceiverIsReadEveryTenSeconds() {
        // One fix a second after the previous read (not gathered yet), and ten after a gathered one.
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: 1, timed: true, headless: true) == 10)
        #expect(
            ReportGathering.windowS(
                fixes: 10, lostFix: false, connected: true, sincePreviousFixReadS: 10, timed: true, headless: true)
                == 10)
    }

    @Test func onTheLiveScreenAOneHertzReceiverIsReadAsEachFixComes() {
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: 1, timed: true, headless: false)
                == nil)
        // 2 Hz is not yet fast (closer than half a second is).
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: 0.5, timed: true, headless: false)
                == nil)
    }

    @Test(arguments: [true, false])
    func aFastReceiverIsReadOnceASecondWhoeverWatches(headless: Bool) {
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: 0.1, timed: true, headless: headless)
                == 1)
        #expect(
            ReportGathering.windowS(
                fixes: 10, lostFix: false, connected: true, sincePreviousFixReadS: 1, timed: true, headless: headless)
                == 1)
        // Several fixes in the first read: only a fast receiver sends that.
        #expect(
            ReportGathering.windowS(
                fixes: 3, lostFix: false, connected: true, sincePreviousFixReadS: nil, timed: true, headless: headless)
                == 1)
    }

    @Test(arguments: [true, false])
    func theFirstFixOfAnUnknownRateIsNotFollowedByAWindow(headless: Bool) {
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: nil, timed: true, headless: headless)
                == nil)
    }

    @Test(arguments: [true, false])
    func aLostFixAClosedConnectionOrNoFixIsNeverHeld(headless: Bool) {
        #expect(
            ReportGathering.windowS(
                fixes: 5, lostFix: true, connected: true, sincePreviousFixReadS: 5, timed: true, headless: headless)
                == nil)
        #expect(
            ReportGathering.windowS(
                fixes: 5, lostFix: false, connected: false, sincePreviousFixReadS: 5, timed: true, headless: headless)
                == nil)
        #expect(
            ReportGathering.windowS(
                fixes: 0, lostFix: false, connected: true, sincePreviousFixReadS: 5, timed: true, headless: headless)
                == nil)
    }

    @Test func aNonsenseIntervalIsTreatedAsUnknown() {
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: -3, timed: true, headless: true)
                == nil)
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: .nan, timed: true, headless: true)
                == nil)
    }

    @Test func aHeadlessReceiverWithoutTimesIsReadAsEachFixComesUnlessFast() {
        // Without the receiver's times, fixes read together could not keep the seconds they came.
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: 1, timed: false, headless: true)
                == nil)
        #expect(
            ReportGathering.windowS(
                fixes: 10, lostFix: false, connected: true, sincePreviousFixReadS: 1, timed: false, headless: true) == 1
        )
    }

    @Test func aReceiverSilentForMinutesIsSlowNotFast() {
        #expect(
            ReportGathering.windowS(
                fixes: 1, lostFix: false, connected: true, sincePreviousFixReadS: 300, timed: true, headless: true)
                == 10)
    }

    @Test func reportsWithoutAFixGatherOnlyHeadlessOnceTheLossIsKnownAndNothingWaitsOnAFix() {
        #expect(
            ReportGathering.fixlessWindowS(lostBefore: true, fixAwaited: false, connected: true, headless: true) == 10)
        #expect(
            ReportGathering.fixlessWindowS(lostBefore: false, fixAwaited: false, connected: true, headless: true) == nil
        )
        #expect(
            ReportGathering.fixlessWindowS(lostBefore: true, fixAwaited: true, connected: true, headless: true) == nil)
        #expect(
            ReportGathering.fixlessWindowS(lostBefore: true, fixAwaited: false, connected: false, headless: true) == nil
        )
        #expect(
            ReportGathering.fixlessWindowS(lostBefore: true, fixAwaited: false, connected: true, headless: false) == nil
        )
    }
}
