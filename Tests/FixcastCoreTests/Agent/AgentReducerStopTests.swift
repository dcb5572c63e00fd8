import FixcastCore
import FoundationEssentials
import Testing

/// How the agent leaves, and with which status: a stop (SIGTERM, SIGINT, SIGHUP, `q`) and a reader
/// that went away are done (0); a stdout that refuses writes, or whose reader stopped reading, lost the
/// readings it could not print (1).
@Suite struct AgentReducerStopTests {
    typealias A = AgentFixture
    typealias F = PolicyFixture

    @Test func aReaderGoneIsAStop() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(r.handle(.outputLost(.readerGone, at: F.at(1))) == [.exit(code: 0)])
        #expect(r.handle(.stopRequested(at: F.at(2))) == [], "stopped once")
    }

    @Test func aStdoutThatRefusesWritesExitsOne() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(
            r.handle(.outputLost(.refused(errno: 28), at: F.at(1))) == [
                .sayOutputFailed(.refused(errno: 28)), .exit(code: 1),
            ])
    }

    /// A reader that stopped reading (the lines waiting for it reached their limit) is a loss like a
    /// refused write, said with its own sentence, and a second report of it says nothing more.
    @Test func aStalledReaderIsALossSaidOnce() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(
            r.handle(.outputLost(.readerStalled, at: F.at(1))) == [.sayOutputFailed(.readerStalled), .exit(code: 1)])
        #expect(r.handle(.outputLost(.readerStalled, at: F.at(2))) == [])
    }
}
