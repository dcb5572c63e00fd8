import FixcastCore
import FoundationEssentials
import Testing

@Suite struct AlertWatchTests {
    typealias F = PolicyFixture

    @Test func nothingIsDueBeforeTheFirstCheck() {
        let w = AlertWatch(intervalMin: 10, resetDistanceKm: 5)
        #expect(w.nextCheckAt == nil)
        #expect(!w.isDue(at: F.at(1_000_000)))
    }

    @Test func checksEveryInterval() {
        var w = AlertWatch(intervalMin: 10, resetDistanceKm: 5)
        w.checkStarted(at: F.berlin, now: F.at(0))
        #expect(w.nextCheckAt == F.at(600))
        #expect(!w.isDue(at: F.at(599.9)))
        #expect(w.isDue(at: F.at(600)))
        w.checkStarted(at: F.berlin, now: F.at(650))
        #expect(w.nextCheckAt == F.at(1250))
    }

    @Test func newsIsWhatWasNotSeenHere() {
        var w = AlertWatch(intervalMin: 10, resetDistanceKm: 5)
        w.checkStarted(at: F.berlin, now: F.at(0))
        #expect(w.news(in: ["a", "b", "a"]) == ["a", "b"])
        #expect(w.news(in: ["b", "a"]) == [])
        #expect(w.news(in: ["c", "a"]) == ["c"])
        // Within 5 km of where the set started: still the same place.
        w.checkStarted(at: F.north(km: 4.9), now: F.at(600))
        #expect(w.news(in: ["a"]) == [])
        // Beyond it: everything is news again.
        w.checkStarted(at: F.north(km: 5.1), now: F.at(1200))
        #expect(w.seenIDs.isEmpty)
        #expect(w.seenAround == F.north(km: 5.1))
        #expect(w.news(in: ["a"]) == ["a"])
    }

    @Test func aNegativeIntervalIsZero() {
        var w = AlertWatch(intervalMin: -3, resetDistanceKm: 5)
        w.checkStarted(at: F.berlin, now: F.at(10))
        #expect(w.nextCheckAt == F.at(10))
    }
}
