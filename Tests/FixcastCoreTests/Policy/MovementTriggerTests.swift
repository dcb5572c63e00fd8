import FixcastCore
import Testing

@Suite struct MovementTriggerTests {
    @Test func nothingHasMovedBeforeTheFirstFetch() {
        let trigger = MovementTrigger(thresholdKm: 5)
        #expect(!trigger.hasMoved(to: PolicyFixture.north(km: 500)))
        #expect(trigger.distanceKm(to: PolicyFixture.berlin) == nil)
    }

    @Test(arguments: [(4.9, false), (4.999, false), (5.001, true), (50.0, true)])
    func movedOnlyBeyondTheThreshold(km: Double, moved: Bool) {
        let trigger = MovementTrigger(thresholdKm: 5, fetchPoint: PolicyFixture.berlin)
        let d = trigger.distanceKm(to: PolicyFixture.north(km: km)) ?? -1
        #expect(abs(d - km) < 0.001)
        #expect(trigger.hasMoved(to: PolicyFixture.north(km: km)) == moved)
    }

    /// A slow drift of 300 m steps never crosses 5 km fix-to-fix, but does from the fetch point.
    @Test func aSlowDriftAddsUp() {
        var trigger = MovementTrigger(thresholdKm: 5)
        trigger.weatherFetched(at: PolicyFixture.berlin)
        var movedAtStep: Int?
        for step in 1...60 {
            if trigger.hasMoved(to: PolicyFixture.north(km: Double(step) * 0.3)) {
                movedAtStep = step
                break
            }
        }
        #expect(movedAtStep == 17)
    }

    @Test func aNewFetchMovesTheReference() {
        var trigger = MovementTrigger(thresholdKm: 5, fetchPoint: PolicyFixture.berlin)
        let far = PolicyFixture.north(km: 6)
        #expect(trigger.hasMoved(to: far))
        trigger.weatherFetched(at: far)
        #expect(!trigger.hasMoved(to: far))
        #expect(trigger.hasMoved(to: PolicyFixture.berlin))
    }
}
