internal import CXML
import FixcastCore
import FixcastText

/// Reads an XML document held in memory into a plain tree (`XMLElement`) with libxml2's xmlTextReader
/// (the CXML shim), so that no XML is parsed by hand. The document comes from outside and is hostile
/// until read: nothing is fetched (no network, no DTD), no entity is expanded (a `<!DOCTYPE>` is
/// refused before libxml2 sees it), libxml2's own limits stay (no XML_PARSE_HUGE), and each size is
/// bounded here, each bound with its reason. UTF-8 only, whatever the document declares: what fixcast
/// reads it keeps and shows as UTF-8 text, and the checks on the bytes below hold for one encoding.
/// libxml2 is opened at the first document, so a command that reads no XML never maps it.
/// - SeeAlso: https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-xmlreader.html
public enum XMLDocumentReader {
    /// 8 MiB: four times the HTTP client's cap on a body (2 MiB), which every document fixcast reads
    /// came through; the largest recorded MeteoAlarm country feed is 38 kB. It also keeps the length an
    /// `Int32`, as libxml2 takes it.
    public static let maxBytes = 8 << 20
    /// 32 levels. An Atom feed with CAP fields nests 4 deep (feed, entry, cap:geocode, value), a CAP
    /// message 5 (alert, info, area, geocode, value). The tree's own recursion (equality, hashing,
    /// release) goes as deep as the document, so a deeper one is refused before it is built.
    public static let maxDepth = 32
    /// 200,000 elements. A country feed of 500 warnings with 30 elements each is 15,000; a tree element
    /// costs about 100 bytes, so the bound keeps an 8 MiB document of `<a/>`s (over a million) from
    /// becoming 100 MB of tree.
    public static let maxElements = 200_000
    /// 200,000 attributes in all, for the same reason: at 5 bytes an attribute, `maxBytes` alone would
    /// let a document carry a million and a half of them.
    public static let maxAttributes = 200_000
    /// 256 `=` between one `<` and the next, checked on the bytes before libxml2 reads them: an upper
    /// bound on the attributes of any one start tag, since each attribute has its `=` and no tag, not
    /// even an attribute value, holds a `<`. libxml2 before 2.12 compares each attribute of a tag with
    /// every one before it, so a tag's cost grows with the square of its attributes: 40,000 took 2.4 s
    /// and 100,000 16 s on the machine this was written on, and a 2 MiB body holds 260,000. An Atom or
    /// CAP element has at most five.
    public static let maxAttributesPerTag = 256
    /// 100 namespace declarations in all. libxml2 looks a prefix up through every declaration in scope,
    /// so with thousands in scope each element costs thousands of steps; an Atom feed with CAP fields
    /// declares two.
    public static let maxNamespaceDeclarations = 100

    /// The namespace of namespace declarations (`xmlns`, `xmlns:p`), which libxml2 lists among an
    /// element's attributes.
    static let namespaceDeclarations = "http://www.w3.org/2000/xmlns/"

    /// The document's root element and everything in it.
    public static func read(_ bytes: [UInt8]) throws(XMLReadError) -> XMLElement {
        guard bytes.count <= maxBytes else { throw XMLReadError(.tooLarge(bytes: bytes.count, limit: maxBytes)) }
        guard !bytes.isEmpty else { throw XMLReadError(.malformed(line: 0, message: "the document is empty")) }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<XMLElement, XMLReadError> in
            if let refused = refusal(buffer) { return .failure(refused) }
            return parse(buffer)
        }
        return try result.get()
    }

    /// libxml2's reading of bytes the checks on them let through (tests call it directly to see
    /// libxml2's own defences). The buffer is read in place (xmlReaderForMemory keeps no copy), so the
    /// reader is closed before this returns.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<XMLElement, XMLReadError> {
        guard let reader = cxml_reader_open(buffer.baseAddress, Int32(buffer.count)) else {
            if let missing = LoadableLibrary.xml.load() { return .failure(XMLReadError(.libraryMissing(missing))) }
            return .failure(XMLReadError(.malformed(line: 0, message: "libxml2 could not start a reader")))
        }
        defer { cxml_reader_close(reader) }
        var tree = TreeBuilder()
        return Result { () throws(XMLReadError) in try tree.read(reader) }
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

/// The elements still open (the innermost last) and the counts the bounds are held to, as the
/// reader's nodes arrive.
private struct TreeBuilder {
    var open: [XMLElement] = []
    var root: XMLElement?
    var elements = 0
    var attributes = 0
    var namespaceDeclarations = 0

    mutating func read(_ reader: OpaquePointer) throws(XMLReadError) -> XMLElement {
        var node = cxml_node()
        while true {
            let rc = cxml_reader_read(reader, &node)
            if rc == 0 { break }
            guard rc > 0 else { throw Self.failure(reader) }
            switch node.kind {
            case CXML_NODE_ELEMENT:
                elements += 1
                guard elements <= XMLDocumentReader.maxElements else {
                    throw XMLReadError(.tooManyElements(limit: XMLDocumentReader.maxElements))
                }
                guard open.count < XMLDocumentReader.maxDepth else {
                    throw XMLReadError(.tooDeep(limit: XMLDocumentReader.maxDepth))
                }
                let empty = node.is_empty != 0
                let element = XMLElement(Self.name(node), attributes: try attributes(of: reader))
                if empty { close(element) } else { open.append(element) }
            case CXML_NODE_END_ELEMENT:
                if let element = open.popLast() { close(element) }
            case CXML_NODE_TEXT:
                if !open.isEmpty, let value = node.value { open[open.count - 1].text += String(cString: value) }
            case CXML_NODE_DOCUMENT_TYPE:
                throw XMLReadError(.documentType)
            case CXML_NODE_ENTITY_REFERENCE:
                throw XMLReadError(.entityReference(name: node.local_name.map { String(cString: $0) } ?? ""))
            default:
                continue
            }
        }
        guard let root, open.isEmpty else {
            throw XMLReadError(.malformed(line: 0, message: "the document has no root element"))
        }
        return root
    }

    /// A finished element goes into its parent, or is the root.
    private mutating func close(_ element: XMLElement) {
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }

    /// The current element's attributes, one after another; its namespace declarations are counted,
    /// not kept.
    private mutating func attributes(of reader: OpaquePointer) throws(XMLReadError) -> [XMLAttribute] {
        var out: [XMLAttribute] = []
        var node = cxml_node()
        var more = cxml_reader_attribute(reader, 1, &node)
        while more == 1 {
            let name = Self.name(node)
            if name.namespace == XMLDocumentReader.namespaceDeclarations {
                namespaceDeclarations += 1
                guard namespaceDeclarations <= XMLDocumentReader.maxNamespaceDeclarations else {
                    throw XMLReadError(.tooManyNamespaceDeclarations(limit: XMLDocumentReader.maxNamespaceDeclarations))
                }
            } else {
                attributes += 1
                guard attributes <= XMLDocumentReader.maxAttributes else {
                    throw XMLReadError(.tooManyAttributes(limit: XMLDocumentReader.maxAttributes))
                }
                out.append(XMLAttribute(name, value: node.value.map { String(cString: $0) } ?? ""))
            }
            more = cxml_reader_attribute(reader, 0, &node)
        }
        return out
    }

    private static func name(_ node: cxml_node) -> XMLName {
        XMLName(
            namespace: node.namespace_uri.map { String(cString: $0) } ?? "",
            node.local_name.map { String(cString: $0) } ?? "")
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
