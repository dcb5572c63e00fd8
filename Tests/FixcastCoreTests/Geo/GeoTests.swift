import Testing

@testable import FixcastCore

@Suite struct CoordinateTests {
    @Test(arguments: [
        (91.0, 0.0), (-90.5, 0.0), (0.0, 180.5), (0.0, -181.0), (Double.nan, 0.0), (0.0, Double.infinity),
    ])
    func rejectsOutOfRange(_ lat: Double, _ lon: Double) {
        #expect(Coordinate(lat: lat, lon: lon) == nil)
    }

    @Test func parsesTheAtOption() {
        #expect(Coordinate(parsing: "52.52,13.405") == Coordinate(lat: 52.52, lon: 13.405))
        #expect(Coordinate(parsing: "52.52, 13.405") == Coordinate(lat: 52.52, lon: 13.405))
        #expect(Coordinate(parsing: "90,180") != nil)
        #expect(Coordinate(parsing: "52.52") == nil)
        #expect(Coordinate(parsing: "a,b") == nil)
        #expect(Coordinate(parsing: "1,2,3") == nil)
    }
}

@Suite struct GreatCircleTests {
    // Reference distances from the spherical law of cosines with R = 6371.0088 km, computed independently.
    @Test func knownDistances() throws {
        let berlin = try #require(Coordinate(lat: 52.52, lon: 13.405))
        let paris = try #require(Coordinate(lat: 48.8566, lon: 2.3522))
        #expect(abs(GreatCircle.distanceKm(berlin, paris) - 877.5) < 1.0)
        let a = try #require(Coordinate(lat: 0, lon: 179.99))
        let b = try #require(Coordinate(lat: 0, lon: -179.99))
        #expect(abs(GreatCircle.distanceKm(a, b) - 2.224) < 0.01)  // across the antimeridian
        #expect(GreatCircle.distanceKm(berlin, berlin) == 0)
    }

    @Test func aDegreeOfLatitude() throws {
        let a = try #require(Coordinate(lat: 10, lon: 20))
        let b = try #require(Coordinate(lat: 11, lon: 20))
        #expect(abs(GreatCircle.distanceKm(a, b) - 6371.0088 * Double.pi / 180) < 1e-6)
    }
}
