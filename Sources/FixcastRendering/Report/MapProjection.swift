import FixcastCore
import FoundationEssentials

/// How the report's map turns coordinates into plane metres (y north), chosen from the track's
/// own extent so that a trip is drawn at its own size wherever on Earth it is.
///
/// - Web Mercator centred on the track's middle longitude: the map people know, and a track that
///   crosses ±180° stays one piece (longitudes are measured from the centre, not from Greenwich).
/// - A local azimuthal equidistant projection centred on the track when it goes beyond
///   `polarLatitude`: Mercator cannot show the pole (web maps cut at 85.05°) and its scale runs away
///   there, while distances from the centre stay true in this one at any latitude.
public enum MapProjection: Sendable, Hashable {
    case mercator(centralLongitude: Double)
    case azimuthalEquidistant(centre: Coordinate)

    /// Above 80° Mercator's scale changes by more than 4 % across 50 km of latitude (1/cos φ), so a
    /// single scale bar would no longer be true over the map; nearer still it cannot be drawn at all.
    public static let polarLatitude = 80.0

    /// The projection for a track (and the readings beside it): azimuthal equidistant near a pole,
    /// else Mercator centred on the middle of the track's unwrapped longitudes.
    public static func fitting(_ coordinates: [Coordinate]) -> MapProjection {
        guard !coordinates.isEmpty else { return .mercator(centralLongitude: 0) }
        if coordinates.contains(where: { abs($0.lat) > polarLatitude }) {
            return .azimuthalEquidistant(centre: centroid(coordinates))
        }
        // Unwrap along the track: each step takes the short way round, so 179.9° → -179.9° is 0.2°.
        var previous = coordinates[0].lon
        var unwrapped = previous
        var lo = previous
        var hi = previous
        for c in coordinates.dropFirst() {
            unwrapped += wrap(c.lon - previous)
            previous = c.lon
            lo = min(lo, unwrapped)
            hi = max(hi, unwrapped)
        }
        return .mercator(centralLongitude: wrap((lo + hi) / 2))
    }

    /// The point on the sphere nearest the mean of the coordinates' unit vectors (the first
    /// coordinate when they cancel out, as two antipodes do).
    static func centroid(_ coordinates: [Coordinate]) -> Coordinate {
        let rad = Double.pi / 180
        var x = 0.0
        var y = 0.0
        var z = 0.0
        for c in coordinates {
            let phi = c.lat * rad
            let lambda = c.lon * rad
            x += Elementary.cos(phi) * Elementary.cos(lambda)
            y += Elementary.cos(phi) * Elementary.sin(lambda)
            z += Elementary.sin(phi)
        }
        let h = (x * x + y * y).squareRoot()
        guard h + abs(z) > 1e-12 else { return coordinates[0] }
        let lat = Elementary.atan2(z, h) / rad
        let lon = h > 1e-15 ? Elementary.atan2(y, x) / rad : 0
        return Coordinate(lat: max(-90, min(90, lat)), lon: max(-180, min(180, lon))) ?? coordinates[0]
    }

    /// An angle in degrees brought into [-180, 180).
    public static func wrap(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d >= 180 { d -= 360 }
        if d < -180 { d += 360 }
        return d
    }

    /// Plane metres of `c` (y north).
    public func project(_ c: Coordinate) -> PlanePoint {
        let r = WebMercator.radiusM
        let rad = Double.pi / 180
        switch self {
        case .mercator(let lon0):
            return PlanePoint(x: r * Self.wrap(c.lon - lon0) * rad, y: WebMercator.northing(latitude: c.lat))
        case .azimuthalEquidistant(let centre):
            let phi0 = centre.lat * rad
            let phi = c.lat * rad
            let dLambda = (c.lon - centre.lon) * rad
            // The point's unit vector in the tangent plane at the centre (east, north) and along it.
            let east = Elementary.cos(phi) * Elementary.sin(dLambda)
            let north =
                Elementary.cos(phi0) * Elementary.sin(phi) - Elementary.sin(phi0) * Elementary.cos(phi)
                * Elementary.cos(dLambda)
            let up =
                Elementary.sin(phi0) * Elementary.sin(phi) + Elementary.cos(phi0) * Elementary.cos(phi)
                * Elementary.cos(dLambda)
            let sinC = (east * east + north * north).squareRoot()
            guard sinC > 1e-15 else { return PlanePoint(x: 0, y: 0) }
            // The angular distance from the centre, kept true on the plane.
            let k = r * Elementary.atan2(sinC, up) / sinC
            return PlanePoint(x: k * east, y: k * north)
        }
    }

    /// The coordinate at plane metres `p`; nil off the projection's domain.
    public func coordinate(_ p: PlanePoint) -> Coordinate? {
        let r = WebMercator.radiusM
        let rad = Double.pi / 180
        guard p.x.isFinite, p.y.isFinite else { return nil }
        switch self {
        case .mercator(let lon0):
            let lat = (2 * Elementary.atan(Elementary.exp(p.y / r)) - .pi / 2) / rad
            return Coordinate(lat: lat, lon: Self.wrap(lon0 + p.x / r / rad))
        case .azimuthalEquidistant(let centre):
            let rho = (p.x * p.x + p.y * p.y).squareRoot()
            guard rho > 1e-9 else { return centre }
            let c = rho / r
            guard c <= .pi else { return nil }
            let phi0 = centre.lat * rad
            let sinPhi = Elementary.cos(c) * Elementary.sin(phi0) + p.y * Elementary.sin(c) * Elementary.cos(phi0) / rho
            let lat = Elementary.asin(max(-1, min(1, sinPhi))) / rad
            let lambda = Elementary.atan2(
                p.x * Elementary.sin(c),
                rho * Elementary.cos(phi0) * Elementary.cos(c) - p.y * Elementary.sin(phi0) * Elementary.sin(c))
            return Coordinate(lat: lat, lon: Self.wrap(centre.lon + lambda / rad))
        }
    }

    /// Ground metres per projected metre where the scale bar is read: Mercator's 1/cos φ stretch at
    /// `latitude`; 1 for the azimuthal projection (true from its centre, and the map is small).
    public func groundScale(atLatitude latitude: Double) -> Double {
        switch self {
        case .mercator: return WebMercator.groundScale(atLatitude: latitude)
        case .azimuthalEquidistant: return 1
        }
    }
}
