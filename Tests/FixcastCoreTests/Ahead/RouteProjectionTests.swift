import FixcastCore
import Testing

@Suite("RouteProjection")
struct RouteProjectionTests {
    typealias F = AheadFixture

    /// 10 km east along the equator.
    static let straight = F.geometry([F.east(0), F.east(5_000), F.east(10_000)])
    /// Out 10 km east, and back west 100 m further north: the two passes are 100 m apart.
    static let outAndBack = F.geometry([F.east(0), F.east(10_000), F.east(10_000, north: 100), F.east(0, north: 100)])

    @Test func distanceAlongAndRemainingOnAStraightRoute() {
        var follower = RouteProjection(route: Self.straight, offRouteLimitM: 500)
        let p = follower.update(F.east(3_000, north: 40), at: F.at(0))
        #expect(abs(p.alongM - 3_000) < 1)
        #expect(abs(p.remainingM - 7_000) < 1)
        #expect(abs(p.offRouteM - 40) < 0.5)
        #expect(abs(p.bearingDeg - 90) < 1e-6)
        #expect(p.change == nil && !p.isOffRoute)
    }

    @Test func aLoopingRouteDoesNotJumpToTheOtherPass() {
        var follower = RouteProjection(route: Self.outAndBack, offRouteLimitM: 500)
        // On the way out, 90 m north of the outbound leg: the inbound leg (10 m away) is nearer, but
        // it is 16 km ahead along the route.
        #expect(abs(follower.update(F.east(1_000), at: F.at(0)).alongM - 1_000) < 1)
        let out = follower.update(F.east(2_000, north: 90), at: F.at(60))
        #expect(abs(out.alongM - 2_000) < 1)
        #expect(abs(out.bearingDeg - 90) < 1e-6)
        // Drive on to the far end and back: the inbound pass is then followed.
        var t = 60.0
        for m in stride(from: 3_000.0, through: 10_000, by: 1_000) {
            t += 40
            _ = follower.update(F.east(m), at: F.at(t))
        }
        _ = follower.update(F.east(10_000, north: 100), at: F.at(t + 10))
        let back = follower.update(F.east(8_000, north: 40), at: F.at(t + 80))
        #expect(abs(back.alongM - (10_000 + 100 + 2_000)) < 2)
        #expect(abs(back.bearingDeg - 270) < 1e-3)
    }

    /// Near the turn of an out-and-back the way back is inside the search window: a fix nearer the way
    /// back (a parallel lane, GPS error) stays on the way out until the turn is passed. Before, it took
    /// the way back, was then held behind it, left the route after 60 s and followed the course away.
    @Test func nearTheTurnTheWayOutIsKept() {
        let tight = F.geometry([F.east(0), F.east(10_000), F.east(10_000, north: 40), F.east(0, north: 40)])
        var follower = RouteProjection(route: tight, offRouteLimitM: 500)
        var t = 0.0
        for m in stride(from: 7_000.0, through: 9_900, by: 25) {
            // Swinging across the lane, at times nearer the way back (40 m north) than the way out.
            let p = follower.update(F.east(m, north: m.truncatingRemainder(dividingBy: 100) == 0 ? 30 : 5), at: F.at(t))
            #expect(abs(p.alongM - m) < 1, "at \(m) m out: \(p.alongM)")
            #expect(abs(p.bearingDeg - 90) < 1e-3)
            t += 1
        }
        // Round the turn and back: the way back is followed.
        _ = follower.update(F.east(10_000, north: 20), at: F.at(t + 2))
        let back = follower.update(F.east(9_900, north: 40), at: F.at(t + 6))
        #expect(abs(back.alongM - (10_000 + 40 + 100)) < 2)
        #expect(abs(back.bearingDeg - 270) < 1e-3)
        #expect(!back.isOffRoute)
    }

    /// A way back drawn on the same points as the way out (a GPX of an out-and-back): the two passes
    /// tie to the last bit. Out to the turn and back to the start, with a few metres of jitter, the
    /// projection follows the drive: the way out until the turn, the way back after it (it neither
    /// jumped ahead to the way back early, nor went on down the way out backwards after the turn).
    @Test func aWayBackOnTheSamePointsIsFollowedBothWays() {
        let points = [F.east(0), F.east(2_000, north: 300), F.east(4_000, north: -200), F.east(5_700)]
        let route = F.geometry(points + points.reversed().dropFirst())
        Self.drive(route, stepM: 18)
        Self.drive(route, stepM: 18, course: true)
        Self.drive(route, stepM: 60)
    }

