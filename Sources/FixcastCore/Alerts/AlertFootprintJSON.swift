import FixcastTables
import FixcastText
import FoundationEssentials

extension AlertFootprint {
    /// Limits against a hostile body or store: a warning's polygons have a few hundred vertices (NWS,
    /// MetAlerts), an ECCC area or an NWS zone up to a few thousand; a footprint beyond these is not a
    /// warning's area, and is dropped (the alert is still listed here, only not matched ahead).
    static let maxPolygons = 200
    static let maxVertices = 50_000
    static let maxAreas = 200

    /// A GeoJSON `Polygon` or `MultiPolygon` (lon, lat; each polygon its outer ring and its holes) as a
    /// footprint; nil for a null, another kind, no usable ring, or one past the limits.
    public init?(geoJSON g: JSONValue?) {
        guard let g, !g.isNull, let type = g["type"]?.stringValue, let coordinates = g["coordinates"]?.arrayValue
        else { return nil }
        let parts: [JSONValue]
        switch type {
        case "Polygon": parts = [.array(coordinates)]
        case "MultiPolygon": parts = coordinates
        default: return nil
        }
        guard let polygons = Self.polygons(parts) else { return nil }
        self = .polygons(polygons)
    }

    /// The form kept in the store: `{"polygons": [[[[lon, lat], …], …], …]}` or `{"areas": ["FR123", …]}`.
    public var json: JSONValue {
        switch self {
        case .polygons(let polygons):
            return .object([
                (
                    "polygons",
                    .array(
                        polygons.map { rings in
                            .array(
                                rings.map { ring in .array(ring.map { .array([.double($0.lon), .double($0.lat)]) }) })
                        })
                )
            ])
        case .areas(let codes):
            return .object([("areas", .array(codes.sorted().map { .string($0) }))])
        case .zones(let paths):
            return .object([("zones", .array(paths.map { .string($0) }))])
        }
    }

    /// Read back from the store (outside data too): nil for anything that is not such a footprint.
    public init?(json f: JSONValue) {
        if let parts = f["polygons"]?.arrayValue {
            guard let polygons = Self.polygons(parts) else { return nil }
            self = .polygons(polygons)
        } else if let zones = f["zones"]?.arrayValue {
            guard let footprint = AlertFootprint(nwsZones: .array(zones)) else { return nil }
            self = footprint
        } else if let codes = f["areas"]?.arrayValue, codes.count <= Self.maxAreas {
            let texts = codes.compactMap { AlertText.line($0.stringValue) }
            guard !texts.isEmpty else { return nil }
            self = .areas(Set(texts))
        } else {
            return nil
        }
    }

    /// An NWS alert's `affectedZones` (zone URLs) as the zones' paths (`/zones/forecast/NVZ003`), which
    /// the alert service asks under `alerts.nws_base_url`, never at a host the body names; nil when none
    /// is such a path, or for more than `maxAreas`.
    public init?(nwsZones value: JSONValue?) {
        guard let urls = value?.arrayValue, urls.count <= Self.maxAreas else { return nil }
        let paths = urls.compactMap { url -> String? in
            guard let text = url.stringValue, let start = text.firstRange(of: "/zones/") else { return nil }
            let path = String(text[start.lowerBound...])
            let allowed =
                path.utf8.count <= 100
                && path.utf8.allSatisfy { c in
                    (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
                        || c == 0x2F || c == 0x2D || c == 0x5F
                }
            return allowed && !path.contains("//") ? path : nil
        }
        guard !paths.isEmpty else { return nil }
        self = .zones(paths)
    }

    /// Polygons (each an array of rings, each an array of [lon, lat]); nil when none is usable or the
    /// limits are passed. A ring needs 3 distinct points at least (GeoJSON closes it with a 4th).
    static func polygons(_ parts: [JSONValue]) -> [[[Point]]]? {
        guard parts.count <= maxPolygons else { return nil }
        var out: [[[Point]]] = []
        var vertices = 0
        for part in parts {
            guard let ringValues = part.arrayValue else { continue }
            // A polygon with a ring that does not read is left out whole: without its outline a hole
            // would become one, without a hole the outline would claim too much.
            var rings: [[Point]] = []
            for value in ringValues {
                guard let points = value.arrayValue else {
                    rings = []
                    break
                }
                vertices += points.count
                guard vertices <= maxVertices else { return nil }
                var ring: [Point] = []
                ring.reserveCapacity(points.count)
                for p in points {
                    guard let lon = p[0]?.doubleValue, let lat = p[1]?.doubleValue, lon.isFinite, lat.isFinite,
                        abs(lat) <= 90, abs(lon) <= 540
                    else { break }
                    ring.append(Point(lon: lon, lat: lat))
                }
                guard ring.count == points.count, ring.count >= 3,
                    RingContainment.unwrapsOnTheEarth(ring.map { ($0.lon, $0.lat) })
                else {
                    rings = []
                    break
                }
                rings.append(ring)
            }
            if !rings.isEmpty { out.append(rings) }
        }
        return out.isEmpty ? nil : out
    }
}
