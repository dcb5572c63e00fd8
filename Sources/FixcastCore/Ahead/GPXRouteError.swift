/// Why a GPX file cannot be followed as a route: a typed cause (for tests and the agent) and one
/// sentence naming the component (`ahead: …`), what is wrong, where (the line), and what to do.
/// `AheadError.route` carries it to the person.
public struct GPXRouteError: Error, Sendable, Equatable {
    public enum Cause: Sendable, Equatable {
        /// The file is larger than the XML reader takes (`XMLStreamReader.maxBytes`).
        case tooLarge(bytes: Int, limit: Int)
        /// The XML reader (libxml2) could not be loaded.
        case libraryMissing(MissingLibrary)
        /// Not XML fixcast reads, as the XML reader said it (`reason`, the middle of a sentence): not
        /// well-formed, a `<!DOCTYPE>` (whose entities fixcast never expands), an unknown entity, elements
        /// nested too deep, too many attributes in one tag or namespace declarations.
        case unreadableXML(reason: String)
        /// More than `GPXRouteBuilder.maxPoints` route or track points.
        case tooManyPoints(line: Int, limit: Int)
        /// Well-formed XML, but its root is not `<gpx>` or its version is not 1.0/1.1.
        case notGPX(line: Int, reason: String)
        /// A `lat`/`lon` attribute that is missing, not a decimal number, or out of range.
        case badCoordinate(line: Int, attribute: String, text: String)
        /// No `rtept` and no `trkpt`.
        case noPoints
        /// One distinct point only: a route needs a direction.
        case onePoint
    }

    public let cause: Cause
    /// The file's path, when known (the reader reads bytes; who opened the file names it).
    public private(set) var path: String?

    public init(_ cause: Cause) { self.cause = cause }

    /// This error, naming the file it was found in.
    public func at(path: String) -> GPXRouteError {
        var named = self
        named.path = path
        return named
    }

    /// One sentence: `ahead: the route file <path> ...; <what to do>.`
    public var message: String {
        let fix = "pass a GPX 1.1 file with a route (rte) or a track (trk)"
        let file = path.map { "the route file \(ErrorText.clause($0))" } ?? "the route file"
        switch cause {
        case .tooLarge(let bytes, let limit):
            return
                "ahead: \(file) is \(bytes) bytes, more than the \(limit) a route may have; \(fix), or simplify it."
        case .libraryMissing(let library):
            return "ahead: \(file) cannot be read: \(library.clause)."
        case .unreadableXML(let reason):
            return "ahead: \(file) is not XML fixcast reads (\(reason)); \(fix)."
        case .tooManyPoints(let line, let limit):
            return "ahead: \(file) has more than \(limit) points (line \(line)); simplify the route."
        case .notGPX(let line, let reason):
            return "ahead: \(file) is not GPX (line \(line): \(reason)); \(fix)."
        case .badCoordinate(let line, let attribute, let text):
            return
                "ahead: \(file) has an unusable \(attribute) \"\(ErrorText.clause(text))\" at line \(line); \(fix)."
        case .noPoints:
            return "ahead: \(file) has no route or track points; \(fix)."
        case .onePoint:
            return "ahead: \(file) has only one distinct point, which gives no direction; \(fix)."
        }
    }
}