    /// Two carriageways 10 m apart, out on one and back on the other.
    @Test func twoCarriagewaysCloseTogetherAreFollowedBothWays() {
        let out = [F.east(0), F.east(3_000, north: 400), F.east(6_000)]
        let back = [F.east(6_000, north: 10), F.east(3_000, north: 410), F.east(0, north: 10)]
        let route = F.geometry(out + back)
        Self.drive(route, stepM: 25)
        Self.drive(route, stepM: 25, course: true)
        Self.drive(route, stepM: 70)
    }

    /// Stopped at the turn of an out-and-back on the same points: the pace is 0, the way out and the
    /// way back are as near and as far from where the traveller should be; the way back (ahead) wins,
    /// and the projection never walks back down the way out (it did, to the start, a fix at a time).
    @Test func aStopAtTheTurnGoesOnDownTheWayBack() {
        let points = [F.east(0), F.east(700, north: 40), F.east(1_500)]
        let route = F.geometry(points + points.reversed().dropFirst())
        let turn = route.lengthM / 2
        var follower = RouteProjection(route: route, offRouteLimitM: 500)
        var t = 0.0
        var truth: [Double] = Array(stride(from: 5.0, to: turn, by: 15)) + Array(repeating: turn, count: 5)
        truth += Array(stride(from: turn + 15, to: route.lengthM - 5, by: 15))
        for along in truth {
            let p = follower.update(route.point(atAlongM: along).coordinate, at: F.at(t))
            #expect(abs(p.alongM - along) < 30, "at \(along) m (turn \(turn)): projected \(p.alongM) m")
            t += 1
        }
    }

    /// Whatever the fixes do, nothing more than `backToleranceM` behind the furthest projection is
    /// searched again: driving the road backwards from 4 km does not walk the projection back.
    @Test func neverBackFromTheFurthestPointByMoreThanTheTolerance() {
        var follower = RouteProjection(route: Self.straight, offRouteLimitM: 500)
        var t = 0.0
        for m in stride(from: 3_000.0, through: 4_000, by: 20) {
            _ = follower.update(F.east(m), at: F.at(t))
            t += 1
        }
        for m in stride(from: 3_980.0, through: 3_000, by: -20) {
            let p = follower.update(F.east(m), at: F.at(t))
            #expect(p.alongM >= 4_000 - RouteProjection.backToleranceM - 1e-6, "\(m): \(p.alongM)")
            t += 1
        }
        #expect(abs((follower.furthestAlongM ?? 0) - 4_000) < 1e-6)
    }

    /// A switchback: legs of 300 m, 30 m apart. One fix thrown 28 m across, 2 m from the next leg (600 m
    /// on along the road), is not taken for it: 600 m from where the traveller should be outweighs
    /// the 26 m it is nearer. Nearest alone took it, and forward only kept it there.
    @Test func aFixThrownNearTheNextLegOfASwitchbackStaysOnItsOwn() {
        var points: [Coordinate] = []
        for k in 0..<4 {
            let north = 30 * Double(k)
            let ends = [F.east(0, north: north), F.east(300, north: north)]
            points += k % 2 == 0 ? ends : ends.reversed()
        }
        let route = F.geometry(points)
        var follower = RouteProjection(route: route, offRouteLimitM: 500)
        var t = 0.0
        for m in stride(from: 20.0, through: 150, by: 10) {
            let thrown = m == 100
            let p = follower.update(F.east(m, north: thrown ? 28 : 0), at: F.at(t))
            let label = thrown ? "at \(m) m (thrown)" : "at \(m) m"
            #expect(abs(p.alongM - m) < 5, "\(label): projected \(p.alongM) m")
            t += 1
        }
    }

    /// Out 3 km east and back on the same points: the two passes tie everywhere but in their direction.
    static let sameWayBack = F.geometry([F.east(0), F.east(1_500), F.east(3_000), F.east(1_500), F.east(0)])

