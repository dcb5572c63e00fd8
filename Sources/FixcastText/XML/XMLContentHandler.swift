/// What a reader of one kind of XML document is told as a streaming parser meets the document: each
/// element as it opens (its name, attributes and line) and closes, and the character data between.
/// A document too large to hold as a tree (a GPX route of 100,000 points) is read in one pass this way,
/// and the reader of a document kind stays a pure value that tests can drive without a parser. The
/// adapters' libxml2 reader (`XMLStreamReader`) drives it; `XMLElement` trees are built by one too.
///
/// Names and attributes are as `XMLElement` has them: prefixes resolved to namespaces, namespace
/// declarations left out, entity and character references decoded, CDATA sections as text. An empty
/// element (`<a/>`) opens and closes at once. A handler that has seen enough, or too much, returns
/// false and the reading stops there; it says why itself.
public protocol XMLContentHandler {
    /// An element opens at `line` (1-based; 0 when the parser does not know). False stops the reading.
    mutating func startElement(_ name: XMLName, attributes: [XMLAttribute], line: Int) -> Bool
    /// Character data of the element open now (text, a CDATA section, whitespace), in document order;
    /// one element's text may come in several pieces.
    mutating func characters(_ text: String)
    /// The element opened last closes. False stops the reading.
    mutating func endElement(_ name: XMLName) -> Bool
}
