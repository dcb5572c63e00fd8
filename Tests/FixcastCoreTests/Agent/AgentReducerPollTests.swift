import FixcastCore
import FoundationEssentials
import Testing

/// How long the loop's poll(2) sleeps, and what it watches besides gpsd: the reducer's, so the loop
/// only does what it is told.
@Suite struct AgentReducerPollTests {
    typealias A = AgentFixture
    typealias F = PolicyFixture

    @Test func thePollSleepsUntilTheNextDeadlineAndNeverWakesBeforeIt() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.5)))
        #expect(r.nextDeadline == F.at(8), "the startup fix wait")
        #expect(r.pollTimeoutMs(at: F.at(0.5), reportHeld: false) == 7500)
        // 0.4 ms before the deadline: 1 ms, not 0 (a wake-up before it would find nothing due).
        #expect(r.pollTimeoutMs(at: F.at(7.9996), reportHeld: false) == 1)
        #expect(r.pollTimeoutMs(at: F.at(9), reportHeld: false) == 0, "overdue: at once")
        #expect(r.pollTimeoutMs(at: F.at(0.5), reportHeld: true) == 0, "a report received already")
    }

    @Test func aDeadlineDaysAwayIsSleptAnHourAtATime() {
        let here = A.position(A.fix(F.berlin, at: 0))
        var r = A.reducer(.init(periodicMin: 10_000), fixed: here)
        #expect(A.requests(r.handle(.started(at: F.at(0), sleepOffsetS: 0))).map(\.trigger) == [.startup])
        _ = r.handle(.readingFinished(A.reading(.startup, at: here, time: 1), at: F.at(1)))
        let deadline = r.nextDeadline
        #expect(deadline.map { $0.seconds(since: F.at(1)) > 3600 } == true, "the next reading is days off")
        #expect(r.pollTimeoutMs(at: F.at(1), reportHeld: false) == AgentReducer.longestPollMs)
    }

    @Test func stoppedNothingIsTimed() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        #expect(r.pollTimeoutMs(at: F.at(1), reportHeld: false) != -1)
        #expect(r.handle(.outputLost(.readerGone, at: F.at(1))) == [.exit(code: 0)])
        #expect(r.pollTimeoutMs(at: F.at(1), reportHeld: false) == -1)
    }

    @Test func stdoutsReaderIsWatchedOnlyForJSONLinesToAPipeOfARunThatGoesOn() {
        func watches(pipe: Bool, live: Bool = false, oneReading: Bool = false) -> Bool {
            var configuration = AgentReducer.Configuration(liveScreen: live)
            configuration.printsToAPipe = pipe
            configuration.stopsAfterFirstReading = oneReading
            return A.reducer(configuration).watchesOutputReader
        }
        #expect(watches(pipe: true))
        #expect(!watches(pipe: false))
        #expect(!watches(pipe: true, live: true))
        #expect(!watches(pipe: true, oneReading: true), "`now` stores its reading whoever reads it")

        var configuration = AgentReducer.Configuration()
        configuration.printsToAPipe = true
        var r = A.reducer(configuration)
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.stopRequested(at: F.at(1)))
        #expect(!r.watchesOutputReader, "not while leaving")
    }
}
