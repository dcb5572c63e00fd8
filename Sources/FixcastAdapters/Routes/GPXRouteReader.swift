import FixcastCore
import FixcastText

/// Reads the route out of a GPX file's bytes: libxml2 reads the XML (`XMLStreamReader`, with its
/// refusals: no DTD, no entity expanded, bounded depth, size and attributes) and `GPXRouteBuilder`
/// chooses the points, one element at a time, so a 100,000-point route is never held as a tree. A
/// route is read once (at start, or when it changes), so libxml2 is closed again after it when nothing
/// else is reading a document: `run` does not keep the parser's 1.9 MB for a drive (bench/README.md).
public enum GPXRouteReader {
    /// The largest file read, the XML reader's own bound (8 MiB, its reason there).
    public static let maxBytes = XMLStreamReader.maxBytes

    public static func read(_ bytes: [UInt8]) throws(GPXRouteError) -> GPXRoute {
        defer { XMLStreamReader.closeLibraryIfIdle() }
        var builder = GPXRouteBuilder()
        do {
            try XMLStreamReader.read(bytes, into: &builder)
        } catch {
            // The builder found nothing wrong: a reader it stops does not throw, and stops there.
            switch error.cause {
            case .tooLarge(let bytes, let limit): throw GPXRouteError(.tooLarge(bytes: bytes, limit: limit))
            case .libraryMissing(let library): throw GPXRouteError(.libraryMissing(library))
            default: throw GPXRouteError(.unreadableXML(reason: error.reason))
            }
        }
        return try builder.finish()
    }
}
