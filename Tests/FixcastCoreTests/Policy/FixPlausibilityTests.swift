import FoundationEssentials
import Testing

@testable import FixcastCore

@Suite("FixPlausibility")
struct FixPlausibilityTests {
    let t0 = PolicyFixture.t0
    let berlin = PolicyFixture.berlin
    /// Munich, 504 km from Berlin.
    let munich = Coordinate(lat: 48.137, lon: 11.575)!

    /// A fix received `s` seconds after t0, with receiver time `offset` seconds from the receive time.
    func fix(_ c: Coordinate, at s: Double, offset: Double? = 0) -> Fix {
        let received = t0.addingTimeInterval(s)
        return Fix(
            time: offset.map { received.addingTimeInterval($0) }, receivedAt: received, coordinate: c, mode: .threeD)
    }

    @Test func steadyFixesAreAllAccepted() {
        var p = FixPlausibility()
        for i in 0..<10 {
            #expect(p.check(fix(PolicyFixture.north(km: Double(i) * 0.03), at: Double(i))) == nil)
        }
    }

    @Test(arguments: [(0.0, 0.0), (0.0000009, -0.0000009), (-0.0, 0.0)])
    func nullIslandIsNeverUsed(lat: Double, lon: Double) {
        var p = FixPlausibility()
        let zero = Coordinate(lat: lat, lon: lon)!
        #expect(p.check(fix(berlin, at: 0)) == nil)
        // Not even after many of them: (0,0) never builds a run that could be accepted.
        for i in 1...5 { #expect(p.check(fix(zero, at: Double(i))) == .nullIsland) }
        #expect(p.check(fix(berlin, at: 6)) == nil)
        var first = FixPlausibility()
        #expect(first.check(fix(zero, at: 0)) == .nullIsland, "not as the first fix either")
    }

    @Test func justOutsideTheNullIslandToleranceIsAPosition() {
        #expect(!FixPlausibility.isNullIsland(Coordinate(lat: 0.000002, lon: 0)!))
        #expect(!FixPlausibility.isNullIsland(Coordinate(lat: 0, lon: -0.000002)!))
        #expect(FixPlausibility.isNullIsland(Coordinate(lat: 0.0000005, lon: 0.0000005)!))
    }

    @Test func aLoneJumpIsRejectedAndTheTrackGoesOn() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0)) == nil)
        #expect(p.check(fix(munich, at: 1)) == .jump)
        #expect(p.check(fix(berlin, at: 2)) == nil)
    }

    @Test func aJumpIsAcceptedAfterThreeAgreeingFixes() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0)) == nil)
        #expect(p.check(fix(munich, at: 1)) == .jump)
        #expect(p.check(fix(PolicyFixture.north(of: munich, km: 0.01), at: 2)) == .jump)
        #expect(p.check(fix(PolicyFixture.north(of: munich, km: 0.02), at: 3)) == nil, "the third agreeing fix is used")
        // From then on Munich is home: Berlin one second later is the jump.
        #expect(p.check(fix(PolicyFixture.north(of: munich, km: 0.03), at: 4)) == nil)
        #expect(p.check(fix(berlin, at: 5)) == .jump)
    }

    @Test func heldFixesThatDisagreeWithEachOtherStartAgain() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0)) == nil)
        let paris = Coordinate(lat: 48.857, lon: 2.352)!
        #expect(p.check(fix(munich, at: 1)) == .jump)
        #expect(p.check(fix(paris, at: 2)) == .jump)
        #expect(p.check(fix(munich, at: 3)) == .jump)
        #expect(p.check(fix(paris, at: 4)) == .jump, "alternating glitches never agree three times")
        #expect(p.check(fix(munich, at: 5)) == .jump)
    }

    @Test func theSpeedLimitIsTheSetting() {
        // 500 m in 1 s: 500 m/s, under the default 600.
        var fast = FixPlausibility()
        #expect(fast.check(fix(berlin, at: 0)) == nil)
        #expect(fast.check(fix(PolicyFixture.north(km: 0.5), at: 1)) == nil)
        var slow = FixPlausibility(maxSpeedMps: 100)
        #expect(slow.check(fix(berlin, at: 0)) == nil)
        #expect(slow.check(fix(PolicyFixture.north(km: 0.5), at: 1)) == .jump)
        // 504 km in 20 minutes (420 m/s) is a plane, under the default.
        var plane = FixPlausibility()
        #expect(plane.check(fix(berlin, at: 0)) == nil)
        #expect(plane.check(fix(munich, at: 1200)) == nil)
    }

    @Test func aBadSettingIsTheDefault() {
        #expect(FixPlausibility(maxSpeedMps: .nan).maxSpeedMps == 600)
        #expect(FixPlausibility(maxSpeedMps: -1).maxSpeedMps == 600)
        #expect(FixPlausibility(maxSpeedMps: 30).maxSpeedMps == 30)
    }

    @Test func timelessFixesUseTheReceiveTime() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0, offset: nil)) == nil)
        #expect(p.check(fix(munich, at: 1, offset: nil)) == .jump)
        #expect(p.check(fix(munich, at: 1200, offset: nil)) == nil, "20 minutes later, Munich is reachable")
    }

    @Test func aFixReadInTheSameBatchIsNotAnInfiniteSpeed() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0, offset: nil)) == nil)
        // 30 m apart, received at the same instant: scatter, not a jump.
        #expect(p.check(fix(PolicyFixture.north(km: 0.03), at: 0, offset: nil)) == nil)
    }

    @Test func timeRunningBackwardsIsRejected() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0)) == nil)
        // Received later, but stamped 5 hours before the last accepted fix.
        #expect(p.check(fix(berlin, at: 1, offset: -5 * 3600)) == .time)
        #expect(p.check(fix(berlin, at: 2)) == nil)
    }

    @Test(arguments: [-30 * 365.25 * 86_400, 10 * 365.25 * 86_400, 86_401, -86_401])
    func aFixADayOrMoreFromTheClockIsNotUsed(offset: Double) {
        var first = FixPlausibility()
        #expect(first.check(fix(berlin, at: 0, offset: offset)) == .time, "as the first fix")
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0)) == nil)
        #expect(p.check(fix(berlin, at: 1, offset: offset)) == .time, "after good fixes")
        #expect(p.check(fix(berlin, at: 2)) == nil)
    }

    @Test func aDayIsTheLimit() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0, offset: 86_000)) == nil)
        #expect(p.check(fix(berlin, at: 1, offset: 86_000)) == nil)
    }

    @Test func aReplayedOldLogIsAcceptedOnceThreeFixesAgree() {
        // gpsd replaying a 2007 log: every fix is years from the clock, but they agree with each other.
        let offset = -19 * 365.25 * 86_400
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0, offset: offset)) == .time)
        #expect(p.check(fix(berlin, at: 1, offset: offset)) == .time)
        #expect(p.check(fix(berlin, at: 2, offset: offset)) == nil)
        #expect(p.check(fix(berlin, at: 3, offset: offset)) == nil, "and the fixes after it")
        // A fix from the present is now the odd one out.
        #expect(p.check(fix(berlin, at: 4)) == .time)
    }

    @Test func forgettingHeldFixesKeepsTheLastAccepted() {
        var p = FixPlausibility()
        #expect(p.check(fix(berlin, at: 0)) == nil)
        #expect(p.check(fix(munich, at: 1)) == .jump)
        #expect(p.check(fix(munich, at: 2)) == .jump)
        p.forgetHeld()
        #expect(p.check(fix(munich, at: 3)) == .jump, "the run starts again")
        #expect(p.check(fix(munich, at: 4)) == .jump)
        #expect(p.check(fix(munich, at: 5)) == nil)
    }

    @Test func countsRoundTripThroughTheirJSON() throws {
        var counts = RejectedFixCounts()
        counts.add(.jump)
        counts.add(.jump)
        counts.add(.nullIsland)
        counts.add(.time, count: 7)
        let text = counts.json.serialized()
        #expect(text == #"{"jump":2,"time":7,"null_island":1}"#)
        #expect(RejectedFixCounts(jsonText: text) == counts)
        #expect(counts.total == 10)
        #expect((counts + counts)[.time] == 14)
        #expect(RejectedFixCounts(jsonText: #"{"jump":-1}"#) == nil)
        #expect(RejectedFixCounts(jsonText: "not json") == nil)
        #expect(RejectedFixCounts(jsonText: #"{"jump":3}"#) == RejectedFixCounts(jump: 3))
    }

    /// A damaged store can hold any integer: `status` trapped on `{"jump": Int.max, "time": 1}`.
    @Test func countsReadFromADamagedStoreSaturateInsteadOfTrapping() throws {
        let stored = try #require(RejectedFixCounts(jsonText: #"{"jump":9223372036854775807,"time":1}"#))
        #expect(stored.total == Int.max)
        let grown = stored + RejectedFixCounts(nullIsland: 2, jump: 5, time: 1)
        #expect(grown == RejectedFixCounts(nullIsland: 2, jump: Int.max, time: 2))
        var counts = stored
        counts.add(.jump)
        #expect(counts[.jump] == Int.max)
        #expect((counts + counts).total == Int.max)
    }
}

@Suite("FixPlausibility after time-less fixes")
struct FixPlausibilityTimelessTests {
    @Test func aDatedFixAfterATimelessOneIsStillCheckedAgainstTheClock() {
        let t0 = PolicyFixture.t0
        let berlin = PolicyFixture.berlin
        var p = FixPlausibility()
        #expect(p.check(Fix(time: nil, receivedAt: t0, coordinate: berlin, mode: .threeD)) == nil)
        let stray = Fix(
            time: t0.addingTimeInterval(-20 * 365 * 86_400), receivedAt: t0.addingTimeInterval(1), coordinate: berlin,
            mode: .threeD)
        #expect(p.check(stray) == .time)
        let good = Fix(
            time: t0.addingTimeInterval(2), receivedAt: t0.addingTimeInterval(2), coordinate: berlin, mode: .threeD)
        #expect(p.check(good) == nil)
    }
}
