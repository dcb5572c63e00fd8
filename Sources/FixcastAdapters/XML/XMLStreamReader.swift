internal import CXML
import FixcastCore
import FixcastText

/// Reads an XML document held in memory with libxml2's SAX2 parser (the CXML shim) and tells an
/// `XMLContentHandler` each element and its text as they come, so that no XML is parsed by hand. The
/// document comes from outside and is hostile until read: nothing is fetched (no network, no DTD), no
/// entity is expanded (a `<!DOCTYPE>` is refused before libxml2 sees it), libxml2's own limits stay (no
/// XML_PARSE_HUGE), and each size is bounded here, each bound with its reason. UTF-8 only, whatever the
/// document declares: what fixcast reads it keeps and shows as UTF-8 text, and the checks on the bytes
/// below hold for one encoding. libxml2 is opened at the first document, so a command that reads no XML
/// never maps it. Memory stays the bytes plus what the handler keeps: libxml2 builds no tree.
/// - SeeAlso: https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-SAX2.html
public enum XMLStreamReader {
    /// 8 MiB: four times the HTTP client's cap on a body (2 MiB), which every feed fixcast reads came
    /// through (the largest recorded MeteoAlarm country feed is 38 kB), and eight times a 10,000-point
    /// route with times and elevations (about 1 MB): `run` must stay within 24 MB of peak RSS, and the
    /// bytes are held while they are read. It also keeps the length an `Int32`, as libxml2 takes it.
    public static let maxBytes = 8 << 20
    /// 32 levels. An Atom feed with CAP fields nests 4 deep (feed, entry, cap:geocode, value), a CAP
    /// message 5, GPX points 4 and vendors' `extensions` a few more (Garmin's 6). A tree's own recursion
    /// (equality, hashing, release) goes as deep as the document, so a deeper one is refused.
    public static let maxDepth = 32
    /// 256 `=` between one `<` and the next, checked on the bytes before libxml2 reads them: an upper
    /// bound on the attributes of any one start tag, since each attribute has its `=` and no tag, not
    /// even an attribute value, holds a `<`. libxml2 before 2.12 compares each attribute of a tag with
    /// every one before it, so a tag's cost grows with the square of its attributes: 40,000 took 2.4 s
    /// and 100,000 16 s on the machine this was written on, and a 2 MiB body holds 260,000. An Atom or
    /// CAP element has at most five, a GPX point two.
    public static let maxAttributesPerTag = 256
    /// 100 namespace declarations in all. libxml2 looks a prefix up through every declaration in scope,
    /// so with thousands in scope each element costs thousands of steps; an Atom feed with CAP fields
    /// declares two, a GPX file with Garmin's extensions five.
    public static let maxNamespaceDeclarations = 100

    /// Reads `bytes` to the end, or until `handler` stops it, telling `handler` what it meets. Throws
    /// when the document is refused or is not well-formed XML (as far as it was read: a handler that
    /// stopped early has not seen the rest checked).
    public static func read<Handler: XMLContentHandler>(_ bytes: [UInt8], into handler: inout Handler)
        throws(XMLReadError)
    {
        guard bytes.count <= maxBytes else { throw XMLReadError(.tooLarge(bytes: bytes.count, limit: maxBytes)) }
        guard !bytes.isEmpty else { throw XMLReadError(.malformed(line: 0, message: "the document is empty")) }
        let failure = bytes.withUnsafeBufferPointer { buffer -> XMLReadError? in
            if let refused = refusal(buffer) { return refused }
            return parse(buffer, into: &handler)
        }
        if let failure { throw failure }
    }

    /// Closes libxml2 when no document is being read, so that it and what it pulled in (libicu, liblzma,
    /// libz: about 1.9 MB of resident pages) leave the process; the next document opens it again. For a
    /// document read once (a route, at start), so that `run` does not carry the parser for the drive; not
    /// for feeds read every few minutes. True when it was closed.
    @discardableResult
    public static func closeLibraryIfIdle() -> Bool { cxml_library_unload_if_idle() == 1 }

