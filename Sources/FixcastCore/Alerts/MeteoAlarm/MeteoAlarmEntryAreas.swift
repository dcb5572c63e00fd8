import FixcastTables
import FixcastText
import FoundationEssentials

/// What each entry of a MeteoAlarm Atom feed (or a CAP document) says about where it applies: its
/// geocodes (`valueName`/`value`: EMMA_ID, NUTS3, …) and its polygons, if any, keyed by the same
/// identifier `MeteoAlarmAtomDecoder` gives the alert (CAP's `identifier`, else the Atom `id`), so a
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

    /// Every entry of an Atom feed, in order: as the decoder, all of them (the answer's size is
    /// bounded by the HTTP client's limit), since a country feed's entries are filtered by area only
    /// later and a cap before that filter would drop the one that applies. None when the document is
    /// not an Atom feed.
    public static func entries(_ feed: XMLElement) -> [Entry] {
        guard let entries = try? MeteoAlarmAtomDecoder.entries(feed) else { return [] }
        return entries.compactMap { entry in
            guard let identifier = MeteoAlarmAtomDecoder.identifier(entry: entry) else { return nil }
            return Entry(identifier: identifier, geocodes: geocodes(in: entry), polygons: polygons(in: entry))
        }
    }

    /// The geocodes of CAP `geocode` elements anywhere in `element` (an Atom entry's `cap:geocode`, a CAP
    /// message's `info/area/geocode`), the first `maxGeocodes` of them, each once. Their `valueName` and
    /// `value` are matched by local name: the Atom feed writes them unprefixed, which puts them in its
    /// default namespace (Atom's), where a CAP message has them in CAP's.
    static func geocodes(in element: XMLElement) -> [AlertGeocode] {
        var out: [AlertGeocode] = []
        for block in element.descendants(
            named: XMLName(namespace: MeteoAlarmAtomDecoder.cap, "geocode"), limit: maxGeocodes)
        {
            func text(_ local: String) -> String? { block.children.first { $0.name.local == local }?.text }
            guard let scheme = AlertText.line(text("valueName")), let code = AlertText.line(text("value")) else {
                continue
            }
            let geocode = AlertGeocode(scheme: scheme, code: code)
            if !out.contains(geocode) { out.append(geocode) }
        }
        return out
    }

    /// The rings of CAP `polygon` elements anywhere in `element`, the first `maxPolygons` of them; a text
    /// that is not a ring is left out.
    static func polygons(in element: XMLElement) -> [[(lon: Double, lat: Double)]] {
        element.descendants(named: XMLName(namespace: MeteoAlarmAtomDecoder.cap, "polygon"), limit: maxPolygons)
            .compactMap { ring($0.text) }
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
        return ring.count >= 3 && RingContainment.unwrapsOnTheEarth(ring) ? ring : nil
    }
}
