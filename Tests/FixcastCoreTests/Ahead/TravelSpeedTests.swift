import FixcastCore
import Testing

@Suite("TravelSpeed")
struct TravelSpeedTests {
    typealias F = AheadFixture

    /// A track east along the equator: one point every `every` seconds from `start`, at the speeds
    /// given per stretch (m/s, seconds).
    static func track(from start: Double, every: Double = 10, _ stretches: [(mps: Double, seconds: Double)])
        -> [TrackSample]
    {
        var out = [TrackSample(time: F.at(start), coordinate: F.east(0))]
        var t = start
        var x = 0.0
        for stretch in stretches {
            var left = stretch.seconds
            while left > 0 {
                t += every
                x += stretch.mps * every
                left -= every
                out.append(TrackSample(time: F.at(t), coordinate: F.east(x)))
            }
        }
        return out
    }

    @Test func stopsDoNotPullTheMedianDown() {
        // 20 minutes: 4 min at 25 m/s, a 12 min stop (most of the time), 4 min at 25 m/s.
        let track = Self.track(from: 0, [(25, 240), (0, 720), (25, 240)])
        let speed = TravelSpeed.learn(track: track, now: F.at(1_200), receiverMps: 3)
        #expect(speed?.source == .history)
        #expect(abs((speed?.mps ?? 0) - 25) < 0.01)
    }

    @Test func aLongTrafficJamIsTheSpeedAndAShortOneIsNot() {
        // 14 min crawling at 2 m/s after 6 min at 30: the jam is most of the moving time.
        let jam = TravelSpeed.learn(
            track: Self.track(from: 0, [(30, 360), (2, 840)]), now: F.at(1_200), receiverMps: nil)
        #expect(abs((jam?.mps ?? 0) - 2) < 0.01)
        // 4 min of it after 16 min at 30: still 30.
        let brief = TravelSpeed.learn(
            track: Self.track(from: 0, [(30, 960), (2, 240)]), now: F.at(1_200), receiverMps: nil)
        #expect(abs((brief?.mps ?? 0) - 30) < 0.01)
    }

    @Test func aGapInTheTrackIsNotBridged() {
        // 5 min at 10 m/s, then nothing for 10 min, then a point 30 km on (what a straight line over
        // the gap would call 50 m/s), then 3 min at 10 m/s.
        var track = Self.track(from: 0, [(10, 300)])
        let resume = TrackSample(time: F.at(900), coordinate: F.east(3_000 + 30_000))
        track.append(resume)
        for k in 1...18 {
            track.append(TrackSample(time: F.at(900 + Double(k) * 10), coordinate: F.east(33_000 + Double(k) * 100)))
        }
        let speed = TravelSpeed.learn(track: track, now: F.at(1_080), receiverMps: nil)
        #expect(abs((speed?.mps ?? 0) - 10) < 0.01)
    }

    @Test func onlyTheLast20MinutesCount() {
        // 30 min ago at 40 m/s, the last 20 min at 15.
        let track = Self.track(from: 0, [(40, 600), (15, 1_200)])
        let speed = TravelSpeed.learn(track: track, now: F.at(1_800), receiverMps: nil)
        #expect(abs((speed?.mps ?? 0) - 15) < 0.01)
    }

    @Test func theReceiverStandsInWithoutEnoughHistory() {
        let short = Self.track(from: 0, [(20, 50)])
        #expect(TravelSpeed.learn(track: short, now: F.at(50), receiverMps: 12) == TravelSpeed(mps: 12, source: .gps))
        #expect(TravelSpeed.learn(track: [], now: F.at(50), receiverMps: 0.5) == nil)
        #expect(TravelSpeed.learn(track: [], now: F.at(50), receiverMps: nil) == nil)
        #expect(TravelSpeed.learn(track: [], now: F.at(50), receiverMps: .nan) == nil)
        // Parked for 20 minutes: no moving history, the receiver says 0: no speed at all.
        let parked = Self.track(from: 0, [(0, 1_200)])
        #expect(TravelSpeed.learn(track: parked, now: F.at(1_200), receiverMps: 0) == nil)
    }

    @Test func anImplausibleJumpIsLeftOut() {
        var track = Self.track(from: 0, [(20, 300)])
        track.append(TrackSample(time: F.at(310), coordinate: F.east(6_000 + 10_000)))  // 1 km/s
        let speed = TravelSpeed.learn(track: track, now: F.at(310), receiverMps: nil)
        #expect(abs((speed?.mps ?? 0) - 20) < 0.01)
    }
}
