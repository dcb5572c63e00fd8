import FixcastCore
import Foundation

/// Shared values for the weather-ahead tests: a start time, and routes built east along a parallel.
enum AheadFixture {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static func at(_ s: Double) -> Date { t0.addingTimeInterval(s) }

    static func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(lat: lat, lon: lon)! }

    /// Metres per degree of latitude on the mean sphere.
    static let mPerDegLat = GreatCircle.earthRadiusKm * 1000 * Double.pi / 180

    /// A point `m` metres east of longitude 0 on the equator.
    static func east(_ m: Double, north: Double = 0) -> Coordinate {
        c(north / mPerDegLat, m / mPerDegLat)
    }

    /// Degrees between two angles the short way round.
    static func angleApart(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    static func geometry(_ points: [Coordinate], name: String? = nil) -> RouteGeometry {
        RouteGeometry(GPXRoute(name: name, points: points))!
    }
}
