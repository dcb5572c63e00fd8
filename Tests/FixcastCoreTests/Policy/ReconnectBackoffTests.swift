import Testing

@testable import FixcastCore

@Suite("ReconnectBackoff")
struct ReconnectBackoffTests {
    @Test func doublesFromOneSecondUpToThirty() {
        var b = ReconnectBackoff()
        let delays = (0..<8).map { _ in b.nextDelay() }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test func resetStartsOver() {
        var b = ReconnectBackoff()
        _ = b.nextDelay()
        _ = b.nextDelay()
        b.reset()
        #expect(b.nextDelay() == 1)
    }

    @Test func customBoundsAreKeptSane() {
        var b = ReconnectBackoff(initialS: 0.5, maximumS: 0.1)
        #expect(b.maximumS == 0.5)
        #expect(b.nextDelay() == 0.5)
        #expect(b.nextDelay() == 0.5)
    }
}
