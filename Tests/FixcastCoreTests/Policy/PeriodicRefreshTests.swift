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

    /// While the readings get no fresh weather the next one comes after 1, 2, 5 and then every 10 min;
    /// one with fresh weather brings the period back.
    @Test func missingWeatherIsAskedAgainSooner() {
        var periodic = PeriodicRefresh(intervalMin: 30)
        var waits: [Double] = []
        for _ in 0..<6 {
            periodic.readingEnded(withFreshWeather: false)
            waits.append(periodic.waitS)
        }
        #expect(waits == [60, 120, 300, 600, 600, 600])
        periodic.readingTaken(at: F.at(1000))
        #expect(periodic.dueAt == F.at(1600))
        periodic.readingEnded(withFreshWeather: true)
        #expect(periodic.dueAt == F.at(2800))
    }

    @Test func theRetryIsNeverLaterThanThePeriodAndOffOffline() {
        var short = PeriodicRefresh(intervalMin: 3)
        for _ in 0..<4 { short.readingEnded(withFreshWeather: false) }
        #expect(short.waitS == 180)
        var offline = PeriodicRefresh(intervalMin: 30, retryDelaysS: [])
        offline.readingEnded(withFreshWeather: false)
        #expect(offline.waitS == 1800)
    }
}
