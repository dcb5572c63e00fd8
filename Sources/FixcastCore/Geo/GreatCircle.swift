import FoundationEssentials

/// Great-circle distance on a sphere of the Earth's mean radius (haversine).
///
/// The movement trigger's 5 km and the caches' 1 km / 5 km radii are far above the 0.5 % error
/// of a sphere against the ellipsoid, and haversine stays exact for the short distances that
/// dominate (a 10 Hz receiver's steps).
public enum GreatCircle {
    /// IUGG mean Earth radius, km.
    public static let earthRadiusKm = 6371.0088

    public static func distanceKm(_ a: Coordinate, _ b: Coordinate) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.lat - a.lat) * rad
        let dLon = (b.lon - a.lon) * rad
        let sinLat = Elementary.sin(dLat / 2)
        let sinLon = Elementary.sin(dLon / 2)
        let s = sinLat * sinLat + Elementary.cos(a.lat * rad) * Elementary.cos(b.lat * rad) * sinLon * sinLon
        return 2 * earthRadiusKm * Elementary.asin(min(1, Elementary.sqrt(s)))
    }

    public static func distanceM(_ a: Coordinate, _ b: Coordinate) -> Double {
        distanceKm(a, b) * 1000
    }
}
