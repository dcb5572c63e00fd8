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

    @Test func aParkedReceiverGetsAPointEveryInterval() {
        var thinner = TrackThinner(intervalS: 10, distanceM: 50)
        var kept: [Int] = []
        for tenth in 0..<300 {  // 30 s at 10 Hz, not moving
            if thinner.accept(F.berlin, at: F.at(Double(tenth) / 10)) { kept.append(tenth) }
        }
        #expect(kept == [0, 100, 200])
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
        var thinner = TrackThinner(intervalS: 10, distanceM: 50)
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
            let r = thinner.accept(F.north(km: 0.052), at: F.at(15))
            #expect(!r)
        }
        do {
            let r = thinner.accept(F.north(km: 0.052), at: F.at(19.9))
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
