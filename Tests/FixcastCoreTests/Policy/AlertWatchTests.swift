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
    /// however far the checks are apart; one back within an hour's checks of going is not news either;
    /// one that stopped applying for longer and applies again is.
    @Test func newsIsWhatWasNotActiveAtTheLastCheck() {
        var w = AlertWatch(intervalMin: 10)
        #expect(w.graceChecks == 6)
        #expect(w.news(in: ["a", "b", "a"]) == ["a", "b"])
        #expect(w.news(in: ["b", "a"]) == [])
        #expect(w.news(in: ["c", "a"]) == ["c"])
        #expect(w.seenIDs == ["a", "c"])
        #expect(w.remembered == ["a", "b", "c"])
        // "b" was missing from one answer (an NWS message expired before its update): back, not news.
        #expect(w.news(in: ["a", "b"]) == [])
        // "a" goes for six checks, an hour: still not news at the sixth.
        for _ in 1...5 { #expect(w.news(in: ["b"]) == []) }
        #expect(w.lapsed["a"] == 5)
        #expect(w.news(in: ["a", "b"]) == [])
        // Gone for longer than the grace: news again.
        for _ in 1...6 { #expect(w.news(in: ["b"]) == []) }
        #expect(w.lapsed["a"] == 6)
        _ = w.news(in: ["b"])
        #expect(w.lapsed["a"] == nil && !w.remembered.contains("a"))
        #expect(w.news(in: ["a", "b"]) == ["a"])
    }

    /// The grace is an hour's checks, at least one.
    @Test func theGraceIsAnHoursChecks() {
        #expect(AlertWatch(intervalMin: 1).graceChecks == 60)
        #expect(AlertWatch(intervalMin: 25).graceChecks == 3)
        #expect(AlertWatch(intervalMin: 1440).graceChecks == 1)
    }

    /// What an earlier run kept in the store: those are not news after a restart.
    @Test func aRestartWithTheKeptSetTellsNothingAgain() {
        var w = AlertWatch(intervalMin: 10, seen: ["a", "b"])
        #expect(w.news(in: ["b", "a"]) == [])
        #expect(w.news(in: ["a", "d"]) == ["d"])
        // A kept set larger than any real one is cut, not trusted whole.
        let huge = Set((0..<1000).map { "id\($0)" })
        #expect(AlertWatch(intervalMin: 10, seen: huge).seenIDs.count == 2 * AlertWatch.maxSeen)
        // What a full watch remembers (its active ids and as many lapsed) is all taken back: none of
        // the active ones is news after the restart, whatever their names sort as.
        var full = AlertWatch(intervalMin: 10)
        let lapsing = (0..<AlertWatch.maxSeen).map { "a\($0)" }
        let active = (0..<AlertWatch.maxSeen).map { "z\($0)" }
        _ = full.news(in: lapsing)
        _ = full.news(in: active)
        #expect(full.remembered.count == 2 * AlertWatch.maxSeen)
        var restarted = AlertWatch(intervalMin: 10, seen: Set(full.remembered))
        #expect(restarted.news(in: active) == [])
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
