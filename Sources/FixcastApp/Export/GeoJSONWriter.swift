import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// GeoJSON (RFC 7946): a FeatureCollection with a Point feature per reading (its properties are
/// the reading's JSON of CONTRACT.md) and one LineString feature for the track, positions in
/// `[lon, lat]` order. A reading without a position has `"geometry": null` (RFC 7946 §3.2).
struct GeoJSONWriter: ExportWriter {
    let language: Language
    var includesTrack: Bool { true }
    private var featureCount = 0
    /// The first track point waits here: a LineString needs two positions.
    private var firstPoint: Fix?
    private var trackPoints = 0
    private var lastPoint: Fix?

    init(language: Language) { self.language = language }

    mutating func begin(_ out: ExportSink) throws(ExportError) {
        try out.write("{\"type\":\"FeatureCollection\",\"features\":[\n")
    }

    mutating func reading(_ r: Reading, _ out: ExportSink) throws(ExportError) {
        var geometry = "null"
        if let p = r.position {
            var coords = "\(Self.number(p.coordinate.lon)),\(Self.number(p.coordinate.lat))"
            if let alt = p.altitudeM, alt.isFinite { coords += ",\(Self.number(alt))" }
            geometry = "{\"type\":\"Point\",\"coordinates\":[\(coords)]}"
        }
        try out.write(
            separator() + "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":"
                + AheadExportFields.withAhead(r.json(language: language), r.ahead).serialized() + "}")
    }

    mutating func trackPoint(_ fix: Fix, _ out: ExportSink) throws(ExportError) {
        trackPoints += 1
        defer { lastPoint = fix }
        if trackPoints == 1 {
            firstPoint = fix
            return
        }
        var s = ""
        if trackPoints == 2, let first = firstPoint {
            s += separator() + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\n"
            s += Self.position(first)
        }
        s += ",\n" + Self.position(fix)
        try out.write(s)
    }

    mutating func end(_ out: ExportSink) throws(ExportError) {
        if trackPoints >= 2, let first = firstPoint, let last = lastPoint {
            try out.write(
                "]},\"properties\":{\"name\":\"fixcast track\",\"point_count\":\(trackPoints),"
                    + "\"start\":\"\(UTCTime.format(first.trackTime))\",\"end\":\"\(UTCTime.format(last.trackTime))\"}}"
            )
        } else if trackPoints == 1, let only = firstPoint {
            // One point is no line; it is still the track, so it goes out as a Point.
            try out.write(
                separator()
                    + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(Self.position(only))},"
                    + "\"properties\":{\"name\":\"fixcast track\",\"point_count\":1,"
                    + "\"start\":\"\(UTCTime.format(only.trackTime))\",\"end\":\"\(UTCTime.format(only.trackTime))\"}}"
            )
        }
        try out.write("\n]}\n")
    }

    private mutating func separator() -> String {
        featureCount += 1
        return featureCount == 1 ? "" : ",\n"
    }

    private static func position(_ fix: Fix) -> String {
        "[\(number(fix.coordinate.lon)),\(number(fix.coordinate.lat))]"
    }

    private static func number(_ d: Double) -> String { JSONValue.double(d).serialized() }
}
