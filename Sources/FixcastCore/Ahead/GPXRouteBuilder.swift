import FixcastText

/// A route to follow: its points in travel order (consecutive duplicates dropped) and its name.
public struct GPXRoute: Sendable, Equatable {
    public var name: String?
    public var points: [Coordinate]

    public init(name: String?, points: [Coordinate]) {
        self.name = name
        self.points = points
    }
}

/// Chooses the route out of a GPX 1.1 document as a streaming XML reader tells its elements (1.0 has
/// the same `rte`/`trk` shape and is accepted): the first `rte`'s `rtept`s when it has any, else every
/// `trk/trkseg/trkpt` in document order; the name of that `rte` (or the first `trk`, or `metadata`).
/// The adapters' `GPXRouteReader` drives it with libxml2; it parses nothing itself. A route file comes
/// from outside and is hostile until read: the points are bounded, each coordinate is checked as GPX
/// defines it, and the first thing wrong stops the reading with its line.
public struct GPXRouteBuilder: XMLContentHandler {
    /// 100,000 points: ten times the 10,000-point route the 5 ms target is set for (issue 20), far
    /// beyond any route a person plans (a day's drive is a few thousand points).
    public static let maxPoints = 100_000
    /// A name is for one line of a screen.
    static let maxNameCharacters = 100
    /// The text of a name kept while it is read: more than a cleaned name can show, and bounded so that
    /// a name of megabytes is not held.
    static let maxNameBytes = 4096

    /// GPX 1.1's namespace and 1.0's. An element in no namespace counts as GPX too (files written without
    /// `xmlns`); one in any other namespace (a vendor's extension) is never a GPX element, whatever its
    /// local name.
    static let namespaces: Set<String> = ["", "http://www.topografix.com/GPX/1/1", "http://www.topografix.com/GPX/1/0"]

    /// The paths of what is kept (constants, so that a test of the path per element allocates nothing).
    static let route = ["gpx", "rte"]
    static let track = ["gpx", "trk"]
    static let routePoint = ["gpx", "rte", "rtept"]
    static let trackPoint = ["gpx", "trk", "trkseg", "trkpt"]
    static let routeNamePath = ["gpx", "rte", "name"]
    static let trackNamePath = ["gpx", "trk", "name"]
    static let metadataNamePath = ["gpx", "metadata", "name"]

    /// The open elements' local names, a foreign element as "" (it matches no GPX path).
    var path: [String] = []
    var routesSeen = 0
    var tracksSeen = 0
    var routePoints: [Coordinate] = []
    var trackPoints: [Coordinate] = []
    var routeName: String?
    var trackName: String?
    var metadataName: String?
    var text = ""
    var sawRoot = false
    /// What was wrong with the route, which stopped the reading; nil while nothing is.
    private(set) var failure: GPXRouteError?

    public init() {}

    /// The route, or why the document holds none. Call once the reader is done.
    public func finish() throws(GPXRouteError) -> GPXRoute {
        if let failure { throw failure }
        guard sawRoot else { throw GPXRouteError(.notGPX(line: 0, reason: "no <gpx> element")) }
        var points: [Coordinate] = []
        let useRoute = !routePoints.isEmpty
        for p in useRoute ? routePoints : trackPoints {
            // A repeated point (a device that logs while stopped, a tool that closes segments) adds
            // a segment of length zero, which has no bearing: dropped.
            if let last = points.last, last == p { continue }
            points.append(p)
        }
        if points.isEmpty { throw GPXRouteError(.noPoints) }
        if points.count == 1 { throw GPXRouteError(.onePoint) }
        let name = (useRoute ? routeName : trackName) ?? metadataName
        return GPXRoute(name: name.flatMap(Self.cleanName), points: points)
    }

