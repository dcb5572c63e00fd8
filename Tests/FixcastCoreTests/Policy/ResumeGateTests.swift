import FixcastCore
import Testing

@Suite struct ResumeGateTests {
    @Test func theFirstSampleIsNeverAResume() {
        var gate = ResumeGate(minAwayS: 30)
        // Even a large offset on the first sample (the machine had slept before fixcast started).
        do {
            let r = gate.resume(sleepOffsetS: 5000)
            #expect(r == nil)
        }
        #expect(gate.lastOffsetS == 5000)
    }

    @Test(arguments: [(0.0, false), (29.9, false), (30.0, true), (3600.0, true)])
    func refreshesOnlyAfterLongEnoughAway(away: Double, refresh: Bool) {
        var gate = ResumeGate(minAwayS: 30)
        _ = gate.resume(sleepOffsetS: 100)
        do {
            let r = gate.resume(sleepOffsetS: 100 + away)
            #expect(r == (refresh ? away : nil))
        }
    }

    @Test func measuresFromTheLastSampleNotTheFirst() {
        var gate = ResumeGate(minAwayS: 30)
        _ = gate.resume(sleepOffsetS: 0)
        do {
            let r = gate.resume(sleepOffsetS: 40)
            #expect(r == 40)
        }
        do {
            let r = gate.resume(sleepOffsetS: 40)
            #expect(r == nil)  // no second refresh for the same suspend
        }
        do {
            let r = gate.resume(sleepOffsetS: 60)
            #expect(r == nil)  // a 20 s nap
        }
        do {
            let r = gate.resume(sleepOffsetS: 95)
            #expect(r == 35)
        }
    }

    @Test func reportsTheTimeAwayAndIgnoresNonsense() {
        var gate = ResumeGate()
        do {
            let r = gate.sample(sleepOffsetS: 10)
            #expect(r == nil)
        }
        do {
            let r = gate.sample(sleepOffsetS: .nan)
            #expect(r == nil)
        }
        #expect(gate.lastOffsetS == 10)
        do {
            let r = gate.sample(sleepOffsetS: 52.5)
            #expect(r == 42.5)
        }
        do {
            let r = gate.sample(sleepOffsetS: 1)
            #expect(r == 0)  // a shrinking offset is not a resume
        }
    }

    /// Which samples the agent passes on: the first, and then only one that moved by the resolution
    /// (clock-reading jitter is nanoseconds; a suspend is seconds).
    @Test func onlySamplesThatMovedAreNews() {
        #expect(ResumeGate.isNews(12.0, after: nil))
        #expect(!ResumeGate.isNews(12.000_000_3, after: 12.0))
        #expect(!ResumeGate.isNews(12.0 + ResumeGate.sampleResolutionS * 0.9, after: 12.0))
        #expect(ResumeGate.isNews(12.0 + ResumeGate.sampleResolutionS, after: 12.0))
        #expect(ResumeGate.isNews(45.0, after: 12.0))
        // A suspend of 40 s seen through the filter still reads as one of 40 s at the gate.
        var gate = ResumeGate(minAwayS: 30)
        let first = gate.resume(sleepOffsetS: 12.0)
        let afterSuspend = gate.resume(sleepOffsetS: 52.0)
        #expect(first == nil)
        #expect(afterSuspend == 40)
    }
}
