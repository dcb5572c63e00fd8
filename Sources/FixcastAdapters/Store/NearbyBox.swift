import FixcastCore

/// A latitude/longitude box that holds every point within `km` of a centre: the index-friendly
/// prefilter of the cache lookups, after which the exact great-circle distance decides.
///
/// Generous on purpose (a degree of latitude is at least 110.57 km; 110 is used), because a
/// point wrongly left out is a needless API request while one wrongly let in is only checked.
struct NearbyBox: Equatable {
    var minLat: Double
    var maxLat: Double
    /// nil: every longitude (near a pole, or a radius spanning the globe).
    var lon: LonRange?

    enum LonRange: Equatable {
        case within(Double, Double)
        /// Crossing the antimeridian: lon >= first OR lon <= second.
        case wrapping(Double, Double)
    }

    init(center: Coordinate, km: Double) {
        let dLat = km / 110.0
        minLat = max(-90, center.lat - dLat)
        maxLat = min(90, center.lat + dLat)
        let poleward = max(abs(minLat), abs(maxLat))
        let cosLat = cos(poleward * Double.pi / 180)
        let dLon = cosLat > 1e-6 ? km / (110.0 * cosLat) : 360
        if maxLat >= 90 || minLat <= -90 || dLon >= 180 {
            lon = nil
        } else if center.lon - dLon < -180 {
            lon = .wrapping(center.lon - dLon + 360, center.lon + dLon)
        } else if center.lon + dLon > 180 {
            lon = .wrapping(center.lon - dLon, center.lon + dLon - 360)
        } else {
            lon = .within(center.lon - dLon, center.lon + dLon)
        }
    }

    /// The SQL condition on columns `lat`, `lon`, with its four parameters starting at `first`.
    func sql(firstParameter first: Int) -> (String, [SQLiteValue]) {
        let latPart = "lat BETWEEN ?\(first) AND ?\(first + 1)"
        switch lon {
        case nil:
            return (
                "\(latPart) AND ?\(first + 2) IS NULL AND ?\(first + 3) IS NULL",
                [.double(minLat), .double(maxLat), .null, .null]
            )
        case .within(let a, let b):
            return (
                "\(latPart) AND lon BETWEEN ?\(first + 2) AND ?\(first + 3)",
                [.double(minLat), .double(maxLat), .double(a), .double(b)]
            )
        case .wrapping(let a, let b):
            return (
                "\(latPart) AND (lon >= ?\(first + 2) OR lon <= ?\(first + 3))",
                [.double(minLat), .double(maxLat), .double(a), .double(b)]
            )
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
