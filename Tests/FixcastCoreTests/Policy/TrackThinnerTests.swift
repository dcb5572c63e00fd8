import FixcastCore
import Testing

@Suite struct TrackThinnerTests {
    typealias F = PolicyFixture

    @Test func theFirstPointIsKept() {
        var thinner = TrackThinner(intervalS: 10, distanceM: 50)
        do {
            let r = thinner.accept(F.berlin, at: F.t0)
            #expect(r)
        }
    }

    /// Parked, the fixes wander a few metres: a point every 45 s, not one every 10 s.
    @Test func aParkedReceiverGetsAPointEvery45s() {
        var thinner = TrackThinner(intervalS: 10, distanceM: 50, stillIntervalS: TrackThinner.standingStillIntervalS)
        var kept: [Int] = []
        for tenth in 0..<1800 {  // 3 min at 10 Hz, wandering up to 12 m
            let wander = F.north(km: Double(tenth % 7) * 0.002)
            if thinner.accept(wander, at: F.at(Double(tenth) / 10)) { kept.append(tenth) }
        }
        #expect(kept == [0, 450, 900, 1350])
        // Without the still rule (the reducer's tests, a configuration that asks none): every 10 s.
        var plain = TrackThinner(intervalS: 10, distanceM: 50)
        let everyTen = (0..<300).filter { plain.accept(F.berlin, at: F.at(Double($0) / 10)) }
        #expect(everyTen == [0, 100, 200])
    }

    /// A walker (1 m/s) is moving, not parked: a point each time it is 25 m on and 10 s have passed.
    @Test func aWalkerGetsAPointEvery25m() {
        var thinner = TrackThinner(intervalS: 10, distanceM: 50, stillIntervalS: TrackThinner.standingStillIntervalS)
        var kept: [Int] = []
        for s in 0..<120 {
            if thinner.accept(F.north(km: Double(s) * 0.001), at: F.at(Double(s))) { kept.append(s) }
        }
        #expect(kept.count == 5, "\(kept)")
        #expect(zip(kept, kept.dropFirst()).allSatisfy { (25...26).contains($1 - $0) }, "\(kept)")
    }

    @Test func aFastReceiverGetsAPointEveryDistance() {
        var thinner = TrackThinner(intervalS: 10, distanceM: 50)
        var kept = 0
        for tenth in 0..<100 {  // 10 Hz at 27.78 m/s (100 km/h) for 9.9 s: ~275 m
            let c = F.north(km: Double(tenth) * 0.002778)
            if thinner.accept(c, at: F.at(Double(tenth) / 10)) { kept += 1 }
        }
        // First point, then one each 50 m (every 18 steps of 2.778 m): 0, 18, 36, 54, 72, 90.
        #expect(kept == 6)
    }

    @Test func whicheverComesFirst() {
        var thinner = TrackThinner(intervalS: 10, distanceM: 50, stillIntervalS: TrackThinner.standingStillIntervalS)
        _ = thinner.accept(F.berlin, at: F.t0)
        do {
            let r = thinner.accept(F.north(km: 0.049), at: F.at(9.9))
            #expect(!r)
        }
        do {
            let r = thinner.accept(F.north(km: 0.051), at: F.at(9.9))
            #expect(r)
        }
        do {
            let r = thinner.accept(F.north(km: 0.080), at: F.at(15))
            #expect(!r)
        }
        do {
            let r = thinner.accept(F.north(km: 0.080), at: F.at(19.9))
            #expect(r)
        }
        // Standing still from there: 45 s, not 10.
        do {
            let r = thinner.accept(F.north(km: 0.081), at: F.at(29.9))
            #expect(!r)
        }
        do {
            let r = thinner.accept(F.north(km: 0.081), at: F.at(64.9))
            #expect(r)
        }
    }

    @Test func aClockSteppingBackDoesNotStarveTheTrack() {
        var thinner = TrackThinner()
        _ = thinner.accept(F.berlin, at: F.at(1000))
        do {
            let r = thinner.accept(F.berlin, at: F.at(0))
            #expect(r)
        }
        do {
            let r = thinner.accept(F.berlin, at: F.at(5))
            #expect(!r)
        }
    }

    @Test func fixesAreTimedByReceipt() {
        var thinner = TrackThinner()
        let a = Fix(time: nil, receivedAt: F.t0, coordinate: F.berlin, mode: .threeD)
        // 1024 weeks off.
        let b = Fix(time: F.at(-619_315_200), receivedAt: F.at(3), coordinate: F.berlin, mode: .threeD)
        do {
            let r = thinner.accept(a)
            #expect(r)
        }
        do {
            let r = thinner.accept(b)
            #expect(!r)
        }
    }
}
