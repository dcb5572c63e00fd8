import FixcastCore

/// Why bytes could not be read as an XML document: a typed cause (for tests, and for a caller that
/// says a missing library differently from a bad answer) and `reason`, the middle of the caller's
/// sentence, as `HTTPError.reason` is ("alerts: MeteoAlarm sent a response fixcast could not read
/// (<reason>); try again later.").
public struct XMLReadError: Error, Sendable, Hashable {
    public enum Cause: Sendable, Hashable {
        /// libxml2 could not be loaded (it is opened at the first document, not linked).
        case libraryMissing(MissingLibrary)
        /// More bytes than `XMLStreamReader.maxBytes`.
        case tooLarge(bytes: Int, limit: Int)
        /// Elements nest deeper than `XMLStreamReader.maxDepth`.
        case tooDeep(limit: Int)
        /// More elements than `XMLDocumentReader.maxElements`.
        case tooManyElements(limit: Int)
        /// More attributes than `XMLDocumentReader.maxAttributes`.
        case tooManyAttributes(limit: Int)
        /// More `=` between two `<` than `XMLStreamReader.maxAttributesPerTag`: a start tag with more
        /// attributes than libxml2 reads in reasonable time.
        case tooManyAttributesInOneTag(limit: Int)
        /// More namespace declarations than `XMLStreamReader.maxNamespaceDeclarations`.
        case tooManyNamespaceDeclarations(limit: Int)
        /// A `<!DOCTYPE>`, anywhere: no DTD is read, so an entity one declares (a "billion laughs", a
        /// `SYSTEM` file) is never expanded, and a document that needs one is refused rather than read
        /// with holes. Also in a comment or CDATA section, where it is text: the bytes are checked before
        /// libxml2 reads them, and telling those apart would be parsing by hand.
        case documentType
        /// An entity reference libxml2 left unexpanded (`&name;`).
        case entityReference(name: String)
        /// Not well-formed XML, as libxml2 found it (its first error and the line): a document cut
        /// short, tags that do not match, bytes that are not the declared encoding, an undeclared
        /// namespace prefix, content after the root element, no root element at all.
        case malformed(line: Int, message: String)
    }

    public let cause: Cause

    public init(_ cause: Cause) { self.cause = cause }

    /// What went wrong, for the middle of a sentence.
    public var reason: String {
        switch cause {
        case .libraryMissing(let library): return library.clause
        case .tooLarge(let bytes, let limit):
            return "the document is \(bytes) bytes, more than the \(limit) fixcast reads"
        case .tooDeep(let limit): return "the document nests elements deeper than \(limit)"
        case .tooManyElements(let limit): return "the document has more than \(limit) elements"
        case .tooManyAttributes(let limit): return "the document has more than \(limit) attributes"
        case .tooManyAttributesInOneTag(let limit):
            return
                "the document has more than \(limit) '=' between two '<', more attributes in one tag than fixcast reads"
        case .tooManyNamespaceDeclarations(let limit):
            return "the document declares more than \(limit) namespaces"
        case .documentType: return "the document declares a DTD (<!DOCTYPE>), which fixcast does not read"
        case .entityReference(let name):
            return "the document uses the entity &\(ErrorText.clause(name));, which fixcast does not expand"
        case .malformed(let line, let message):
            let at = line > 0 ? " at line \(line)" : ""
            return "not well-formed XML\(at): \(ErrorText.clause(message))"
        }
    }
}
