import FixcastCore
import Testing

@testable import FixcastCore

@Suite("RouteGeometry")
struct RouteGeometryTests {
    /// A planner's two points 255 km apart (Berlin to Hamburg): a traveller on the great circle between
    /// them, where the samples are laid, is on the route, not 1.8 km off it at the middle as the flat
    /// map of a 255 km straight segment made it; and the distance along is the great circle's.
    @Test func aLongLegIsFollowedOnItsGreatCircle() {
        let berlin = AheadFixture.c(52.52, 13.405)
        let hamburg = AheadFixture.c(53.551, 9.994)
        let route = AheadFixture.geometry([berlin, hamburg])
        let leg = GreatCircle.distanceM(berlin, hamburg)
        #expect(abs(route.lengthM - leg) < 0.01)
        #expect(route.points.count == Int((leg / RouteGeometry.maxSegmentM).rounded(.up)) + 1)
        for k in 1..<route.points.count {
            #expect(route.alongM[k] - route.alongM[k - 1] <= RouteGeometry.maxSegmentM + 1e-6)
        }
        for f in [0.1, 0.5, 0.9] {
            let on = SphereNavigation.intermediate(berlin, hamburg, fraction: f)
            var follower = RouteProjection(route: route, offRouteLimitM: 500)
            let p = follower.update(on, at: AheadFixture.at(0))
            #expect(p.offRouteM < 1, "at \(f): \(p.offRouteM) m off")
            #expect(abs(p.alongM - leg * f) < 1, "at \(f): \(p.alongM) m along, not \(leg * f)")
        }
    }

    /// A route over the pole ((89° N, 0) to (89° N, 180)): a fix on it at 89.5° N is on it.
    @Test func aLegOverThePole() {
        let route = AheadFixture.geometry([AheadFixture.c(89, 0), AheadFixture.c(89, 180)])
        var follower = RouteProjection(route: route, offRouteLimitM: 500)
        let p = follower.update(AheadFixture.c(89.5, 0), at: AheadFixture.at(0))
        #expect(p.offRouteM < 5, "\(p.offRouteM) m off")
        #expect(abs(p.alongM - 0.5 * AheadFixture.mPerDegLat) < 5)
    }

    /// A few points round the world cannot become millions: the points added are capped, spaced
    /// farther apart instead.
    @Test func theAddedPointsAreCapped() {
        let world = (0..<40).map { AheadFixture.c(0, Double($0 % 2 == 0 ? 0 : 179)) }
        let route = AheadFixture.geometry(world)
        #expect(route.points.count <= world.count + RouteGeometry.maxAddedPoints + world.count)
        #expect(route.points.count > RouteGeometry.maxAddedPoints / 2)
        #expect(abs(route.lengthM - 39 * GreatCircle.distanceM(world[0], world[1])) < 1)
    }

    /// A dense route (every leg under 2 km) keeps its points as they are.
    @Test func aDenseRouteIsKeptAsItIs() {
        let points = (0..<50).map { AheadFixture.east(Double($0) * 900) }
        #expect(AheadFixture.geometry(points).points == points)
    }
}
