/// A route to follow: its points in travel order (consecutive duplicates dropped) and its name.
public struct GPXRoute: Sendable, Equatable {
    public var name: String?
    public var points: [Coordinate]

    public init(name: String?, points: [Coordinate]) {
        self.name = name
        self.points = points
    }
}

/// Reads the route out of a GPX 1.1 file (1.0 has the same `rte`/`trk` shape and is accepted):
/// the first `rte`'s `rtept`s when it has any, else every `trk/trkseg/trkpt` in document order;
/// the name of that `rte` (or the first `trk`, or `metadata`).
///
/// A strict scan over the bytes, not a general XML parser: no DTD is read, only the five predefined
/// entities and numeric character references are expanded, and a `<!DOCTYPE>` that declares an
/// entity is refused (an entity bomb expands a kilobyte into gigabytes). A route file comes from
/// outside and is hostile until read, so each size is bounded, each bound with its reason below.
public enum GPXRouteReader {
    /// 8 MiB. A 10,000-point route with times and elevations is about 1 MB; `run` must stay within
    /// 24 MB of peak RSS (issue 20), so a file several times larger than any real route is refused
    /// before it is held twice (bytes and points) in memory.
    public static let maxBytes = 8 << 20
    /// 32 levels. GPX nests points four deep and vendors' `extensions` a few more (Garmin's are six);
    /// a deeper file is not a route, and the bound keeps the element stack small.
    public static let maxDepth = 32
    /// 100,000 points: ten times the 10,000-point route the 5 ms target is set for (issue 20), far
    /// beyond any route a person plans (a day's drive is a few thousand points).
    public static let maxPoints = 100_000
    /// A name is for one line of a screen.
    static let maxNameCharacters = 100

    public static func read(_ bytes: [UInt8]) throws(GPXRouteError) -> GPXRoute {
        guard bytes.count <= maxBytes else { throw GPXRouteError(.tooLarge(bytes: bytes.count, limit: maxBytes)) }
        var scanner = GPXScanner(bytes: bytes)
        let found = try scanner.scan()
        var points: [Coordinate] = []
        let useRoute = !found.routePoints.isEmpty
        for p in useRoute ? found.routePoints : found.trackPoints {
            // A repeated point (a device that logs while stopped, a tool that closes segments) adds
            // a segment of length zero, which has no bearing: dropped.
            if let last = points.last, last == p { continue }
            points.append(p)
        }
        if points.isEmpty { throw GPXRouteError(.noPoints) }
        if points.count == 1 { throw GPXRouteError(.onePoint) }
        let name = (useRoute ? found.routeName : found.trackName) ?? found.metadataName
        return GPXRoute(name: name.flatMap(cleanName), points: points)
    }