    /// libxml2's reading of bytes the checks on them let through (tests call it directly to see
    /// libxml2's own defences). The buffer is read in place, in one pass (libxml2's SAX2 parser: the
    /// CXML shim says why not its xmlTextReader).
    static func parse<Handler: XMLContentHandler>(_ buffer: UnsafeBufferPointer<UInt8>, into handler: inout Handler)
        -> XMLReadError?
    {
        let session = ParseSession(handler)
        var failure = cxml_failure()
        let outcome = withExtendedLifetime(session) { () -> cxml_outcome in
            var callbacks = cxml_handler(
                context: Unmanaged.passUnretained(session as ParseSessionBase).toOpaque(),
                start_element: { context, local, namespace, line, attributes, count, declarations in
                    guard let context else { return 0 }
                    let session = Unmanaged<ParseSessionBase>.fromOpaque(context).takeUnretainedValue()
                    return session.start(local, namespace, Int(line), attributes, Int(count), Int(declarations)) ? 1 : 0
                },
                end_element: { context, local, namespace in
                    guard let context else { return 0 }
                    let session = Unmanaged<ParseSessionBase>.fromOpaque(context).takeUnretainedValue()
                    return session.end(local, namespace) ? 1 : 0
                },
                characters: { context, text, length in
                    guard let context, let text, length > 0 else { return }
                    let session = Unmanaged<ParseSessionBase>.fromOpaque(context).takeUnretainedValue()
                    session.characters(text, Int(length))
                })
            return cxml_parse(buffer.baseAddress, Int32(buffer.count), &callbacks, &failure)
        }
        handler = session.handler
        if let exceeded = session.exceeded { return exceeded }
        let message = withUnsafeBytes(of: failure.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch outcome {
        case CXML_DONE:
            guard session.sawRoot, session.depth == 0 else {
                return XMLReadError(.malformed(line: 0, message: "the document has no root element"))
            }
            return nil
        case CXML_STOPPED:
            return nil
        case CXML_DOCUMENT_TYPE:
            return XMLReadError(.documentType)
        case CXML_ENTITY_REFERENCE:
            return XMLReadError(.entityReference(name: message))
        case CXML_TOO_MANY_ATTRIBUTES:
            return XMLReadError(.tooManyAttributesInOneTag(limit: maxAttributesPerTag))
        case CXML_LIBRARY_MISSING:
            if let missing = LoadableLibrary.xml.load() { return XMLReadError(.libraryMissing(missing)) }
            return XMLReadError(.malformed(line: 0, message: "libxml2 could not be loaded"))
        case CXML_NO_MEMORY:
            return XMLReadError(.malformed(line: 0, message: "libxml2 ran out of memory"))
        default:
            return XMLReadError(
                .malformed(
                    line: Int(failure.line),
                    message: message.isEmpty ? "libxml2 stopped reading without saying why" : message))
        }
    }

    /// What the bytes hold that libxml2 must not be given: a `<!DOCTYPE>` (whose entities libxml2 would
    /// expand as soon as the root element refers to them, before the parser says there is a DTD), a
    /// start tag with more than `maxAttributesPerTag` attributes, or a NUL byte or a UTF-16 byte order
    /// mark (UTF-16 or UTF-32, which libxml2 would detect and read, where fixcast reads UTF-8 only; XML
    /// has no NUL character). A scan for a few bytes, not a parse.
    static func refusal(_ bytes: UnsafeBufferPointer<UInt8>) -> XMLReadError? {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            return XMLReadError(.malformed(line: 1, message: "the document is UTF-16, not UTF-8"))
        }
        let doctype = Array("<!DOCTYPE".utf8)
        var equals = 0
        var line = 1
        for index in bytes.indices {
            switch bytes[index] {
            case 0:
                return XMLReadError(.malformed(line: line, message: "a NUL byte (not UTF-8 XML)"))
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "<"):
                equals = 0
                if bytes.count - index >= doctype.count,
                    bytes[index..<index + doctype.count].elementsEqual(doctype)
                {
                    return XMLReadError(.documentType)
                }
            case UInt8(ascii: "="):
                equals += 1
                if equals > maxAttributesPerTag {
                    return XMLReadError(.tooManyAttributesInOneTag(limit: maxAttributesPerTag))
                }
            default:
                continue
            }
        }
        return nil
    }
}