    public mutating func startElement(_ name: XMLName, attributes: [XMLAttribute], line: Int) -> Bool {
        let local = Self.namespaces.contains(name.namespace) ? name.local : ""
        path.append(local)
        if path.count == 1 {
            guard local == "gpx" else {
                return stop(
                    .notGPX(line: line, reason: "the root element is <\(ErrorText.clause(name.local))>, not <gpx>"))
            }
            if let version = attributes.value(of: "version"), version != "1.1", version != "1.0" {
                return stop(.notGPX(line: line, reason: "version \(ErrorText.clause(version)) is not 1.1"))
            }
            sawRoot = true
            return true
        }
        if path == Self.route { routesSeen += 1 }
        if path == Self.track { tracksSeen += 1 }
        if local == "name" { text = "" }
        let isRoutePoint = path == Self.routePoint && routesSeen == 1
        let isTrackPoint = path == Self.trackPoint
        guard isRoutePoint || isTrackPoint else { return true }
        guard routePoints.count + trackPoints.count < Self.maxPoints else {
            return stop(.tooManyPoints(line: line, limit: Self.maxPoints))
        }
        do throws(GPXRouteError) {
            let lat = try Self.degrees("lat", attributes, range: -90...90, line: line)
            let lon = try Self.degrees("lon", attributes, range: -180...180, line: line)
            guard let c = Coordinate(lat: lat, lon: lon) else {
                throw GPXRouteError(.badCoordinate(line: line, attribute: "lat/lon", text: "\(lat),\(lon)"))
            }
            if isRoutePoint { routePoints.append(c) } else { trackPoints.append(c) }
            return true
        } catch {
            failure = error
            return false
        }
    }

    public mutating func characters(_ piece: String) {
        guard isCollectingName else { return }
        let room = Self.maxNameBytes - text.utf8.count
        guard room > 0 else { return }
        // A character cut at the bound becomes U+FFFD, far past the 100 characters a name keeps.
        text += piece.utf8.count <= room ? piece : String(decoding: piece.utf8.prefix(room), as: UTF8.self)
    }

    public mutating func endElement(_ name: XMLName) -> Bool {
        defer { path.removeLast() }
        guard path.last == "name" else { return true }
        if path == Self.routeNamePath, routesSeen == 1, routeName == nil { routeName = text }
        if path == Self.trackNamePath, tracksSeen == 1, trackName == nil { trackName = text }
        if path == Self.metadataNamePath, metadataName == nil { metadataName = text }
        text = ""
        return true
    }

    /// True while inside a `name` element whose parent's name fixcast keeps.
    var isCollectingName: Bool {
        guard path.count == 3, path[2] == "name" else { return false }
        return path == Self.routeNamePath && routesSeen == 1
            || path == Self.trackNamePath && tracksSeen == 1
            || path == Self.metadataNamePath
    }

    private mutating func stop(_ cause: GPXRouteError.Cause) -> Bool {
        failure = GPXRouteError(cause)
        return false
    }

    /// An `xsd:decimal` (GPX's `latitudeType`/`longitudeType`): optional sign, digits, optional
    /// fraction; no exponent, no `nan`, no hex, surrounding whitespace allowed.
    static func degrees(_ key: String, _ attributes: [XMLAttribute], range: ClosedRange<Double>, line: Int)
        throws(GPXRouteError) -> Double
    {
        guard let raw = attributes.value(of: key) else {
            throw GPXRouteError(.badCoordinate(line: line, attribute: key, text: "(missing)"))
        }
        let text = trimmedXMLSpace(raw)
        var body = Substring(text)
        if let f = body.first, f == "-" || f == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digitsOnly = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isNumber } }
        guard let whole = parts.first, digitsOnly(whole), whole.count <= 3, parts.count == 1 || digitsOnly(parts[1]),
            !(whole.isEmpty && (parts.count == 1 || parts[1].isEmpty)), parts.count == 1 || parts[1].count <= 20,
            let v = Double(text.hasPrefix("+") ? String(text.dropFirst()) : text), range.contains(v)
        else { throw GPXRouteError(.badCoordinate(line: line, attribute: key, text: raw)) }
        return v
    }

    /// XML's whitespace (space, tab, CR, LF) trimmed from both ends.
    static func trimmedXMLSpace(_ text: String) -> String {
        let isSpace = { (u: Unicode.Scalar) in u == " " || u == "\t" || u == "\r" || u == "\n" }
        var scalars = Substring(text).unicodeScalars[...]
        while let f = scalars.first, isSpace(f) { scalars = scalars.dropFirst() }
        while let l = scalars.last, isSpace(l) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// One line, no control characters, at most `maxNameCharacters`; nil when nothing is left. Spaces,
    /// line breaks and controls become one space; the bidi controls go (`TerminalText.isUnsafe`); other
    /// format characters stay: the joiners spell Persian and Hindi words and emoji sequences ("می‌روم",
    /// 👨‍👩‍👧), which became "می روم" and "👨 👩 👧".
    static func cleanName(_ text: String) -> String? {
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .format, TerminalText.isUnsafe(scalar) { continue }
            let isSpace = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            if isSpace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.unicodeScalars.append(" ") }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
        if out.count > maxNameCharacters { out = String(out.prefix(maxNameCharacters - 1)) + "…" }
        return out.isEmpty ? nil : out
    }
}