    /// Stopped 300 m before the turn (the pace is 0), then the receiver is silent for two minutes while
    /// the traveller turns and comes back 100 m: by position and pace alone the way out is the pass
    /// (it is the nearer to where a stopped traveller should be), and it took the projection back down
    /// the way out for 100 m. The fix's course, west, puts it on the way back at once.
    @Test func aTurnPassedUnseenIsTakenFromTheCourse() {
        let turn = 3_000.0
        for (course, speed, expected) in [(270.0, 12.0, turn + 100), (270, 1.5, turn - 100), (nil, nil, turn - 100)] {
            var follower = RouteProjection(route: Self.sameWayBack, offRouteLimitM: 500)
            var t = 0.0
            for m in stride(from: 2_000.0, through: 2_700, by: 50) {
                _ = follower.update(F.east(m), courseDeg: 90, speedMps: 12, at: F.at(t))
                t += 4
            }
            for _ in 0..<3 {
                _ = follower.update(F.east(2_700), courseDeg: 90, speedMps: 0, at: F.at(t))
                t += 1
            }
            // A slow course (1.5 m/s) is noise and not used: position and pace decide, as with none.
            let p = follower.update(F.east(2_900), courseDeg: course, speedMps: speed, at: F.at(t + 120))
            #expect(
                abs(p.alongM - expected) < 1,
                "course \(String(describing: course)) at \(String(describing: speed)) m/s: \(p.alongM)")
        }
    }

    /// The first fix on the way back of a route drawn on the same points: by position alone the earliest
    /// pass (the way out) is taken; heading west at 20 m/s, the way back is.
    @Test func theFirstFixHeadingBackTakesTheWayBack() {
        var follower = RouteProjection(route: Self.sameWayBack, offRouteLimitM: 500)
        #expect(abs(follower.update(F.east(1_000), courseDeg: 270, speedMps: 20, at: F.at(0)).alongM - 5_000) < 1)
        var positionOnly = RouteProjection(route: Self.sameWayBack, offRouteLimitM: 500)
        #expect(abs(positionOnly.update(F.east(1_000), at: F.at(0)).alongM - 1_000) < 1)
        // Heading east, the way out.
        var out = RouteProjection(route: Self.sameWayBack, offRouteLimitM: 500)
        #expect(abs(out.update(F.east(1_000), courseDeg: 90, speedMps: 20, at: F.at(0)).alongM - 1_000) < 1)
    }

    /// At the first fix a wrong course (a U-turn, a car park's exit) does not send the projection to a
    /// part of the route that merely heads the right way far from the fix: only the passes within
    /// `wrongWayM` of the nearest are weighed by the course. It went 15 km ahead on a 40 km route, and
    /// forward only held it there.
    @Test func aWrongCourseAtTheFirstFixDoesNotJumpAhead() {
        // East 20 km, north 2 km, west to 10.4 km, then south across the start's road: the southward
        // leg passes 400 m from the fix at 10 km, 23.6 km further on, at right angles to a westward
        // course (no wrong way); the fix's own pass heads against it.
        let route = F.geometry([
            F.east(0), F.east(20_000), F.east(20_000, north: 2_000), F.east(10_400, north: 2_000),
            F.east(10_400, north: -2_000),
        ])
        var follower = RouteProjection(route: route, offRouteLimitM: 500)
        let p = follower.update(F.east(10_000, north: 5), courseDeg: 270, speedMps: 8, at: F.at(0))
        #expect(abs(p.alongM - 10_000) < 1, "\(p.alongM)")
    }

    /// A course against the route costs at most `wrongWayM`: a pass heading the other way that is much
    /// nearer the fix than the one heading its way still wins (a course can be wrong for a fix).
    @Test func theCourseDoesNotOutweighAMuchNearerPass() {
        var follower = RouteProjection(route: Self.straight, offRouteLimitM: 500)
        let p = follower.update(F.east(4_000, north: 30), courseDeg: 270, speedMps: 15, at: F.at(0))
        #expect(abs(p.alongM - 4_000) < 1)
    }

    /// Drives the whole of `route` with fixes `stepM` apart a second apart, jittered by a few metres
    /// across, and expects each projection within 10 m of the true distance along.
    /// With `course`, each fix also carries the route's bearing there, 20° off either way by turns (a
    /// receiver's course lags and wanders at a bend), at 15 m/s.
    static func drive(_ route: RouteGeometry, stepM: Double, course: Bool = false) {
        var follower = RouteProjection(route: route, offRouteLimitM: 500)
        var k = 0
        var along = 5.0
        while along < route.lengthM - 5 {
            let on = route.point(atAlongM: along).coordinate
            let jitter = Double((k * 37) % 11 - 5)
            let fix = Coordinate(lat: on.lat + jitter * 1e-5, lon: on.lon)!
            let heading = course ? route.point(atAlongM: along).bearingDeg + (k % 2 == 0 ? 20 : -20) : nil
            let p = follower.update(fix, courseDeg: heading, speedMps: 15, at: F.at(Double(k)))
            #expect(
                abs(p.alongM - along) < 10,
                "step \(stepM) m, course \(course), fix \(k) at \(along) m: projected at \(p.alongM) m")
            #expect(!p.isOffRoute)
            k += 1
            along += stepM
        }
    }

    @Test func theFirstFixOnALoopTakesTheStartNotTheFinish() {
        let lap = F.geometry([
            F.east(0), F.east(5_000), F.east(5_000, north: 5_000), F.east(0, north: 5_000), F.east(0, north: 10),
        ])
        var follower = RouteProjection(route: lap, offRouteLimitM: 500)
        #expect(follower.update(F.east(0, north: 5), at: F.at(0)).alongM < 10)
    }

    @Test func neverBackwardBeyondTheTolerance() {
        var follower = RouteProjection(route: Self.straight, offRouteLimitM: 500)
        _ = follower.update(F.east(4_000), at: F.at(0))
        let back = follower.update(F.east(3_000), at: F.at(10))
        #expect(abs(back.alongM - (4_000 - RouteProjection.backToleranceM)) < 1)
        let jitter = follower.update(F.east(3_980), at: F.at(20))
        #expect(abs(jitter.alongM - 3_980) < 1)
    }

    @Test func farAheadIsFoundAfterAGapButNotRightAway() {
        let long = F.geometry([F.east(0), F.east(60_000)])
        var follower = RouteProjection(route: long, offRouteLimitM: 500)
        _ = follower.update(F.east(1_000), at: F.at(0))
        // 30 km on, 10 minutes later (a tunnel): the window has grown by 70 m/s × 600 s.
        let after = follower.update(F.east(31_000), at: F.at(600))
        #expect(abs(after.alongM - 31_000) < 1)
        // 20 km on one second later is beyond the window: the projection stops at its edge, off the route.
        let jump = follower.update(F.east(51_000), at: F.at(601))
        #expect(jump.alongM < 31_000 + RouteProjection.forwardMarginM + RouteProjection.maxPlausibleSpeedMps + 100)
        #expect(jump.offRouteM > 500)
    }

    @Test func offTheRouteFor60sFallsBackAndRejoiningIsNoticed() {
        var follower = RouteProjection(route: Self.straight, offRouteLimitM: 500)
        _ = follower.update(F.east(2_000), at: F.at(0))
        let first = follower.update(F.east(2_100, north: 800), at: F.at(10))
        #expect(first.change == nil && !first.isOffRoute)
        #expect(follower.update(F.east(2_200, north: 900), at: F.at(69)).isOffRoute == false)
        let left = follower.update(F.east(2_300, north: 900), at: F.at(70))
        #expect(left.change == .leftRoute && left.isOffRoute)
        let still = follower.update(F.east(2_400, north: 900), at: F.at(100))
        #expect(still.change == nil && still.isOffRoute)
        // Back on 6 km further along (a detour): found, although beyond the usual window's start.
        let back = follower.update(F.east(8_000, north: 100), at: F.at(400))
        #expect(back.change == .rejoinedRoute && !back.isOffRoute)
        #expect(abs(back.alongM - 8_000) < 1)
        #expect(follower.update(F.east(8_100), at: F.at(405)).change == nil)
    }

    @Test func aShortExcursionIsNotLeavingTheRoute() {
        var follower = RouteProjection(route: Self.straight, offRouteLimitM: 500)
        _ = follower.update(F.east(2_000), at: F.at(0))
        _ = follower.update(F.east(2_100, north: 800), at: F.at(10))
        _ = follower.update(F.east(2_200), at: F.at(50))
        let later = follower.update(F.east(2_300, north: 800), at: F.at(60))
        #expect(!later.isOffRoute && later.change == nil)
        #expect(follower.update(F.east(2_400, north: 800), at: F.at(119)).change == nil)
        #expect(follower.update(F.east(2_400, north: 800), at: F.at(120)).change == .leftRoute)
    }

    @Test func aRouteAcrossTheAntimeridian() {
        let route = F.geometry([F.c(-17, 179.9), F.c(-17, -179.9)])
        var follower = RouteProjection(route: route, offRouteLimitM: 500)
        let p = follower.update(F.c(-17, 180), at: F.at(0))
        // The route is the great circle between its points, 2.7 m south of the parallel at 180°.
        #expect(p.offRouteM < 3)
        #expect(abs(p.alongM - route.lengthM / 2) < 5)
        #expect(route.lengthM < 25_000)
        let end = route.point(atAlongM: route.lengthM)
        #expect(abs(end.coordinate.lon - (-179.9)) < 1e-6)
    }
}
