import FixcastCore
import FoundationEssentials
import Testing

@Suite struct AlertWatchTests {
    typealias F = PolicyFixture

    @Test func nothingIsDueBeforeTheFirstCheck() {
        let w = AlertWatch(intervalMin: 10)
        #expect(w.nextCheckAt == nil)
        #expect(!w.isDue(at: F.at(1_000_000)))
    }

    @Test func checksEveryInterval() {
        var w = AlertWatch(intervalMin: 10)
        w.checkStarted(now: F.at(0))
        #expect(w.nextCheckAt == F.at(600))
        #expect(!w.isDue(at: F.at(599.9)))
        #expect(w.isDue(at: F.at(600)))
        w.checkStarted(now: F.at(650))
        #expect(w.nextCheckAt == F.at(1250))
    }

    /// Once per identity (CONTRACT.md "Alerts"): what was active at the last answer is not news,
    /// however far the checks are apart; one that stopped applying and applies again is.
    @Test func newsIsWhatWasNotActiveAtTheLastCheck() {
        var w = AlertWatch(intervalMin: 10)
        #expect(w.news(in: ["a", "b", "a"]) == ["a", "b"])
        #expect(w.news(in: ["b", "a"]) == [])
        #expect(w.news(in: ["c", "a"]) == ["c"])
        #expect(w.seenIDs == ["a", "c"])
        // "b" had ended; it applies again: news again.
        #expect(w.news(in: ["a", "b"]) == ["b"])
        #expect(w.news(in: []) == [])
        #expect(w.news(in: ["a"]) == ["a"])
    }

    /// What an earlier run kept in the store: those are not news after a restart.
    @Test func aRestartWithTheKeptSetTellsNothingAgain() {
        var w = AlertWatch(intervalMin: 10, seen: ["a", "b"])
        #expect(w.news(in: ["b", "a"]) == [])
        #expect(w.news(in: ["a", "d"]) == ["d"])
        // A kept set larger than any real one is cut, not trusted whole.
        let huge = Set((0..<1000).map { "id\($0)" })
        #expect(AlertWatch(intervalMin: 10, seen: huge).seenIDs.count == AlertWatch.maxSeen)
    }

    /// A report keeps up to `AlertReport.maxAlerts`: a full one, checked again, tells nothing twice.
    @Test func aFullReportIsToldOnce() {
        var w = AlertWatch(intervalMin: 10)
        let ids = (0..<AlertReport.maxAlerts).map { "id\($0)" }
        #expect(w.news(in: ids) == ids)
        #expect(w.news(in: ids) == [], "the same \(ids.count) at the next check")
        #expect(w.news(in: ids.reversed()) == [])
    }

    @Test func aNegativeIntervalIsZero() {
        var w = AlertWatch(intervalMin: -3)
        w.checkStarted(now: F.at(10))
        #expect(w.nextCheckAt == F.at(10))
    }
}
