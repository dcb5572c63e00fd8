import FoundationEssentials
import Testing

@testable import FixcastCore

/// Every branch of the location decision (issue 2, item 3), with time passed in.
@Suite("FixWaitPolicy")
struct FixWaitPolicyTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let limits = FixWaitPolicy.Limits(timeoutS: 8, retries: 2, retryDelayS: 1)

    func at(_ s: Double) -> Date { t0.addingTimeInterval(s) }
    /// The monotonic clock `s` after the start, on an origin of its own (the wait's deadlines).
    func at(_ s: Double) -> MonotonicInstant { MonotonicInstant(seconds: 777 + s) }

    func fix(lat: Double = 52.52, lon: Double = 13.405, time: Date? = nil, at s: Double = 0) -> Fix {
        Fix(time: time, receivedAt: at(s), coordinate: Coordinate(lat: lat, lon: lon)!, mode: .threeD)
    }

    func report(mode: Int = 3, lat: Double, lon: Double, time: Date? = nil) -> TPVReport {
        TPVReport(mode: mode, time: time, lat: lat, lon: lon)
    }

    @Test func startArmsTheFirstTimeout() {
        var p = FixWaitPolicy(limits: limits)
        #expect(p.start(now: at(0)) == .waitUntil(at(8)))
        #expect(p.phase == .waiting(attempt: 1, deadline: at(8)))
    }

    @Test func fixInTimeIsDelivered() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        #expect(p.handle(.connected, now: at(0.1)) == .waitUntil(at(8)))
        let f = fix(time: at(2), at: 2)
        #expect(p.handle(.fix(f), now: at(2)) == .deliver(f))
        #expect(p.phase == .done)
        #expect(p.handle(.fix(fix(at: 3)), now: at(3)) == .finished)
    }

    @Test func earlyTickKeepsWaiting() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.handle(.tick, now: at(7.9)) == .waitUntil(at(8)))
    }

    @Test func timeoutThenFixOnRetry() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.handle(.tick, now: at(8)) == .waitUntil(at(9)))
        #expect(p.phase == .pausing(nextAttempt: 2, until: at(9)))
        #expect(p.handle(.tick, now: at(9)) == .waitUntil(at(17)))
        #expect(p.phase == .waiting(attempt: 2, deadline: at(17)))
        let f = fix(at: 12)
        #expect(p.handle(.fix(f), now: at(12)) == .deliver(f))
    }

    @Test func aFixDuringThePauseIsTaken() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        _ = p.handle(.tick, now: at(8))
        let f = fix(at: 8.5)
        #expect(p.handle(.fix(f), now: at(8.5)) == .deliver(f))
    }

    @Test func retriesExhaustedFallsBack() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.handle(.tick, now: at(8)) == .waitUntil(at(9)))
        #expect(p.handle(.tick, now: at(9)) == .waitUntil(at(17)))
        #expect(p.handle(.tick, now: at(17)) == .waitUntil(at(18)))
        #expect(p.handle(.tick, now: at(18)) == .waitUntil(at(26)))
        #expect(p.handle(.tick, now: at(26)) == .fallBack(.noFix(attempts: 3, timeoutS: 8)))
        #expect(p.handle(.tick, now: at(30)) == .finished)
    }

    @Test func zeroRetriesFallsBackAfterOneTimeout() {
        var p = FixWaitPolicy(limits: .init(timeoutS: 8, retries: 0, retryDelayS: 1))
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.handle(.tick, now: at(8)) == .fallBack(.noFix(attempts: 1, timeoutS: 8)))
    }

    @Test func gpsdUnreachableFallsBackAtOnce() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        #expect(p.handle(.unreachable, now: at(0.01)) == .fallBack(.unreachable))
    }

    @Test func unreachableAfterAWorkingConnectionIsWaitedOut() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.handle(.connectionLost, now: at(1)) == .waitUntil(at(8)))
        #expect(p.handle(.unreachable, now: at(2)) == .waitUntil(at(8)))
        // It comes back and a fix arrives.
        _ = p.handle(.connected, now: at(3))
        let f = fix(at: 4)
        #expect(p.handle(.fix(f), now: at(4)) == .deliver(f))
    }

    @Test func connectionLostForGoodEndsAsConnectionLost() {
        var p = FixWaitPolicy(limits: .init(timeoutS: 8, retries: 0, retryDelayS: 1))
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        _ = p.handle(.connectionLost, now: at(1))
        #expect(p.handle(.tick, now: at(8)) == .fallBack(.connectionLost(attempts: 1, timeoutS: 8)))
    }

    @Test func aFirstAttemptWithoutAnyConnectionEndsAsUnreachableWithoutRetries() {
        // A connect that hangs (remote host down): no event at all until the time is up.
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        #expect(p.handle(.tick, now: at(8)) == .fallBack(.unreachable))
    }

    /// gpsd busy opening a device answers a new client late: an open connection that has not had
    /// gpsd's first word by the end of the first attempt is waited out, not called unreachable; if
    /// gpsd answers, the wait ends as a plain no-fix, and if nothing ever answers, as unreachable.
    @Test func anOpenConnectionWaitingForGPSDsFirstWordIsWaitedOut() {
        var answering = FixWaitPolicy(limits: limits)
        _ = answering.start(now: at(0))
        _ = answering.handle(.opened, now: at(0))
        #expect(answering.handle(.tick, now: at(8)) != .fallBack(.unreachable))
        _ = answering.handle(.connected, now: at(10))
        #expect(answering.handle(.tick, now: at(40)) == .fallBack(.noFix(attempts: 3, timeoutS: 8)))
        var silent = FixWaitPolicy(limits: limits)
        _ = silent.start(now: at(0))
        _ = silent.handle(.opened, now: at(0))
        #expect(silent.handle(.tick, now: at(8)) != .fallBack(.unreachable))
        #expect(silent.handle(.tick, now: at(40)) == .fallBack(.unreachable))
    }

    @Test func lostAndBackBeforeTheEndIsAPlainNoFix() {
        var p = FixWaitPolicy(limits: .init(timeoutS: 8, retries: 0, retryDelayS: 1))
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        _ = p.handle(.connectionLost, now: at(1))
        _ = p.handle(.connected, now: at(3))
        #expect(p.handle(.tick, now: at(8)) == .fallBack(.noFix(attempts: 1, timeoutS: 8)))
    }

    @Test func aFixWithoutATimeIsDeliveredWithoutInventingOne() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        let d = p.handle(.report(report(lat: 50.84, lon: 4.347, time: nil), receivedAt: at(1)), now: at(1))
        guard case .deliver(let f) = d else {
            Issue.record("expected a delivered fix, got \(d)")
            return
        }
        #expect(f.time == nil)
        #expect(f.receivedAt == at(1))
        #expect(f.coordinate == Coordinate(lat: 50.84, lon: 4.347))
    }

    @Test(arguments: [
        (Double.nan, 13.4), (52.5, Double.nan), (91.0, 13.4), (-90.5, 0.0), (10.0, 180.5), (10.0, -181.0),
        (Double.infinity, 0.0),
    ])
    func aFixWithBadCoordinatesIsIgnored(lat: Double, lon: Double) {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        #expect(
            p.handle(.report(report(lat: lat, lon: lon, time: at(1)), receivedAt: at(1)), now: at(1))
                == .waitUntil(at(8)))
        #expect(p.phase == .waiting(attempt: 1, deadline: at(8)))
        // A good one after it still counts.
        let d = p.handle(.report(report(lat: 1, lon: 2, time: at(2)), receivedAt: at(2)), now: at(2))
        #expect(d != .waitUntil(at(8)))
    }

    @Test(arguments: [0, 1])
    func aNoFixReportIsIgnored(mode: Int) {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        #expect(
            p.handle(.report(report(mode: mode, lat: 52, lon: 13), receivedAt: at(1)), now: at(1)) == .waitUntil(at(8)))
    }

    @Test func anEventBeforeStartStartsTheWait() {
        var p = FixWaitPolicy(limits: limits)
        #expect(p.handle(.connected, now: at(0)) == .waitUntil(at(8)))
    }

    @Test func limitsFromSettingsAndClamping() {
        var gps = Settings.GPS()
        gps.fixTimeoutS = 5
        gps.fixRetries = 4
        let l = FixWaitPolicy.Limits(gps)
        #expect(l.timeoutS == 5 && l.retries == 4 && l.attempts == 5)
        #expect(
            FixWaitPolicy.Limits(timeoutS: -1, retries: -3, retryDelayS: -2)
                == FixWaitPolicy.Limits(timeoutS: 0, retries: 0, retryDelayS: 0))
        #expect(FixWaitPolicy.Limits(Settings().gps) == FixWaitPolicy.Limits(timeoutS: 8, retries: 2, retryDelayS: 1))
    }

    // MARK: the attempts laid out from the start

    @Test func aLateTickLandsInTheAttemptTimeSays() {
        var p = FixWaitPolicy(limits: limits)
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.handle(.tick, now: at(12)) == .waitUntil(at(17)))  // straight into attempt 2
        #expect(p.phase == .waiting(attempt: 2, deadline: at(17)))
        #expect(p.handle(.tick, now: at(17.5)) == .waitUntil(at(18)))
        #expect(p.phase == .pausing(nextAttempt: 3, until: at(18)))
        #expect(p.handle(.tick, now: at(100)) == .fallBack(.noFix(attempts: 3, timeoutS: 8)))
    }

    @Test func theRetryAndDeadlineForTheStatusLineAndTheTimer() {
        var p = FixWaitPolicy(limits: limits)
        #expect(p.deadline == nil)
        #expect(p.retry == nil)
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.deadline == at(8))
        #expect(p.retry == nil)
        _ = p.handle(.tick, now: at(8))
        #expect(p.retry == 1)  // pausing before retry 1
        #expect(p.deadline == at(9))
        _ = p.handle(.tick, now: at(9))
        #expect(p.retry == 1)
        #expect(p.deadline == at(17))
        _ = p.handle(.tick, now: at(17))
        #expect(p.retry == 2)
        _ = p.handle(.tick, now: at(26))
        #expect(p.retry == nil)
        #expect(p.deadline == nil)
    }

    @Test func ticksAtFractionalDeadlinesAlwaysMoveOn() {
        // 1.1 s + 0.2 s steps do not add up exactly in binary; a tick at each announced time must
        // still move on, never answer with the same time again (the loop would spin).
        var p = FixWaitPolicy(limits: .init(timeoutS: 1.1, retries: 5, retryDelayS: 0.2))
        var decision = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        var steps = 0
        while case .waitUntil(let next) = decision, steps < 50 {
            decision = p.handle(.tick, now: next)
            if case .waitUntil(let again) = decision { #expect(again > next) }
            steps += 1
        }
        #expect(decision == .fallBack(.noFix(attempts: 6, timeoutS: 1.1)))
        #expect(steps == 11)  // 6 timeouts and 5 pauses
    }

    @Test func runWaitsOutAnUnreachableGPSD() {
        var p = FixWaitPolicy(limits: limits, givesUpWhenUnreachable: false)
        _ = p.start(now: at(0))
        #expect(p.handle(.unreachable, now: at(0.01)) == .waitUntil(at(8)))
        #expect(p.handle(.tick, now: at(8)) == .waitUntil(at(9)))
        #expect(p.handle(.tick, now: at(26)) == .fallBack(.unreachable))
    }

    @Test func zeroTimeoutAndDelayFallBackAtTheFirstTick() {
        var p = FixWaitPolicy(limits: .init(timeoutS: 0, retries: 2, retryDelayS: 0))
        _ = p.start(now: at(0))
        _ = p.handle(.connected, now: at(0))
        #expect(p.handle(.tick, now: at(0)) == .fallBack(.noFix(attempts: 3, timeoutS: 0)))
    }

    @Test func oneRetryDelay() {
        #expect(FixWaitPolicy.retryDelayS == 1)
        #expect(FixWaitPolicy.Limits().retryDelayS == 1)
        #expect(ReadingScheduler.Configuration().retryDelayS == 1)
        #expect(AgentReducer.Configuration().scheduler.retryDelayS == 1)
    }
}
