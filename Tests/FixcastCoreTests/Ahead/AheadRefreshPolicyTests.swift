import FixcastCore
import Testing

@Suite("AheadRefreshPolicy")
struct AheadRefreshPolicyTests {
    typealias F = AheadFixture
    typealias B = AheadRefreshPolicy.Basis
    static let onRoute = B(basis: .route, routeID: "a.gpx@1", offRoute: false)
    static let offRoute = B(basis: .course, routeID: "a.gpx@1", offRoute: true)
    static let course = B(basis: .course, routeID: nil, offRoute: false)

    static func started(_ basis: B = onRoute) -> AheadRefreshPolicy {
        var p = AheadRefreshPolicy(refreshMin: 15)
        p.refreshed(at: F.at(0), basis: basis)
        return p
    }

    @Test func theFirstReadingAsksAndThenAtMostEveryInterval() {
        var p = AheadRefreshPolicy(refreshMin: 15)
        #expect(p.reason(at: F.at(0), basis: Self.course) == .first)
        #expect(p.reason(at: F.at(0), basis: nil) == nil)
        p.refreshed(at: F.at(0), basis: Self.course)
        #expect(p.reason(at: F.at(60), basis: Self.course) == nil)
        #expect(p.reason(at: F.at(899), basis: Self.course) == nil)
        #expect(p.reason(at: F.at(900), basis: Self.course) == .due)
        p.refreshed(at: F.at(900), basis: Self.course)
        #expect(p.reason(at: F.at(1_000), basis: Self.course) == nil)
    }

    @Test func leavingAndRejoiningTheRouteAskSooner() {
        var p = Self.started()
        #expect(p.reason(at: F.at(120), basis: Self.offRoute) == .leftRoute)
        p.refreshed(at: F.at(120), basis: Self.offRoute)
        #expect(p.reason(at: F.at(200), basis: Self.offRoute) == nil)
        #expect(p.reason(at: F.at(300), basis: Self.onRoute) == .rejoinedRoute)
    }

    @Test func aNewRouteAsksSooner() {
        let p = Self.started(Self.course)
        #expect(p.reason(at: F.at(120), basis: Self.onRoute) == .newRoute)
        let q = Self.started()
        #expect(q.reason(at: F.at(120), basis: B(basis: .route, routeID: "b.gpx@1", offRoute: false)) == .newRoute)
        // Dropping the route is not a route event; the interval decides.
        #expect(q.reason(at: F.at(120), basis: Self.course) == nil)
    }

    @Test func courseAndStationaryWaitForTheInterval() {
        let p = Self.started(Self.course)
        #expect(p.reason(at: F.at(300), basis: B(basis: .stationary, routeID: nil, offRoute: false)) == nil)
    }

    @Test func aPersonForcesItButNotTwiceInAMinute() {
        let p = Self.started()
        #expect(p.reason(at: F.at(59), basis: Self.onRoute, forced: true) == nil)
        #expect(p.reason(at: F.at(60), basis: Self.onRoute, forced: true) == .forced)
        #expect(p.reason(at: F.at(30), basis: Self.offRoute) == nil)  // the floor holds for route changes too
    }

    @Test func aClockSetBackMakesOneDueInsteadOfHoldingForTheStep() {
        var p = Self.started()
        // NTP sets back a clock that ran 2 h ahead: the last refresh now reads as in the future.
        #expect(p.reason(at: F.at(-7_200), basis: Self.onRoute) == .due)
        p.refreshed(at: F.at(-7_200), basis: Self.onRoute)
        #expect(p.reason(at: F.at(-7_100), basis: Self.onRoute) == nil)
        #expect(p.reason(at: F.at(-7_200 + 900), basis: Self.onRoute) == .due)
        // A step back of seconds keeps the floor, forced or not.
        let q = Self.started()
        #expect(q.reason(at: F.at(-2), basis: Self.onRoute, forced: true) == nil)
    }
}
