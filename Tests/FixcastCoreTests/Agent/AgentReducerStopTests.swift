import FixcastCore
import FoundationEssentials
import Testing

/// How the agent leaves, and with which status: a stop (SIGTERM, SIGINT, SIGHUP, `q`) and a reader
/// that went away are done (0); a stdout that refuses writes lost the readings it could not print (1).
@Suite struct AgentReducerStopTests {
    typealias A = AgentFixture
    typealias F = PolicyFixture

    @Test func aReaderGoneIsAStop() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(r.handle(.outputLost(readerGone: true, at: F.at(1))) == [.exit(code: 0)])
        #expect(r.handle(.stopRequested(at: F.at(2))) == [], "stopped once")
    }

    @Test func aStdoutThatRefusesWritesExitsOne() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(
            r.handle(.outputLost(readerGone: false, errno: 28, at: F.at(1))) == [
                .sayOutputFailed(errno: 28), .exit(code: 1),
            ])
    }
}
