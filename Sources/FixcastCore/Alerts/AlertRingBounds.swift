import FixcastTables

extension RingContainment {
    /// The most a ring's longitude may reach once unwrapped across the antimeridian (the area table's
    /// bound): beyond it a ring is not a shape on the Earth.
    static let maxUnwrappedLongitude = 540.0

    /// Whether a ring in degrees can be placed against: every vertex finite, its longitudes, unwrapped
    /// vertex by vertex across the antimeridian the way `locate(_:in:)` unwraps them (a step of more than
    /// 180° is taken the short way round), within ±540°. A ring that zigzags by more than 180° at every
    /// vertex climbs up to 180° a vertex that way: from 13 vertices on its micro-degrees no longer fit
    /// `locate`'s Int32 and the conversion trapped (found during the decoders' fuzz campaign). Rings from
    /// outside (an alert's GeoJSON polygon, a stored footprint) are checked with this before they are used.
    public static func unwrapsOnTheEarth(_ ring: [(lon: Double, lat: Double)]) -> Bool {
        unwrappedLongitudes(ring) != nil
    }

    /// The ring's longitudes unwrapped vertex by vertex across the antimeridian (a step of more than
    /// 180° is taken the short way round); nil when a vertex is not finite or a longitude, as given or
    /// unwrapped, is beyond `maxUnwrappedLongitude`. The one unwrapping rule for `unwrapsOnTheEarth`
    /// and `locate(_:in:)`.
    static func unwrappedLongitudes(_ ring: [(lon: Double, lat: Double)]) -> [Double]? {
        var out: [Double] = []
        out.reserveCapacity(ring.count)
        for vertex in ring {
            guard vertex.lon.isFinite, vertex.lat.isFinite, abs(vertex.lon) <= maxUnwrappedLongitude else {
                return nil
            }
            var lon = vertex.lon
            if let p = out.last {
                while lon - p > 180 { lon -= 360 }
                while lon - p < -180 { lon += 360 }
            }
            guard abs(lon) <= maxUnwrappedLongitude else { return nil }
            out.append(lon)
        }
        return out
    }
}
