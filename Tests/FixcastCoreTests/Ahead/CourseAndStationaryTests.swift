import FixcastCore
import Testing

@Suite("CourseSmoother, StationaryDetector, AheadBasis")
struct CourseAndStationaryTests {
    typealias F = AheadFixture

    @Test func tracksAroundNorthAverageToNorth() {
        var course = CourseSmoother()
        course.observe(trackDeg: 350, speedMps: 20, at: F.at(0))
        course.observe(trackDeg: 10, speedMps: 20, at: F.at(1))
        let deg = course.courseDeg ?? 180
        #expect(min(deg, 360 - deg) < 1e-9)
    }

    @Test func fasterFixesWeighMore() {
        var course = CourseSmoother()
        course.observe(trackDeg: 0, speedMps: 30, at: F.at(0))
        course.observe(trackDeg: 90, speedMps: 10, at: F.at(1))
        let expected = 18.434_948_822_922  // atan2(10, 30)
        #expect(abs((course.courseDeg ?? 0) - expected) < 1e-6)
    }

    @Test func slowFixesKeepTheLastGoodCourse() {
        var course = CourseSmoother()
        #expect(course.courseDeg == nil)
        course.observe(trackDeg: 45, speedMps: 10, at: F.at(0))
        course.observe(trackDeg: 200, speedMps: 1.9, at: F.at(10))
        course.observe(trackDeg: nil, speedMps: 15, at: F.at(20))
        #expect(course.courseDeg == 45)
        // After the window, the old fix no longer counts, and the slow ones still do not.
        course.observe(trackDeg: 300, speedMps: 0.5, at: F.at(500))
        #expect(course.courseDeg == 45)
        course.observe(trackDeg: 270, speedMps: 2, at: F.at(510))
        #expect(course.courseDeg == 270)
    }

    @Test func theWindowForgetsOldTracks() {
        var course = CourseSmoother()
        course.observe(trackDeg: 0, speedMps: 20, at: F.at(0))
        course.observe(trackDeg: 90, speedMps: 20, at: F.at(CourseSmoother.windowS + 1))
        #expect(course.courseDeg == 90)
    }

    @Test func aUTurnInsideTheWindowKeepsTheLastCourse() {
        var course = CourseSmoother()
        course.observe(trackDeg: 90, speedMps: 20, at: F.at(0))
        course.observe(trackDeg: 270, speedMps: 20, at: F.at(1))
        #expect(course.courseDeg == 90)
    }

    @Test func stationaryAfterTwoMinutesSlow() {
        var s = StationaryDetector()
        s.observe(speedMps: 0.5, at: F.at(0))
        s.observe(speedMps: nil, at: F.at(60))
        s.observe(speedMps: 0.9, at: F.at(119))
        #expect(!s.isStationary(at: F.at(119)))
        #expect(s.isStationary(at: F.at(120)))
        s.observe(speedMps: 1.0, at: F.at(121))
        #expect(!s.isStationary(at: F.at(300)))
        #expect(!StationaryDetector().isStationary(at: F.at(1_000)))
    }

    @Test func theBasisIsTheFirstThatApplies() {
        #expect(AheadBasis.choose(onRoute: true, hasSpeed: true, hasCourse: true, isStationary: false) == .route)
        #expect(AheadBasis.choose(onRoute: true, hasSpeed: false, hasCourse: true, isStationary: true) == .stationary)
        #expect(AheadBasis.choose(onRoute: false, hasSpeed: true, hasCourse: true, isStationary: false) == .course)
        #expect(AheadBasis.choose(onRoute: false, hasSpeed: true, hasCourse: true, isStationary: true) == .stationary)
        #expect(AheadBasis.choose(onRoute: false, hasSpeed: true, hasCourse: false, isStationary: false) == nil)
        #expect(AheadBasis.choose(onRoute: false, hasSpeed: false, hasCourse: true, isStationary: false) == nil)
    }
}
