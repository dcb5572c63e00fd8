import FixcastCore
import Testing

/// `AntimeridianCut`: a step across ±180° is cut where it meets the line, on the side it leaves from.
struct AntimeridianCutTests {
    static func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(lat: lat, lon: lon)! }

    @Test func eastwardAcrossTheLineIsCutHalfwayAt180ThenMinus180() throws {
        let cut = try #require(AntimeridianCut.crossing(from: Self.c(-17, 179.9), to: Self.c(-17.2, -179.9)))
        #expect(cut.leavingLon == 180 && cut.enteringLon == -180)
        #expect(abs(cut.lat - -17.1) < 1e-9)
    }

    @Test func westwardIsCutAtMinus180ThenAt180() throws {
        let cut = try #require(AntimeridianCut.crossing(from: Self.c(52, -179.7), to: Self.c(52.4, 179.9)))
        #expect(cut.leavingLon == -180 && cut.enteringLon == 180)
        // 0.3° of the 0.4° step is on the west side: three quarters of the way.
        #expect(abs(cut.lat - 52.3) < 1e-9)
    }

    @Test(arguments: [(10.0, 20.0), (-179.0, 0.0), (179.0, 0.5), (-90.0, 90.0), (0.0, 180.0), (180.0, 0.1)])
    func aStepOf180DegreesOrLessIsNotCut(from: Double, to: Double) {
        #expect(AntimeridianCut.crossing(from: Self.c(0, from), to: Self.c(1, to)) == nil)
    }

    @Test func oneMeridianUnderTwoNamesIsCutAtTheFirstPosition() throws {
        let cut = try #require(AntimeridianCut.crossing(from: Self.c(5, 180), to: Self.c(6, -180)))
        #expect(cut.lat == 5 && cut.leavingLon == 180)
        let back = try #require(AntimeridianCut.crossing(from: Self.c(5, -180), to: Self.c(6, 180)))
        #expect(back.lat == 5 && back.leavingLon == -180)
    }

    @Test func theCutLatitudeStaysBetweenTheTwoPositions() throws {
        let cut = try #require(AntimeridianCut.crossing(from: Self.c(80, 100), to: Self.c(-80, -100)))
        #expect((-80...80).contains(cut.lat))
        #expect(cut.leavingLon == 180)
    }
}
