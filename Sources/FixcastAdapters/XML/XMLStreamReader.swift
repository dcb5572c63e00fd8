internal import CXML
import FixcastCore
import FixcastText

/// Reads an XML document held in memory with libxml2's xmlTextReader (the CXML shim) and tells an
/// `XMLContentHandler` each element and its text as they come, so that no XML is parsed by hand. The
/// document comes from outside and is hostile until read: nothing is fetched (no network, no DTD), no
/// entity is expanded (a `<!DOCTYPE>` is refused before libxml2 sees it), libxml2's own limits stay (no
/// XML_PARSE_HUGE), and each size is bounded here, each bound with its reason. UTF-8 only, whatever the
/// document declares: what fixcast reads it keeps and shows as UTF-8 text, and the checks on the bytes
/// below hold for one encoding. libxml2 is opened at the first document, so a command that reads no XML
/// never maps it. Memory stays the bytes plus what the handler keeps: libxml2's reader holds only the
/// element it is on.
/// - SeeAlso: https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-xmlreader.html
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

    /// The namespace of namespace declarations (`xmlns`, `xmlns:p`), which libxml2 lists among an
    /// element's attributes.
    static let namespaceDeclarations = "http://www.w3.org/2000/xmlns/"

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
    /// libxml2's own defences). The buffer is read in place (xmlReaderForMemory keeps no copy), so the
    /// reader is closed before this returns.
    static func parse<Handler: XMLContentHandler>(_ buffer: UnsafeBufferPointer<UInt8>, into handler: inout Handler)
        -> XMLReadError?
    {
        guard let reader = cxml_reader_open(buffer.baseAddress, Int32(buffer.count)) else {
            if let missing = LoadableLibrary.xml.load() { return XMLReadError(.libraryMissing(missing)) }
            return XMLReadError(.malformed(line: 0, message: "libxml2 could not start a reader"))
        }
        defer { cxml_reader_close(reader) }
        var session = ReadingSession(reader: reader)
        do throws(XMLReadError) {
            try session.read(into: &handler)
            return nil
        } catch {
            return error
        }
    }

    /// What the bytes hold that libxml2 must not be given: a `<!DOCTYPE>` (whose entities libxml2 would
    /// expand as soon as the root element refers to them, before the reader says there is a DTD), or a
    /// start tag with more than `maxAttributesPerTag` attributes. A scan for two bytes, not a parse.
    static func refusal(_ bytes: UnsafeBufferPointer<UInt8>) -> XMLReadError? {
        let doctype = Array("<!DOCTYPE".utf8)
        var equals = 0
        for index in bytes.indices {
            switch bytes[index] {
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

/// One document's reading: libxml2's nodes in, the handler's events out, with the depth and the
/// namespace declarations counted against their bounds.
private struct ReadingSession {
    let reader: OpaquePointer
    var depth = 0
    var sawRoot = false
    var namespaceDeclarations = 0
    /// The last namespace URI met, by libxml2's pointer, and as a Swift string: libxml2 keeps one copy of
    /// each name in its dictionary, so a document's elements point at the same few URIs, and a URI (longer
    /// than a small string) is copied out once a run of elements rather than once an element.
    var lastNamespace: (pointer: UnsafePointer<CChar>, text: String)?

    init(reader: OpaquePointer) { self.reader = reader }

    mutating func read<Handler: XMLContentHandler>(into handler: inout Handler) throws(XMLReadError) {
        var node = cxml_node()
        while true {
            let rc = cxml_reader_read(reader, &node)
            if rc == 0 { break }
            guard rc > 0 else { throw Self.failure(reader) }
            switch node.kind {
            case CXML_NODE_ELEMENT:
                guard depth < XMLStreamReader.maxDepth else {
                    throw XMLReadError(.tooDeep(limit: XMLStreamReader.maxDepth))
                }
                sawRoot = true
                let name = self.name(node)
                let empty = node.is_empty != 0
                guard handler.startElement(name, attributes: try attributes(), line: Int(node.line)) else { return }
                if empty {
                    guard handler.endElement(name) else { return }
                } else {
                    depth += 1
                }
            case CXML_NODE_END_ELEMENT:
                depth -= 1
                guard handler.endElement(name(node)) else { return }
            case CXML_NODE_TEXT:
                if depth > 0, let value = node.value { handler.characters(String(cString: value)) }
            case CXML_NODE_DOCUMENT_TYPE:
                throw XMLReadError(.documentType)
            case CXML_NODE_ENTITY_REFERENCE:
                throw XMLReadError(.entityReference(name: node.local_name.map { String(cString: $0) } ?? ""))
            default:
                continue
            }
        }
        guard sawRoot, depth == 0 else {
            throw XMLReadError(.malformed(line: 0, message: "the document has no root element"))
        }
    }

    /// The current element's attributes, one after another; its namespace declarations are counted,
    /// not kept.
    private mutating func attributes() throws(XMLReadError) -> [XMLAttribute] {
        var out: [XMLAttribute] = []
        var node = cxml_node()
        var more = cxml_reader_attribute(reader, 1, &node)
        while more == 1 {
            let name = self.name(node)
            if name.namespace == XMLStreamReader.namespaceDeclarations {
                namespaceDeclarations += 1
                guard namespaceDeclarations <= XMLStreamReader.maxNamespaceDeclarations else {
                    throw XMLReadError(.tooManyNamespaceDeclarations(limit: XMLStreamReader.maxNamespaceDeclarations))
                }
            } else {
                out.append(XMLAttribute(name, value: node.value.map { String(cString: $0) } ?? ""))
            }
            more = cxml_reader_attribute(reader, 0, &node)
        }
        return out
    }

    private mutating func name(_ node: cxml_node) -> XMLName {
        XMLName(namespace: namespace(node.namespace_uri), node.local_name.map { String(cString: $0) } ?? "")
    }

    private mutating func namespace(_ uri: UnsafePointer<CChar>?) -> String {
        guard let uri else { return "" }
        if let last = lastNamespace, last.pointer == uri { return last.text }
        let text = String(cString: uri)
        lastNamespace = (uri, text)
        return text
    }

    /// libxml2's first error, or, when it gave none, that it stopped.
    private static func failure(_ reader: OpaquePointer) -> XMLReadError {
        let message = String(cString: cxml_reader_error(reader))
        return XMLReadError(
            .malformed(
                line: Int(cxml_reader_error_line(reader)),
                message: message.isEmpty ? "libxml2 stopped reading without saying why" : message))
    }
}

extension LoadableLibrary {
    /// libxml2, opened at the first document.
    static var xml: LoadableLibrary {
        LoadableLibrary(
            soname: cxml_library_soname(), load: cxml_library_load, error: cxml_library_error,
            probe: cxml_library_probe)
    }
}
