import FixcastCore
import FoundationEssentials
import Testing

/// The reducer's deadlines are monotonic instants: the wall clock is only shown and stored.
@Suite struct AgentReducerClockTests {
    typealias F = PolicyFixture
    typealias A = AgentFixture

    /// A Raspberry Pi without a real-time clock boots with the time of its last shutdown; gpsd (or
    /// chrony) sets the clock from the receiver at the first fix, three days on. Neither the fix
    /// wait, nor the period, nor the alert check moves; a wall clock stepped back later moves
    /// nothing either.
    @Test func aWallClockSetAtTheFirstFixMovesNoDeadline() {
        let jump = 3 * 86_400.0
        func setClock(_ t: Double) -> ClockReading { ClockReading(monotonic: F.at(t), wall: F.at(t + jump)) }
        var r = A.reducer(.init(alertCheckMin: 10))
        _ = r.handle(.started(at: F.at(0), sleepOffsetS: 0))
        _ = r.handle(.gps(.connected(address: A.gpsd), at: F.at(0.5)))
        #expect(r.nextDeadline == F.at(8))

        // The clock is set: the first wait's deadline (8 s after the start) has not come.
        #expect(r.handle(.gps(.satellites(used: 4, visible: 9), at: setClock(3))) == [])
        #expect(r.nextDeadline == F.at(8))
        #expect(r.status.gps == .starting)

        let wall = F.at(5 + jump) as Date
        let f1 = Fix(time: wall, receivedAt: wall, coordinate: F.berlin, mode: .threeD, satellitesUsed: 8)
        let p1 = A.position(f1)
        #expect(A.requests(r.handle(.gps(.fix(f1), at: setClock(5)))).map(\.trigger) == [.startup])
        _ = r.handle(.readingFinished(A.reading(.startup, at: p1, time: 6 + jump), at: setClock(6)))
        #expect(r.nextDeadline == F.at(10))  // the track's write, 5 s after the fix was kept
        #expect(r.handle(.deadline(at: setClock(10))) == [.writeTrack])
        // The first alert check went with the startup reading (at 5): the next is 10 min on, the
        // periodic reading 30 min on, both from the monotonic 5 s.
        #expect(r.nextDeadline == F.at(5 + 600))
        _ = r.handle(.alertsChecked(activeIDs: [], at: setClock(7)))
        #expect(r.handle(.deadline(at: setClock(604))) == [])

        // NTP steps the clock back an hour; the periodic reading still comes 30 min after the first.
        func stepped(_ t: Double) -> ClockReading { ClockReading(monotonic: F.at(t), wall: F.at(t + jump - 3600)) }
        #expect(r.handle(.deadline(at: stepped(605))) == [.checkAlerts(p1)])
        _ = r.handle(.alertsChecked(activeIDs: [], at: stepped(606)))
        #expect(A.requests(r.handle(.deadline(at: stepped(1804)))) == [])
        #expect(A.requests(r.handle(.deadline(at: stepped(1805)))).map(\.trigger) == [.periodic])
    }
}
