import FoundationEssentials

/// What each entry of a MeteoAlarm Atom feed (or a CAP document) says about where it applies: its
/// geocodes (`valueName`/`value`: EMMA_ID, NUTS3, …) and its polygons, if any, keyed by the same
/// identifier `MeteoAlarmAtomDecoder` gives the alert (`cap:identifier`, else the Atom `id`), so a
/// source can place each decoded alert with `MeteoAlarmPlacement`. Beside the decoder rather than in
/// it so that placing stays one concern.
public enum MeteoAlarmEntryAreas {
    public struct Entry: Sendable, Equatable {
        public let identifier: String
        public let geocodes: [AlertGeocode]
        /// (lon, lat) rings, as `MeteoAlarmPlacement` takes them; a polygon text that is not a polygon
        /// (a number that does not read, a latitude beyond 90°, fewer than 3 points) is left out.
        public let polygons: [[(lon: Double, lat: Double)]]

        public static func == (a: Entry, b: Entry) -> Bool {
            a.identifier == b.identifier && a.geocodes == b.geocodes
                && a.polygons.map { $0.map { [$0.lon, $0.lat] } } == b.polygons.map { $0.map { [$0.lon, $0.lat] } }
        }
    }

    /// Limits against a hostile feed: an entry names a handful of areas; a CAP polygon a few hundred
    /// vertices (MeteoAlarm's are ≤ 100 in the recordings, ECCC's ≤ 2,000).
    static let maxGeocodes = 200
    static let maxPolygons = 50
    static let maxVertices = 10_000

    /// Every `<entry>` of an Atom feed, in order: as the decoder, all of them (the answer's size is
    /// bounded by the HTTP client's limit), since a country feed's entries are filtered by area only
    /// later and a cap before that filter would drop the one that applies.
    public static func entries(_ body: [UInt8]) -> [Entry] {
        guard let text = String(validating: body, as: UTF8.self) else { return [] }
        return AtomXMLReader.blocks("entry", in: text).compactMap { entry in
            let id = AtomXMLReader.element("cap:identifier", in: entry) ?? AtomXMLReader.element("id", in: entry)
            guard let identifier = AlertText.line(id) else { return nil }
            return Entry(identifier: identifier, geocodes: geocodes(in: entry), polygons: polygons(in: entry))
        }
    }

    /// The geocodes inside `<cap:geocode>` (Atom) or `<geocode>` (CAP) blocks.
    static func geocodes(in text: Substring) -> [AlertGeocode] {
        var out: [AlertGeocode] = []
        for tag in ["cap:geocode", "geocode"] {
            for block in AtomXMLReader.blocks(tag, in: String(text)).prefix(maxGeocodes) {
                guard let scheme = AlertText.line(AtomXMLReader.element("valueName", in: block)),
                    let code = AlertText.line(AtomXMLReader.element("value", in: block))
                else { continue }
                let geocode = AlertGeocode(scheme: scheme, code: code)
                if !out.contains(geocode) { out.append(geocode) }
            }
        }
        return out
    }

    static func polygons(in text: Substring) -> [[(lon: Double, lat: Double)]] {
        var out: [[(lon: Double, lat: Double)]] = []
        for tag in ["cap:polygon", "polygon"] {
            for block in AtomXMLReader.blocks(tag, in: String(text)).prefix(maxPolygons) {
                if let ring = ring(AtomXMLReader.decodeEntities(String(block))) { out.append(ring) }
            }
        }
        return out
    }

    /// CAP's polygon text: "lat,lon lat,lon …" (WGS 84), at least 3 points; nil when it is not that.
    static func ring(_ text: String) -> [(lon: Double, lat: Double)]? {
        var ring: [(lon: Double, lat: Double)] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            guard ring.count < maxVertices else { return nil }
            let parts = pair.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let lat = Coordinate.decimalDegrees(parts[0]),
                let lon = Coordinate.decimalDegrees(parts[1]), let point = Coordinate(lat: lat, lon: lon)
            else { return nil }
            ring.append((point.lon, point.lat))
        }
        return ring.count >= 3 ? ring : nil
    }
}
