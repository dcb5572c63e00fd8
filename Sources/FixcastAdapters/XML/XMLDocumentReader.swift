import FixcastCore
import FixcastText

/// Reads an XML document held in memory into a plain tree (`XMLElement`): `XMLStreamReader` (libxml2,
/// with its refusals and bounds) reads it, and a tree builder keeps every element. A tree is for
/// documents read whole and queried (feeds, CAP messages); a document too large to hold as one (a GPX
/// route) is read with a handler of its own instead. The tree's size is bounded here, beside the
/// reader's bounds on the bytes, depth and declarations.
public enum XMLDocumentReader {
    /// 200,000 elements. A country feed of 500 warnings with 30 elements each is 15,000; a tree element
    /// costs about 100 bytes, so the bound keeps an 8 MiB document of `<a/>`s (over a million) from
    /// becoming 100 MB of tree.
    public static let maxElements = 200_000
    /// 200,000 attributes in all, for the same reason: at 5 bytes an attribute,
    /// `XMLStreamReader.maxBytes` alone would let a document carry a million and a half of them.
    public static let maxAttributes = 200_000

    /// The document's root element and everything in it.
    public static func read(_ bytes: [UInt8]) throws(XMLReadError) -> XMLElement {
        var tree = TreeBuilder()
        try XMLStreamReader.read(bytes, into: &tree)
        return try tree.finish()
    }
}

/// The elements still open (the innermost last) and the counts the tree's bounds are held to, as the
/// reader's elements arrive.
private struct TreeBuilder: XMLContentHandler {
    var open: [XMLElement] = []
    var root: XMLElement?
    var elements = 0
    var attributes = 0
    /// The bound that stopped the reading.
    var exceeded: XMLReadError?

    mutating func startElement(_ name: XMLName, attributes: [XMLAttribute], line: Int) -> Bool {
        elements += 1
        self.attributes += attributes.count
        if elements > XMLDocumentReader.maxElements {
            exceeded = XMLReadError(.tooManyElements(limit: XMLDocumentReader.maxElements))
            return false
        }
        if self.attributes > XMLDocumentReader.maxAttributes {
            exceeded = XMLReadError(.tooManyAttributes(limit: XMLDocumentReader.maxAttributes))
            return false
        }
        open.append(XMLElement(name, attributes: attributes))
        return true
    }

    mutating func characters(_ text: String) {
        if !open.isEmpty { open[open.count - 1].text += text }
    }

    /// A finished element goes into its parent, or is the root.
    mutating func endElement(_ name: XMLName) -> Bool {
        guard let element = open.popLast() else { return true }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
        return true
    }

    func finish() throws(XMLReadError) -> XMLElement {
        if let exceeded { throw exceeded }
        guard let root, open.isEmpty else {
            throw XMLReadError(.malformed(line: 0, message: "the document has no root element"))
        }
        return root
    }
}
