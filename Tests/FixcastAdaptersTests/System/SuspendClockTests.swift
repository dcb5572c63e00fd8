import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Suite(.scratch) struct SuspendClockTests {
    /// On a running machine the offset is readable, not negative, and does not shrink between samples
    /// (it only grows during a suspend, which a test cannot cause).
    @Test func theSleepOffsetIsReadableAndNeverShrinks() throws {
        let first = try #require(SuspendClock.sleepOffsetS())
        let second = try #require(SuspendClock.sleepOffsetS())
        #expect(first >= 0)
        // The two clocks are read one after the other, so allow their read gap (well under 50 ms).
        #expect(second >= first - 0.05)
    }

    @Test func localOffsetIsWithinAnyTimeZone() {
        let offset = LocalTimeOffset.current()
        #expect((-12 * 3600...14 * 3600).contains(offset))
    }
}
