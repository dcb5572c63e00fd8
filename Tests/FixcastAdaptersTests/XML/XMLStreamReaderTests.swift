import FixcastCore
import FixcastText
import Testing

@testable import FixcastAdapters

/// Records what the reader tells a handler, and stops where it is told to.
struct ElementNames: XMLContentHandler {
    var events: [String] = []
    var stopAtStart: String?

    mutating func startElement(_ name: XMLName, attributes: [XMLAttribute], line: Int) -> Bool {
        let listed = attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        events.append("<\(name) [\(listed)] @\(line)")
        return name.local != stopAtStart
    }

    mutating func characters(_ text: String) { events.append("'\(text)'") }

    mutating func endElement(_ name: XMLName) -> Bool {
        events.append("</\(name)>")
        return true
    }
}

/// The streaming reader: what a handler is told, in order, with lines; a handler that stops; and that
/// its bounds hold for a handler as for a tree.
struct XMLStreamReaderTests {
    static func events(_ text: String, stoppingAt: String? = nil) throws(XMLReadError) -> [String] {
        var names = ElementNames(stopAtStart: stoppingAt)
        try XMLStreamReader.read(Array(text.utf8), into: &names)
        return names.events
    }

    @Test func eachElementOpensAndClosesWithItsTextInOrder() throws {
        let text = "<r xmlns='urn:x' xmlns:p='urn:p'>\n<a p:k='1&amp;2'>x<![CDATA[<y>]]>&#x41;</a>\n<p:b/></r>"
        #expect(
            try Self.events(text) == [
                "<{urn:x}r [] @1", "'\n'", "<{urn:x}a [{urn:p}k=1&2] @2", "'x'", "'<y>'", "'A'", "</{urn:x}a>",
                "'\n'", "<{urn:p}b [] @3", "</{urn:p}b>", "</{urn:x}r>",
            ])
    }

    /// A long file names the line an element is on past 65,535, where libxml2's element nodes stop
    /// counting.
    @Test func aLineIsKeptPastSixtyFiveThousand() throws {
        let text = "<r>" + String(repeating: "<b/>\n", count: 70_000) + "<a/></r>"
        let lines = try Self.events(text).filter { $0.hasPrefix("<a ") }
        #expect(lines == ["<a [] @70001"])
    }

    /// A handler that has seen enough stops the reading: nothing after it is told or checked.
    @Test func aHandlerThatStopsEndsTheReading() throws {
        #expect(try Self.events("<r><a/><b/><c>", stoppingAt: "a") == ["<r [] @1", "<a [] @1"])
        #expect(throws: XMLReadError.self) { try Self.events("<r><a/><b/><c>") }
    }

    /// libxml2's xmlTextReader (its push parser, 512 bytes at a time) looked for the end of a comment,
    /// a processing instruction, a CDATA section or an attribute value again at every `>` in it: 4 MB of
    /// `>` in one comment took 5 s, in one attribute value 10 s. Read in one pass, each is linear.
    @Test(arguments: ["<!--", "<?p ", "<![CDATA[", "<a b='"])
    func aConstructFullOfGreaterThanSignsIsReadInLinearTime(opening: String) throws {
        let closing = ["<!--": "-->", "<?p ": "?>", "<![CDATA[": "]]>", "<a b='": "'/>"][opening] ?? ""
        let document = "<r>" + opening + String(repeating: "xxxxxxx>", count: 1 << 19) + closing + "<c/></r>"
        let clock = ContinuousClock()
        let started = clock.now
        let events = try Self.events(document)
        let took = clock.now - started
        #expect(events.contains("<c [] @1"))
        #expect(took < .seconds(2), "4 MB after \(opening) took \(took)")
    }

    /// A NUL byte or a UTF-16 byte order mark is not UTF-8 XML, and never reaches libxml2 (which would
    /// read UTF-16 it detects).
    @Test func aNulByteOrUTF16IsNotUTF8() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<a/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        for bytes in [Array("<a>\n".utf8) + [0] + Array("</a>".utf8), utf16] {
            var names = ElementNames()
            #expect(throws: XMLReadError.self) { try XMLStreamReader.read(bytes, into: &names) }
            #expect(names.events.isEmpty)
        }
        var names = ElementNames()
        let refused = Array("<a>\n".utf8) + [0]
        #expect(throws: XMLReadError(.malformed(line: 2, message: "a NUL byte (not UTF-8 XML)"))) {
            try XMLStreamReader.read(refused, into: &names)
        }
    }

    /// libxml2 is never closed under an open reader, and a document after a close opens it again.
    @Test func theLibraryClosesOnlyWhenNoReaderIsOpen() throws {
        struct ClosingHandler: XMLContentHandler {
            var closedWhileReading: [Bool] = []
            mutating func startElement(_ name: XMLName, attributes: [XMLAttribute], line: Int) -> Bool {
                closedWhileReading.append(XMLStreamReader.closeLibraryIfIdle())
                return true
            }
            mutating func characters(_ text: String) {}
            mutating func endElement(_ name: XMLName) -> Bool { true }
        }
        var handler = ClosingHandler()
        try XMLStreamReader.read(Array("<r><a/><b>x</b></r>".utf8), into: &handler)
        #expect(handler.closedWhileReading == [false, false, false])
        XMLStreamReader.closeLibraryIfIdle()
        #expect(try Self.events("<r>again</r>") == ["<r [] @1", "'again'", "</r>"])
    }

    /// The reader's bounds hold for any handler: depth, declarations, a DOCTYPE, size.
    @Test func theBoundsHoldForAHandlerAsForATree() {
        let deep = String(repeating: "<a>", count: XMLStreamReader.maxDepth + 1)
        #expect(throws: XMLReadError(.tooDeep(limit: XMLStreamReader.maxDepth))) { try Self.events(deep) }
        #expect(throws: XMLReadError(.documentType)) { try Self.events("<!DOCTYPE r><r/>") }
        #expect(throws: XMLReadError.self) { try Self.events("<r>&x;</r>") }
        var names = ElementNames()
        let huge = [UInt8](repeating: 0x20, count: XMLStreamReader.maxBytes + 1)
        #expect(throws: XMLReadError(.tooLarge(bytes: huge.count, limit: XMLStreamReader.maxBytes))) {
            try XMLStreamReader.read(huge, into: &names)
        }
        #expect(names.events.isEmpty)
    }
}
