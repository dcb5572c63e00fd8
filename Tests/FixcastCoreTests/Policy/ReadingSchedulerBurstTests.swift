import FixcastCore
import Testing

/// A storm of manual requests (1,000 SIGUSR1 in a second), in virtual time: requests that come while a
/// forced reading is being made, or within `forcedJoinWindowS` of its start, join it.
@Suite struct ReadingSchedulerBurstTests {
    typealias F = PolicyFixture

    /// A scheduler whose startup reading (ordinary) was taken and finished at t0 + 2 s.
    func started() -> ReadingScheduler {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.resumeSample(sleepOffsetS: 0, at: F.at(0)))
        _ = s.handle(.fix(F.fix(F.berlin, at: F.at(1)), at: F.at(1)))
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(2)))
        return s
    }

    /// Feeds `count` manual requests `gapS` apart from `from`; each reading asked for finishes
    /// `readingS` after it started (a cache hit takes about a millisecond). The readings taken.
    func storm(_ s: inout ReadingScheduler, from: Double, count: Int, gapS: Double, readingS: Double) -> [Double] {
        var taken: [Double] = []
        var finishesAt: Double?
        for i in 0..<count {
            let t = from + Double(i) * gapS
            if let f = finishesAt, f <= t {
                finishesAt = nil
                if case .takeReading = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(f))) {
                    taken.append(f)
                    finishesAt = f + readingS
                }
            }
            if case .takeReading = s.handle(.manualRequest(at: F.at(t))) {
                taken.append(t)
                finishesAt = t + readingS
            }
        }
        return taken
    }

    @Test func aThousandRequestsInASecondAreOneReading() {
        var s = started()
        let taken = storm(&s, from: 100, count: 1_000, gapS: 0.001, readingS: 0.001)
        #expect(taken == [100], "one forced reading answers the burst: \(taken.count)")
    }

    @Test func aLongerStormIsOneReadingPerJoinWindow() {
        var s = started()
        let taken = storm(&s, from: 100, count: 5_000, gapS: 0.001, readingS: 0.001)  // 5 s of requests
        #expect(taken.count == 3, "one every \(ReadingScheduler.forcedJoinWindowS) s: \(taken)")
    }

    @Test func aRequestAfterTheWindowIsANewReading() {
        var s = started()
        #expect(storm(&s, from: 100, count: 1, gapS: 0, readingS: 0.5).count == 1)
        _ = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(100.5)))
        #expect(s.handle(.manualRequest(at: F.at(101))) == .none, "a double press")
        guard case .takeReading(let r) = s.handle(.manualRequest(at: F.at(100 + ReadingScheduler.forcedJoinWindowS)))
        else {
            Issue.record("a request once the window is over is a new reading")
            return
        }
        #expect(r.trigger == .manual && r.forced)
    }

    @Test func aStormDuringAnOrdinaryReadingForcesOneFollowUp() {
        var s = ReadingScheduler(startedAt: F.at(0))
        _ = s.handle(.fix(F.fix(F.berlin, at: F.at(1)), at: F.at(1)))  // the ordinary startup, in flight
        for i in 0..<500 { #expect(s.handle(.manualRequest(at: F.at(1 + Double(i) * 0.001))) == .none) }
        guard case .takeReading(let forced) = s.handle(.readingFinished(weatherFetchedAt: F.berlin, at: F.at(1.6)))
        else {
            Issue.record("joinThenForce: one forced follow-up")
            return
        }
        #expect(forced.forced)
        let rest = storm(&s, from: 1.7, count: 300, gapS: 0.001, readingS: 0.001)
        #expect(rest.isEmpty, "the follow-up answers the rest: \(rest)")
    }
}
