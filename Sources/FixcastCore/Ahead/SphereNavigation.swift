/// Bearings and great-circle destinations on the same sphere as `GreatCircle` (mean Earth radius).
///
/// Dead reckoning and the samples along a route need "where am I after d metres on bearing θ" and
/// "which way is B from A"; on a sphere these stay right over the poles and across the antimeridian,
/// where a flat lat/lon step goes wrong. The sphere's 0.5 % error against the ellipsoid is far below
/// a travel-time estimate's.
public enum SphereNavigation {
    static let radiansPerDegree = Double.pi / 180

    /// The initial bearing from `a` to `b`, degrees clockwise from true north in [0, 360).
    public static func bearingDeg(from a: Coordinate, to b: Coordinate) -> Double {
        let r = radiansPerDegree
        let phi1 = a.lat * r
        let phi2 = b.lat * r
        let dLon = (b.lon - a.lon) * r
        let y = Elementary.sin(dLon) * Elementary.cos(phi2)
        let x =
            Elementary.cos(phi1) * Elementary.sin(phi2) - Elementary.sin(phi1) * Elementary.cos(phi2)
            * Elementary.cos(dLon)
        return CompassDegrees.folded(Elementary.atan2(y, x) / r)
    }

    /// The point `distanceM` along the great circle leaving `from` on `bearingDeg`, and the bearing
    /// of travel on arrival there (a great circle's heading changes along it).
    public static func destination(from: Coordinate, bearingDeg: Double, distanceM: Double) -> (
        coordinate: Coordinate, bearingDeg: Double
    ) {
        let r = radiansPerDegree
        let delta = distanceM / (GreatCircle.earthRadiusKm * 1000)
        let theta = bearingDeg * r
        let phi1 = from.lat * r
        let lambda1 = from.lon * r
        let sinPhi2 =
            Elementary.sin(phi1) * Elementary.cos(delta) + Elementary.cos(phi1) * Elementary.sin(delta)
            * Elementary.cos(theta)
        let phi2 = Elementary.asin(max(-1, min(1, sinPhi2)))
        let lambda2: Double
        if abs(from.lat) >= 90 - 1e-9 {
            // At a pole the formula below meets 0 / 0 (its cos φ1 is rounding), and sends every bearing
            // down the meridian 90° off. There a bearing is taken against the pole's meridian `from.lon`,
            // as `bearingDeg` gives it: from the north pole the way down the meridian λ is 180° − (λ − λ1),
            // from the south pole λ − λ1.
            lambda2 = from.lat > 0 ? lambda1 + Double.pi - theta : lambda1 + theta
        } else {
            let y = Elementary.sin(theta) * Elementary.sin(delta) * Elementary.cos(phi1)
            let x = Elementary.cos(delta) - Elementary.sin(phi1) * sinPhi2
            lambda2 = lambda1 + Elementary.atan2(y, x)
        }
        let lat = max(-90, min(90, phi2 / r))
        let lon = normalizedLon(lambda2 / r)
        let end = Coordinate(lat: lat, lon: lon) ?? from
        // The heading on arrival: the reverse of the bearing from the end back to the start. At a
        // pole every direction is south (or north); the initial bearing stands in there, and over less
        // than a metre (the heading has not turned, and the bearing back from a point rounding puts
        // on the start is noise).
        let arrival: Double
        if distanceM < 1 || abs(lat) > 89.999_999 {
            arrival = CompassDegrees.folded(bearingDeg)
        } else {
            arrival = CompassDegrees.folded(Self.bearingDeg(from: end, to: from) + 180)
        }
        return (end, arrival)
    }

    /// The point a fraction `f` (0...1) of the way from `a` to `b` on the great circle.
    public static func intermediate(_ a: Coordinate, _ b: Coordinate, fraction f: Double) -> Coordinate {
        let d = GreatCircle.distanceM(a, b)
        guard d > 0 else { return a }
        return destination(from: a, bearingDeg: bearingDeg(from: a, to: b), distanceM: d * max(0, min(1, f))).coordinate
    }

    /// A longitude in [-180, 180].
    static func normalizedLon(_ lon: Double) -> Double {
        var l = (lon + 180).truncatingRemainder(dividingBy: 360)
        if l < 0 { l += 360 }
        return l - 180
    }

    /// The tangent plane at `origin`, with the cosine of its latitude computed once: a route search
    /// places thousands of points in the same frame. `offsetM` is a point's offset from `origin` in
    /// metres east and north, with the longitude difference taken the short way round (so a segment
    /// across the antimeridian is short).
    struct LocalFrame {
        let origin: Coordinate
        let cosLat: Double

        init(at origin: Coordinate) {
            self.origin = origin
            self.cosLat = Elementary.cos(origin.lat * radiansPerDegree)
        }

        func offsetM(of b: Coordinate) -> (x: Double, y: Double) {
            let r = radiansPerDegree
            let metresPerRad = GreatCircle.earthRadiusKm * 1000
            var dLon = b.lon - origin.lon
            if dLon > 180 { dLon -= 360 }
            if dLon < -180 { dLon += 360 }
            return (dLon * r * metresPerRad * cosLat, (b.lat - origin.lat) * r * metresPerRad)
        }
    }
}