    /// One line, no control characters, at most `maxNameCharacters`; nil when nothing is left.
    static func cleanName(_ text: String) -> String? {
        var out = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let isSpace =
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
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

/// What the scan found, before the reader chooses between route and track.
struct GPXScanResult {
    var routePoints: [Coordinate] = []
    var trackPoints: [Coordinate] = []
    var routeName: String?
    var trackName: String?
    var metadataName: String?
}

/// The byte scanner behind `GPXRouteReader`: tags, attributes, text, comments, CDATA, processing
/// instructions and a DOCTYPE without entity declarations; everything else is an error with its line.
struct GPXScanner {
    let bytes: [UInt8]
    var i = 0
    var stack: [String] = []
    /// `stack` without namespace prefixes, kept beside it so a path test costs no allocation.
    var path: [String] = []
    var result = GPXScanResult()
    var routesSeen = 0
    var tracksSeen = 0
    var text: [UInt8] = []
    var sawRoot = false

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed before the declaration.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    func line(at offset: Int) -> Int {
        var n = 1
        var k = 0
        let end = min(offset, bytes.count)
        while k < end {
            if bytes[k] == 0x0A { n += 1 }
            k += 1
        }
        return n
    }

    func malformed(_ reason: String, at offset: Int? = nil) -> GPXRouteError {
        GPXRouteError(.malformed(line: line(at: offset ?? i), reason: reason))
    }

    func starts(with s: StaticString, at offset: Int) -> Bool {
        let n = s.utf8CodeUnitCount
        guard offset + n <= bytes.count else { return false }
        let start = s.utf8Start
        for k in 0..<n where bytes[offset + k] != start[k] { return false }
        return true
    }

    /// The offset of the first occurrence of `s` at or after `from`, or nil.
    func find(_ s: StaticString, from: Int) -> Int? {
        let first = s.utf8Start[0]
        var k = from
        while k + s.utf8CodeUnitCount <= bytes.count {
            if bytes[k] == first, starts(with: s, at: k) { return k }
            k += 1
        }
        return nil
    }

    static func isXMLSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    mutating func scan() throws(GPXRouteError) -> GPXScanResult {
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<") {
                try markup()
            } else {
                let start = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "<") { i += 1 }
                try characterData(start..<i)
            }
        }
        guard sawRoot else { throw GPXRouteError(.notGPX(line: line(at: i), reason: "no <gpx> element")) }
        guard stack.isEmpty else { throw malformed("<\(stack.last ?? "")> is not closed") }
        return result
    }

    mutating func markup() throws(GPXRouteError) {
        let start = i
        if starts(with: "<!--", at: i) {
            guard let end = find("-->", from: i + 4) else { throw malformed("unclosed comment") }
            i = end + 3
        } else if starts(with: "<![CDATA[", at: i) {
            guard !stack.isEmpty else { throw malformed("CDATA outside the root element") }
            guard let end = find("]]>", from: i + 9) else { throw malformed("unclosed CDATA section") }
            text.append(contentsOf: bytes[(i + 9)..<end])
            i = end + 3
        } else if starts(with: "<!DOCTYPE", at: i) {
            try doctype()
        } else if starts(with: "<?", at: i) {
            guard let end = find("?>", from: i + 2) else { throw malformed("unclosed processing instruction") }
            i = end + 2
        } else if starts(with: "</", at: i) {
            i += 2
            let name = try self.name()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw malformed("bad end tag </\(name)") }
            i += 1
            guard let open = stack.last, open == name else {
                throw malformed("</\(name)> does not close <\(stack.last ?? "nothing")>", at: start)
            }
            try endElement(localName(name))
            stack.removeLast()
            path.removeLast()
        } else if starts(with: "<!", at: i) {
            throw malformed("unknown markup declaration")
        } else {
            i += 1
            let name = try self.name()
            var attributes: [(String, String)] = []
            // The duplicate test by set: a list searched per attribute made a tag of 200,000 distinct
            // attributes (2 MB, within `maxBytes`) cost minutes.
            var keys = Set<String>()
            while true {
                let hadSpace = skipSpace()
                guard i < bytes.count else { throw malformed("unclosed tag <\(name)", at: start) }
                if bytes[i] == UInt8(ascii: ">") || starts(with: "/>", at: i) { break }
                guard hadSpace else { throw malformed("no space before an attribute in <\(name)>") }
                let key = try self.name()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                    throw malformed("attribute \(key) has no value")
                }
                i += 1
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                    throw malformed("attribute \(key) is not quoted")
                }
                let quote = bytes[i]
                i += 1
                let valueStart = i
                while i < bytes.count, bytes[i] != quote {
                    if bytes[i] == UInt8(ascii: "<") { throw malformed("< inside attribute \(key)") }
                    i += 1
                }
                guard i < bytes.count else { throw malformed("unclosed attribute \(key)", at: valueStart) }
                let value = try decode(valueStart..<i)
                i += 1
                guard keys.insert(key).inserted else { throw malformed("attribute \(key) given twice") }
                attributes.append((key, value))
            }
            let selfClosing = bytes[i] == UInt8(ascii: "/")
            i += selfClosing ? 2 : 1
            if stack.isEmpty, sawRoot { throw malformed("a second root element <\(name)>", at: start) }
            guard stack.count < GPXRouteReader.maxDepth else {
                throw GPXRouteError(.tooDeep(line: line(at: start), limit: GPXRouteReader.maxDepth))
            }
            try startElement(localName(name), attributes: attributes, at: start)
            stack.append(name)
            path.append(localName(name))
            if selfClosing {
                try endElement(localName(name))
                stack.removeLast()
                path.removeLast()
            }
        }
    }

    /// `<!DOCTYPE gpx ...>`, optionally with an internal subset `[...]`; an entity declaration in it
    /// is refused, and nothing in it is used.
    mutating func doctype() throws(GPXRouteError) {
        let start = i
        guard !sawRoot else { throw malformed("DOCTYPE after the root element") }
        var k = i + 9
        var inSubset = false
        while k < bytes.count {
            let b = bytes[k]
            if inSubset {
                if starts(with: "<!ENTITY", at: k) { throw GPXRouteError(.entityDeclaration(line: line(at: k))) }
                if b == UInt8(ascii: "]") { inSubset = false }
            } else if b == UInt8(ascii: "[") {
                inSubset = true
            } else if b == UInt8(ascii: ">") {
                i = k + 1
                return
            }
            k += 1
        }
        throw malformed("unclosed DOCTYPE", at: start)
    }

    @discardableResult
    mutating func skipSpace() -> Bool {
        let start = i
        while i < bytes.count, Self.isXMLSpace(bytes[i]) { i += 1 }
        return i > start
    }

    /// An XML name: ASCII letters, digits, `_ - . :` and any non-ASCII byte (UTF-8 names are rare in
    /// GPX but legal); it must not start with a digit, `-` or `.`.
    mutating func name() throws(GPXRouteError) -> String {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            let ok =
                (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
                || b >= 0x80
            guard ok else { break }
            i += 1
        }
        guard i > start else { throw malformed("a tag without a name") }
        let first = bytes[start]
        if (first >= 0x30 && first <= 0x39) || first == UInt8(ascii: "-") || first == UInt8(ascii: ".") {
            throw malformed("a name starts with a digit, - or .")
        }
        guard let s = String(validating: bytes[start..<i], as: UTF8.self) else {
            throw malformed("invalid UTF-8 in a name")
        }
        return s
    }

    func localName(_ name: String) -> String {
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
    }

    mutating func characterData(_ range: Range<Int>) throws(GPXRouteError) {
        if stack.isEmpty {
            // Only whitespace may stand outside the root element.
            guard bytes[range].allSatisfy(Self.isXMLSpace) else {
                throw malformed("text outside the root element", at: range.lowerBound)
            }
            return
        }
        let decoded = try decode(range)
        if isCollectingName { text.append(contentsOf: Array(decoded.utf8)) }
    }

    /// Text with the five predefined entities and numeric character references expanded; any other
    /// `&name;` is refused (no DTD is read, so it can have no meaning).
    func decode(_ range: Range<Int>) throws(GPXRouteError) -> String {
        var out: [UInt8] = []
        var k = range.lowerBound
        while k < range.upperBound {
            let b = bytes[k]
            guard b == UInt8(ascii: "&") else {
                out.append(b)
                k += 1
                continue
            }
            var end = k + 1
            while end < range.upperBound, bytes[end] != UInt8(ascii: ";"), end - k < 12 { end += 1 }
            guard end < range.upperBound, bytes[end] == UInt8(ascii: ";") else {
                throw malformed("a bare & (write &amp;)", at: k)
            }
            let ref = String(decoding: bytes[(k + 1)..<end], as: UTF8.self)
            switch ref {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                guard ref.hasPrefix("#") else { throw GPXRouteError(.unknownEntity(line: line(at: k), name: ref)) }
                let hex = ref.hasPrefix("#x")
                let digits = ref.dropFirst(hex ? 2 : 1)
                guard !digits.isEmpty, let v = UInt32(digits, radix: hex ? 16 : 10), v != 0,
                    let scalar = Unicode.Scalar(v)
                else { throw malformed("a bad character reference &\(ErrorText.clause(ref));", at: k) }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            k = end + 1
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw malformed("invalid UTF-8", at: range.lowerBound)
        }
        return s
    }

    /// True while inside a `name` element whose parent's name fixcast keeps.
    var isCollectingName: Bool {
        guard path.count == 3, path[2] == "name" else { return false }
        return path == ["gpx", "rte", "name"] && routesSeen == 1
            || path == ["gpx", "trk", "name"] && tracksSeen == 1
            || path == ["gpx", "metadata", "name"]
    }

    /// `name` opens inside `path` (its parents).
    mutating func startElement(_ name: String, attributes: [(String, String)], at offset: Int) throws(GPXRouteError) {
        let path = self.path + [name]
        if path.count == 1 {
            guard name == "gpx" else {
                throw GPXRouteError(.notGPX(line: line(at: offset), reason: "the root element is <\(name)>, not <gpx>"))
            }
            if let version = attributes.first(where: { $0.0 == "version" })?.1, version != "1.1", version != "1.0" {
                throw GPXRouteError(
                    .notGPX(line: line(at: offset), reason: "version \(ErrorText.clause(version)) is not 1.1"))
            }
            sawRoot = true
            return
        }
        if path == ["gpx", "rte"] { routesSeen += 1 }
        if path == ["gpx", "trk"] { tracksSeen += 1 }
        if name == "name" { text = [] }
        let isRoutePoint = path == ["gpx", "rte", "rtept"] && routesSeen == 1
        let isTrackPoint = path == ["gpx", "trk", "trkseg", "trkpt"]
        guard isRoutePoint || isTrackPoint else { return }
        guard result.routePoints.count + result.trackPoints.count < GPXRouteReader.maxPoints else {
            throw GPXRouteError(.tooManyPoints(line: line(at: offset), limit: GPXRouteReader.maxPoints))
        }
        let lat = try degrees("lat", attributes, range: -90...90, at: offset)
        let lon = try degrees("lon", attributes, range: -180...180, at: offset)
        guard let c = Coordinate(lat: lat, lon: lon) else {
            throw GPXRouteError(.badCoordinate(line: line(at: offset), attribute: "lat/lon", text: "\(lat),\(lon)"))
        }
        if isRoutePoint { result.routePoints.append(c) } else { result.trackPoints.append(c) }
    }

    /// An `xsd:decimal` (GPX's `latitudeType`/`longitudeType`): optional sign, digits, optional
    /// fraction; no exponent, no `nan`, no hex, surrounding whitespace allowed.
    func degrees(_ key: String, _ attributes: [(String, String)], range: ClosedRange<Double>, at offset: Int)
        throws(GPXRouteError) -> Double
    {
        guard let raw = attributes.first(where: { $0.0 == key })?.1 else {
            throw GPXRouteError(.badCoordinate(line: line(at: offset), attribute: key, text: "(missing)"))
        }
        let text = Self.trimmedXMLSpace(raw)
        var body = Substring(text)
        if let f = body.first, f == "-" || f == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digitsOnly = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isNumber } }
        guard let whole = parts.first, digitsOnly(whole), whole.count <= 3, parts.count == 1 || digitsOnly(parts[1]),
            !(whole.isEmpty && (parts.count == 1 || parts[1].isEmpty)), parts.count == 1 || parts[1].count <= 20,
            let v = Double(text.hasPrefix("+") ? String(text.dropFirst()) : text), range.contains(v)
        else { throw GPXRouteError(.badCoordinate(line: line(at: offset), attribute: key, text: raw)) }
        return v
    }

    /// `name` closes; `path` still ends with it.
    mutating func endElement(_ name: String) throws(GPXRouteError) {
        guard name == "name" else { return }
        let value = String(decoding: text, as: UTF8.self)
        if path == ["gpx", "rte", "name"], routesSeen == 1, result.routeName == nil { result.routeName = value }
        if path == ["gpx", "trk", "name"], tracksSeen == 1, result.trackName == nil { result.trackName = value }
        if path == ["gpx", "metadata", "name"], result.metadataName == nil { result.metadataName = value }
        text = []
    }
}

extension GPXScanner {
    /// XML's whitespace (space, tab, CR, LF) trimmed from both ends.
    static func trimmedXMLSpace(_ text: String) -> String {
        let isSpace = { (u: Unicode.Scalar) in u == " " || u == "\t" || u == "\r" || u == "\n" }
        var scalars = Substring(text).unicodeScalars[...]
        while let f = scalars.first, isSpace(f) { scalars = scalars.dropFirst() }
        while let l = scalars.last, isSpace(l) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}
