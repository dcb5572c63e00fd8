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

    static let diskFull = ReadingIssue(component: .storage, message: "storage: the disk is full; free some space.")

    /// The exit said at the stop counts the track's writes as they stood; the store's last write, after
    /// it, decides: a disk that refuses only that one loses the last points (1, said once on stderr).
    @Test func aLastTrackWriteThatFailsMakesTheExitOne() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        #expect(r.handle(.stopRequested(at: F.at(1))) == [.exit(code: 0)])
        #expect(
            r.handle(.trackFinished(Self.diskFull)) == [
                .announceHealth([
                    HealthNotice(component: .storage, message: Self.diskFull.message, isFailure: true)
                ]), .exit(code: 1),
            ])
        #expect(r.handle(.stopRequested(at: F.at(2))) == [], "nothing else after the stop")
    }

    /// A disk that refused writes during the run and took everything kept at the last write lost
    /// nothing: 0, and stderr hears that it works again.
    @Test func aDiskThatTakesTheLastWriteClearsTheLoss() {
        var r = A.reducer()
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: nil))
        _ = r.handle(.storageProblem(Self.diskFull))
        #expect(r.handle(.stopRequested(at: F.at(1))) == [.exit(code: 1)])
        #expect(
            r.handle(.trackFinished(nil)) == [
                .announceHealth([
                    HealthNotice(component: .storage, message: HealthNotice.recovered(.storage), isFailure: false)
                ]), .exit(code: 0),
            ])
    }

    /// The same outcome as the exit said changes nothing; another loss still counts.
    @Test func theLastWriteChangesOnlyWhatItDecides() {
        var still = A.reducer()
        _ = still.handle(.started(at: F.at(0), sleepOffsetS: nil))
        _ = still.handle(.storageProblem(Self.diskFull))
        _ = still.handle(.stopRequested(at: F.at(1)))
        #expect(still.handle(.trackFinished(Self.diskFull)) == [], "still failing: said before, exit 1 stands")

        var printing = A.reducer()
        _ = printing.handle(.started(at: F.at(0), sleepOffsetS: nil))
        _ = printing.handle(.outputLost(.refused(errno: 28), at: F.at(1)))
        #expect(printing.handle(.trackFinished(nil)) == [], "the track is stored, but a reading was not printed")
    }
}
