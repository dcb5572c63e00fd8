import FixcastCore
import Testing

@Suite struct PeriodicRefreshTests {
    typealias F = PolicyFixture

    @Test func nothingIsDueBeforeTheFirstReading() {
        let periodic = PeriodicRefresh(intervalMin: 30)
        #expect(!periodic.isDue(at: F.at(100_000)))
        #expect(periodic.dueAt == nil)
    }

    @Test(arguments: [(1799.0, false), (1800.0, true), (7200.0, true)])
    func dueAfterTheInterval(elapsed: Double, due: Bool) {
        var periodic = PeriodicRefresh(intervalMin: 30)
        periodic.readingTaken(at: F.at(0))
        #expect(periodic.isDue(at: F.at(elapsed)) == due)
    }

    @Test func dueOneIntervalAfterTheReading() {
        var periodic = PeriodicRefresh(intervalMin: 30)
        periodic.readingTaken(at: F.at(600))
        #expect(periodic.dueAt == F.at(2400))
    }

    @Test func anyReadingResetsThePeriod() {
        var periodic = PeriodicRefresh(intervalMin: 30)
        periodic.readingTaken(at: F.at(0))
        periodic.readingTaken(at: F.at(1000))  // e.g. a manual one
        #expect(!periodic.isDue(at: F.at(1800)))
        #expect(periodic.isDue(at: F.at(2800)))
    }
}
