import FixcastCore
import FoundationEssentials
import Testing

/// Which trip a point without a fix time joins: the dated fixes received around it, within the gap.
@Suite struct UndatedTripTimeTests {
    /// A replayed 2025 log received in 2026: receive times from `wall`, fix times from `logged`.
    static let wall = 1_780_000_000.0
    static let logged = 1_740_000_000.0

    static func point(_ id: Int64, received: Double, fix: Double?) -> UndatedTripTime.Item {
        UndatedTripTime.Item(
            kind: .trackPoint, id: id, receivedAt: wall + received, fixTime: fix.map { logged + $0 })
    }

    static func run(_ items: [UndatedTripTime.Item], gapMinutes: Double = 30) -> [UndatedTripTime.Assigned] {
        var rule = UndatedTripTime(gapMinutes: gapMinutes)
        for i in items { rule.add(i) }
        return rule.finish()
    }

    @Test func aFirstFixBeforeTheDateJoinsTheFixesThatFollow() {
        // The receiver's first fix (no date yet), the startup reading there, then dated fixes 5 s later.
        let items = [
            Self.point(1, received: 0, fix: nil),
            UndatedTripTime.Item(kind: .reading, id: 7, receivedAt: Self.wall + 1, fixTime: nil),
            Self.point(2, received: 5, fix: 100), Self.point(3, received: 6, fix: 101),
        ]
        let assigned = Self.run(items)
        #expect(assigned.map(\.id) == [1, 7])
        #expect(assigned.map(\.kind) == [.trackPoint, .reading])
        // The dated fix's time less how long before it the undated one came.
        #expect(assigned.map(\.tripTime) == [Self.logged + 95, Self.logged + 96])
        // Dated that way, the whole track is one trip.
        let times = items.filter { $0.kind == .trackPoint }.map { i in
            i.fixTime ?? assigned.first { $0.id == i.id }?.tripTime ?? i.receivedAt
        }
        let points = times.sorted().enumerated().map { k, t in
            TripTrackPoint(
                time: Date(timeIntervalSince1970: t), coordinate: Coordinate(lat: 50 + Double(k) * 0.01, lon: 8)!)
        }
        #expect(TripSplitter.split(points).count == 1)
    }

    @Test func aLastFixAfterTheDateWasLostJoinsTheFixesBefore() {
        let assigned = Self.run([
            Self.point(1, received: 0, fix: 0), Self.point(2, received: 10, fix: 10),
            Self.point(3, received: 70, fix: nil),
        ])
        #expect(assigned == [UndatedTripTime.Assigned(kind: .trackPoint, id: 3, tripTime: Self.logged + 70)])
    }

    @Test func theFollowingFixIsPreferredAndOnlyWithinTheGap() {
        // An undated point between two dated ones: the one after wins.
        let between = Self.run([
            Self.point(1, received: 0, fix: 0), Self.point(2, received: 60, fix: nil),
            Self.point(3, received: 120, fix: 5000),
        ])
        #expect(between.map(\.tripTime) == [Self.logged + 4940])
        // The next dated fix 40 min later (past the 30-min gap): the one before, 10 min earlier.
        let late = Self.run([
            Self.point(1, received: 0, fix: 0), Self.point(2, received: 600, fix: nil),
            Self.point(3, received: 3000, fix: 3000),
        ])
        #expect(late.map(\.tripTime) == [Self.logged + 600])
        // Nothing dated within the gap either side: it keeps its receive time (no assignment).
        let alone = Self.run([
            Self.point(1, received: 0, fix: 0), Self.point(2, received: 2000, fix: nil),
            Self.point(3, received: 4000, fix: 4000),
        ])
        #expect(alone.isEmpty)
        // A longer gap allowed makes the same point join the fix after it.
        #expect(
            Self.run(
                [
                    Self.point(1, received: 0, fix: 0), Self.point(2, received: 2000, fix: nil),
                    Self.point(3, received: 4000, fix: 4000),
                ], gapMinutes: 60
            ).map(\.tripTime) == [Self.logged + 2000])
    }

    @Test func aReadingAfterTheLastFixTakesThatFixsTimeAndAPointGoesOnFromIt() {
        // The trip's last dated fix, then (no fix after them within the gap) an undated point 4 min
        // later and a reading 5 min later: the point keeps its distance, the reading is at the end.
        let assigned = Self.run([
            Self.point(1, received: 0, fix: 600),
            Self.point(2, received: 240, fix: nil),
            UndatedTripTime.Item(kind: .reading, id: 8, receivedAt: Self.wall + 300, fixTime: nil),
        ])
        #expect(assigned.map(\.id) == [2, 8])
        #expect(assigned.map(\.tripTime) == [Self.logged + 840, Self.logged + 600])
        // Past the gap, nothing is near enough: the reading keeps its own time.
        #expect(
            Self.run([
                Self.point(1, received: 0, fix: 600),
                UndatedTripTime.Item(kind: .reading, id: 8, receivedAt: Self.wall + 1800, fixTime: nil),
            ]).isEmpty)
    }

    @Test func datedReadingsAreNotNeighboursAndAnUndatedTrackKeepsItsClock() {
        // A dated reading between an undated point and nothing else: the point has no dated fix near.
        let assigned = Self.run([
            Self.point(1, received: 0, fix: nil),
            UndatedTripTime.Item(kind: .reading, id: 9, receivedAt: Self.wall + 1, fixTime: Self.logged),
        ])
        #expect(assigned.isEmpty)
        // A long track with no fix times at all (a receiver that never gives one): nothing moves.
        var rule = UndatedTripTime()
        for i in 0..<10_000 { rule.add(Self.point(Int64(i), received: Double(i), fix: nil)) }
        #expect(rule.finish().isEmpty)
    }
}
