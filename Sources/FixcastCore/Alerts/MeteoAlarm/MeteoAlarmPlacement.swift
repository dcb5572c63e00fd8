public import FixcastTables

/// Whether a MeteoAlarm warning applies at a position, decided offline from what the entry says about
/// its area: its own polygon when it has one (the polygon wins: it is the forecaster's drawing, finer
/// than the area), else its geocodes placed with the bundled area table (`AlertAreaTable`). A geocode
/// the table does not know is counted (`status` `alerts.unplaced_areas`); a warning none of whose
/// geocodes can be placed is still listed for its country as "area unknown", never silently dropped
/// (CONTRACT.md "Alerts").
public struct MeteoAlarmPlacement: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        /// Its polygon or one of its areas contains the position.
        case here
        /// Placed, but none of its places contains the position.
        case elsewhere
        /// Neither a polygon nor a geocode the table knows: listed for the country, "area unknown".
        case areaUnknown
    }

    public let verdict: Verdict
    /// How many of its geocodes the table could not place (counted even when another one placed it).
    public let unplacedGeocodes: Int

    public init(verdict: Verdict, unplacedGeocodes: Int) {
        self.verdict = verdict
        self.unplacedGeocodes = unplacedGeocodes
    }

    /// The areas that hold one position, looked up once and reused for every entry of a feed: those
    /// that contain it; for a position in none, those within `nearKm`.
    public struct Position: Sendable {
        public let point: Coordinate
        let containing: Set<Int>

        /// How far an area may be from a position that lies in no area and still count as its own. The
        /// bundled geometry is coarse along coasts and borders: La Rochelle lies 0.8 km outside its
        /// département, Saint-Malo 2.9 km, Piraeus 2.4 km, Reykjavík 71 m, and they would be told "no
        /// alerts" while their own area's warning is in force (126 places of 5,000 people or more lie in
        /// no area). 5 km takes them all in; a position that is in an area is never widened.
        public static let nearKm = 5.0

        public init(_ point: Coordinate, in table: AlertAreaTable) {
            self.point = point
            let inside = table.areaIndices(containing: point)
            containing = Set(inside.isEmpty ? table.areaIndices(near: point, withinKm: Self.nearKm) : inside)
        }
    }

    /// `polygons`: the entry's own CAP polygons as (lon, lat) rings (empty when it has none; a ring of
    /// fewer than 3 points is no polygon). `geocodes`: its CAP geocodes (`valueName`, `value`).
    public static func place(
        polygons: [[(lon: Double, lat: Double)]], geocodes: [AlertGeocode], at position: Position,
        table: AlertAreaTable
    ) -> MeteoAlarmPlacement {
        let rings = polygons.filter { $0.count >= 3 }
        if !rings.isEmpty {
            let inside = rings.contains { RingContainment.locate(position.point, in: $0) != .outside }
            return MeteoAlarmPlacement(verdict: inside ? .here : .elsewhere, unplacedGeocodes: 0)
        }
        var unplaced = 0
        var placed = false
        var here = false
        for geocode in geocodes {
            guard let index = table.areaIndex(code: geocode.code, scheme: geocode.scheme) else {
                unplaced += 1
                continue
            }
            placed = true
            if position.containing.contains(index) { here = true }
        }
        let verdict: Verdict = here ? .here : placed ? .elsewhere : .areaUnknown
        return MeteoAlarmPlacement(verdict: verdict, unplacedGeocodes: unplaced)
    }
}

extension RingContainment {
    /// Where `point` lies against a ring given in degrees (a CAP or GeoJSON polygon; closed or not),
    /// at the area table's precision (1e-6°), with the same border rule. A ring whose longitudes jump by
    /// more than 180° between two vertices is unwrapped across the antimeridian, and the point tried there.
    public static func locate(_ point: Coordinate, in ring: [(lon: Double, lat: Double)]) -> RingContainment {
        // Unwrapped by the one rule; a ring that zigzags across the antimeridian climbs up to 180° a
        // vertex, and beyond the bound it is no shape on the Earth (its micro-degrees would not fit Int32).
        guard let longitudes = unwrappedLongitudes(ring) else { return .outside }
        var flat: [Int32] = []
        flat.reserveCapacity(ring.count * 2)
        var crossesAntimeridian = false
        for (vertex, lon) in zip(ring, longitudes) {
            guard abs(vertex.lat) <= 90 else { return .outside }
            if abs(lon) > 180 { crossesAntimeridian = true }
            flat.append(Int32((lon * 1e6).rounded()).littleEndian)
            flat.append(Int32((vertex.lat * 1e6).rounded()).littleEndian)
        }
        var count = ring.count
        if count > 1, flat[0] == flat[2 * count - 2], flat[1] == flat[2 * count - 1] { count -= 1 }
        let y = Int64((point.lat * 1e6).rounded())
        let x = Int64((point.lon * 1e6).rounded())
        let candidates = crossesAntimeridian ? [x, x + 360_000_000, x - 360_000_000] : [x]
        return flat.withUnsafeBytes { bytes in
            var best = RingContainment.outside
            for candidate in candidates {
                switch locate(x: candidate, y: y, ring: bytes, count: count) {
                case .boundary: return .boundary
                case .inside: best = .inside
                case .outside: break
                }
            }
            return best
        }
    }
}

extension RingContainment {
    /// Whether a polygon (its outer ring first, then its holes, in degrees) holds `point`: inside or
    /// on the outer ring, and not strictly inside a hole (a border belongs to the area, so a point on a
    /// hole's edge is in the area too). The one polygon rule for a CAP or GeoJSON alert's own polygon
    /// and for alerts ahead.
    public static func polygonHolds(_ point: Coordinate, rings: [[(lon: Double, lat: Double)]]) -> Bool {
        guard let outer = rings.first, outer.count >= 3 else { return false }
        return locate(point, in: outer) != .outside
            && !rings.dropFirst().contains(where: { locate(point, in: $0) == .inside })
    }
}
