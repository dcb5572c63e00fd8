import FixcastCore
import Testing

/// `RejectedFixSaveGate` in virtual (monotonic) time: the first news at once, then at most every 10 s,
/// never nothing new, and all that is left at shutdown.
@Suite struct RejectedFixSaveGateTests {
    @Test func savesNewsAtMostEveryIntervalAndTheRestWhenForced() {
        var gate = RejectedFixSaveGate()
        #expect(gate.toSave(total: RejectedFixCounts(), at: 100) == nil, "nothing rejected yet")
        #expect(
            gate.toSave(total: RejectedFixCounts(jump: 1), at: 101) == RejectedFixCounts(jump: 1), "the first at once")
        // A receiver sending garbage at 10 Hz: no save per fix.
        for i in 1..<99 {
            #expect(gate.toSave(total: RejectedFixCounts(jump: 1 + i), at: 101 + Double(i) * 0.1) == nil)
        }
        #expect(
            gate.toSave(total: RejectedFixCounts(nullIsland: 2, jump: 100), at: 111)
                == RejectedFixCounts(nullIsland: 2, jump: 99))
        #expect(gate.toSave(total: RejectedFixCounts(nullIsland: 2, jump: 100), at: 130) == nil, "nothing new")
        #expect(
            gate.toSave(total: RejectedFixCounts(nullIsland: 2, jump: 100, time: 3), at: 131)
                == RejectedFixCounts(time: 3))
        #expect(gate.toSave(total: RejectedFixCounts(nullIsland: 2, jump: 101, time: 3), at: 132) == nil)
        #expect(
            gate.toSave(total: RejectedFixCounts(nullIsland: 2, jump: 101, time: 3), at: 132, force: true)
                == RejectedFixCounts(jump: 1), "at shutdown")
        #expect(gate.saved == RejectedFixCounts(nullIsland: 2, jump: 101, time: 3))
    }

    @Test func aClockBehindTheLastSaveDoesNotStarveTheCounts() {
        var gate = RejectedFixSaveGate()
        _ = gate.toSave(total: RejectedFixCounts(jump: 1), at: 100)
        #expect(gate.toSave(total: RejectedFixCounts(jump: 2), at: 50) == RejectedFixCounts(jump: 1))
    }
}