/// One document's reading, as the C callbacks see it (they cannot be generic): libxml2's SAX2 events in,
/// the handler's out, with the depth and the namespace declarations counted against their bounds.
private class ParseSessionBase {
    var depth = 0
    var sawRoot = false
    var namespaceDeclarations = 0
    /// The bound that stopped the reading.
    var exceeded: XMLReadError?
    /// The last namespace URI met, by libxml2's pointer, and as a Swift string: libxml2 keeps one copy of
    /// each name in its dictionary, so a document's elements point at the same few URIs, and a URI (longer
    /// than a small string) is copied out once a run of elements rather than once an element.
    var lastNamespace: (pointer: UnsafePointer<CChar>, text: String)?

    func start(
        _ local: UnsafePointer<CChar>?, _ namespace: UnsafePointer<CChar>?, _ line: Int,
        _ attributes: UnsafePointer<cxml_attribute>?, _ count: Int, _ declarations: Int
    ) -> Bool {
        guard depth < XMLStreamReader.maxDepth else {
            exceeded = XMLReadError(.tooDeep(limit: XMLStreamReader.maxDepth))
            return false
        }
        namespaceDeclarations += declarations
        guard namespaceDeclarations <= XMLStreamReader.maxNamespaceDeclarations else {
            exceeded = XMLReadError(.tooManyNamespaceDeclarations(limit: XMLStreamReader.maxNamespaceDeclarations))
            return false
        }
        sawRoot = true
        depth += 1
        var list: [XMLAttribute] = []
        if let attributes, count > 0 {
            list.reserveCapacity(count)
            for a in UnsafeBufferPointer(start: attributes, count: count) {
                var value = a.value.map { Self.text($0, Int(a.value_length)) } ?? ""
                // Without entity substitution libxml2's SAX2 parser hands an attribute's `&` (written
                // `&amp;` or `&#38;`: a bare `&` is not well-formed) back as `&#38;`, and only that.
                if value.utf8.contains(UInt8(ascii: "&")) { value = value.replacing("&#38;", with: "&") }
                list.append(XMLAttribute(name(a.local_name, a.namespace_uri), value: value))
            }
        }
        return started(name(local, namespace), list, line)
    }

    func end(_ local: UnsafePointer<CChar>?, _ namespace: UnsafePointer<CChar>?) -> Bool {
        depth -= 1
        return ended(name(local, namespace))
    }

    func characters(_ text: UnsafePointer<CChar>, _ length: Int) {
        if depth > 0 { received(Self.text(text, length)) }
    }

    /// The handler's part, which the generic subclass forwards.
    func started(_ name: XMLName, _ attributes: [XMLAttribute], _ line: Int) -> Bool { false }
    func ended(_ name: XMLName) -> Bool { false }
    func received(_ text: String) {}

    private func name(_ local: UnsafePointer<CChar>?, _ namespace: UnsafePointer<CChar>?) -> XMLName {
        XMLName(namespace: self.namespace(namespace), local.map { String(cString: $0) } ?? "")
    }

    private func namespace(_ uri: UnsafePointer<CChar>?) -> String {
        guard let uri else { return "" }
        if let last = lastNamespace, last.pointer == uri { return last.text }
        let text = String(cString: uri)
        lastNamespace = (uri, text)
        return text
    }

    /// `length` bytes of UTF-8 (libxml2 has checked them) as a string.
    private static func text(_ start: UnsafePointer<CChar>, _ length: Int) -> String {
        start.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

/// The session with its handler.
private final class ParseSession<Handler: XMLContentHandler>: ParseSessionBase {
    var handler: Handler

    init(_ handler: Handler) { self.handler = handler }

    override func started(_ name: XMLName, _ attributes: [XMLAttribute], _ line: Int) -> Bool {
        handler.startElement(name, attributes: attributes, line: line)
    }
    override func ended(_ name: XMLName) -> Bool { handler.endElement(name) }
    override func received(_ text: String) { handler.characters(text) }
}

extension LoadableLibrary {
    /// libxml2, opened at the first document.
    static var xml: LoadableLibrary {
        LoadableLibrary(
            soname: cxml_library_soname(), load: cxml_library_load, error: cxml_library_error,
            probe: cxml_library_probe)
    }
}
