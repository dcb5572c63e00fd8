import FoundationEssentials
import Testing

@testable import FixcastCore

struct NominatimRateGateTests {
    @Test func firstRequestGoesAtOnce() {
        var gate = NominatimRateGate()
        #expect(gate.reserve(now: ManualClock().now()) == 0)
    }

    @Test func aSecondRequestWaitsForTheRestOfTheSecond() {
        let clock = ManualClock()
        var gate = NominatimRateGate()
        _ = gate.reserve(now: clock.now())
        clock.advance(by: 0.3)
        #expect(abs(gate.reserve(now: clock.now()) - 0.7) < 1e-6)
    }

    @Test func aRequestAfterTheSpacingGoesAtOnce() {
        let clock = ManualClock()
        var gate = NominatimRateGate()
        _ = gate.reserve(now: clock.now())
        clock.advance(by: 1.5)
        #expect(gate.reserve(now: clock.now()) == 0)
    }

    @Test func aBurstIsQueuedOneSpacingApart() {
        let clock = ManualClock()
        var gate = NominatimRateGate()
        var sendTimes: [Date] = []
        for _ in 0..<5 {
            let wait = gate.reserve(now: clock.now())
            sendTimes.append(clock.now().addingTimeInterval(wait))
        }
        let gaps = zip(sendTimes.dropFirst(), sendTimes).map { $0.timeIntervalSince($1) }
        #expect(gaps.count == 4)
        #expect(gaps.allSatisfy { abs($0 - 1.0) < 1e-6 })
    }

    @Test func randomArrivalsAreNeverCloserThanTheSpacing() {
        let clock = ManualClock()
        var gate = NominatimRateGate(minimumSpacing: 1.1)
        var generator = SystemRandomNumberGenerator()
        var last: Date?
        for _ in 0..<500 {
            clock.advance(by: Double.random(in: 0...2.5, using: &generator))
            let sendAt = clock.now().addingTimeInterval(gate.reserve(now: clock.now()))
            #expect(sendAt >= clock.now())
            if let last { #expect(sendAt.timeIntervalSince(last) >= 1.1 - 1e-6) }
            last = sendAt
        }
    }

    @Test func aClockGoingBackwardsStillWaitsForTheBookedSlot() {
        let clock = ManualClock()
        var gate = NominatimRateGate()
        let first = clock.now()
        _ = gate.reserve(now: first)
        clock.advance(by: -5)
        let wait = gate.reserve(now: clock.now())
        #expect(clock.now().addingTimeInterval(wait) == first.addingTimeInterval(1))
    }
}

struct NominatimRateGateFinishTests {
    @Test func aSlowAnswerPushesTheNextRequest() {
        let clock = ManualClock()
        var gate = NominatimRateGate()
        let start = clock.now()
        _ = gate.reserve(now: start)
        clock.advance(by: 2.5)  // the answer took 2.5 s
        gate.finished(at: clock.now())
        clock.advance(by: 0.2)
        #expect(abs(gate.reserve(now: clock.now()) - 0.8) < 1e-6)
    }

    @Test func anEarlierFinishDoesNotMoveTheLastFinishBack() {
        let clock = ManualClock()
        var gate = NominatimRateGate()
        gate.finished(at: clock.now().addingTimeInterval(5))
        gate.finished(at: clock.now())
        #expect(gate.lastFinish == clock.now().addingTimeInterval(5))
        #expect(abs(gate.reserve(now: clock.now()) - 6) < 1e-6)
    }
}
