import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// GeoJSON (RFC 7946): a FeatureCollection with a Point feature per reading (its properties are
/// the reading's JSON of CONTRACT.md, its `ahead` as the headline `ahead_headline`:
/// `AheadExportFields.withAhead`) and one LineString feature for the track, positions in
/// `[lon, lat]` order. A reading without a position has `"geometry": null` (RFC 7946 §3.2).
///
/// A track that crosses the antimeridian is cut there (RFC 7946 §3.1.9, `AntimeridianCut`): one
/// LineString feature for each part, ending and starting on the line at ±180°, each with its own
/// `point_count`, `start` and `end` and a `part` (1, 2, …); drawn whole, it would run the long way round
/// the world. So is a track the receiver went quiet in for more than `GPXWriter.segmentGap` (where GPX
/// starts a new `trkseg`): joined, it would draw a straight line that was never driven, from one trip's
/// end to the next one's start. A part of one point (between two gaps) is a Point feature with its
/// `part`. Written as it streams: a part is closed when the step that leaves it comes.
struct GeoJSONWriter: ExportWriter {
    let language: Language
    var includesTrack: Bool { true }
    private var featureCount = 0
    private var trackPoints = 0
    /// A point of the track and its time (as `trips` dates it: `start` and `end` are those times).
    private typealias TimedFix = (fix: Fix, time: Date)
    private var lastPoint: TimedFix?
    /// The part of the track being written: its first fix, its fixes so far, whether its feature is
    /// open (a part that starts with the track waits for a second position: a LineString needs two).
    private var partFirst: TimedFix?
    private var partPoints = 0
    private var partOpen = false
    /// Parts closed so far (at a cut).
    private var partsClosed = 0

    init(language: Language) { self.language = language }

    mutating func begin(_ out: ExportSink) throws(ExportError) {
        try out.write("{\"type\":\"FeatureCollection\",\"features\":[\n")
    }

    mutating func reading(_ r: Reading, at time: Date, _ out: ExportSink) throws(ExportError) {
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

    mutating func trackPoint(_ fix: Fix, at time: Date, _ out: ExportSink) throws(ExportError) {
        trackPoints += 1
        defer { lastPoint = (fix, time) }
        guard let last = lastPoint, let first = partFirst else {
            partFirst = (fix, time)
            partPoints = 1
            return
        }
        if time.timeIntervalSince(last.time) > GPXWriter.segmentGap {
            partsClosed += 1
            try out.write(finishPart(first: first, last: last, part: partsClosed))
            partFirst = (fix, time)
            partPoints = 1
            return
        }
        var s = ""
        if !partOpen {
            s += openPart() + Self.position(first.fix)
            partOpen = true
        }
        if let cut = AntimeridianCut.crossing(from: last.fix.coordinate, to: fix.coordinate) {
            // This part ends on the line; the next starts on its other side and goes on to `fix`.
            s += ",\n" + Self.position(lon: cut.leavingLon, lat: cut.lat)
            partsClosed += 1
            s += closePart(first: first, last: last, part: partsClosed)
            s += openPart() + Self.position(lon: cut.enteringLon, lat: cut.lat)
            partFirst = (fix, time)
            partPoints = 0
        }
        partPoints += 1
        s += ",\n" + Self.position(fix)
        try out.write(s)
    }

    mutating func end(_ out: ExportSink) throws(ExportError) {
        if let first = partFirst, let last = lastPoint {
            try out.write(finishPart(first: first, last: last, part: partsClosed > 0 ? partsClosed + 1 : nil))
        }
        try out.write("\n]}\n")
    }

    /// Ends the part from `first` to `last`: its properties when it is a line, or, when it holds one
    /// point (no line), that point as a Point feature, for it is still the track.
    private mutating func finishPart(first: TimedFix, last: TimedFix, part: Int?) -> String {
        guard partOpen else {
            return separator()
                + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(Self.position(first.fix))},"
                + Self.properties(first: first, last: first, points: 1, part: part) + "}"
        }
        partOpen = false
        return closePart(first: first, last: last, part: part)
    }

    private mutating func openPart() -> String {
        separator() + "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\n"
    }

    /// Ends the open part's coordinates and writes its properties (`part` only when the track is cut).
    private func closePart(first: TimedFix, last: TimedFix, part: Int?) -> String {
        "]}," + Self.properties(first: first, last: last, points: partPoints, part: part) + "}"
    }

    private static func properties(first: TimedFix, last: TimedFix, points: Int, part: Int?) -> String {
        "\"properties\":{\"name\":\"fixcast track\",\"point_count\":\(points),"
            + "\"start\":\"\(UTCTime.format(first.time))\",\"end\":\"\(UTCTime.format(last.time))\""
            + (part.map { ",\"part\":\($0)" } ?? "") + "}"
    }

    private mutating func separator() -> String {
        featureCount += 1
        return featureCount == 1 ? "" : ",\n"
    }

    private static func position(_ fix: Fix) -> String {
        position(lon: fix.coordinate.lon, lat: fix.coordinate.lat)
    }

    private static func position(lon: Double, lat: Double) -> String { "[\(number(lon)),\(number(lat))]" }

    private static func number(_ d: Double) -> String { JSONValue.double(d).serialized() }
}
