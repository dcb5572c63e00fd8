import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// libxml2 through the CXML shim: documents as they come (the recorded MeteoAlarm feeds) and as an
/// attacker would write them, each a tree or a typed error, quickly.
@Suite(.scratch) struct XMLDocumentReaderTests {
    static let atom = "http://www.w3.org/2005/Atom"
    static let cap = "urn:oasis:names:tc:emergency:cap:1.2"

    static func read(_ text: String) throws(XMLReadError) -> XMLElement { try XMLDocumentReader.read(Array(text.utf8)) }

    /// The cause of the error reading `bytes` throws, and how long it took.
    static func failure(_ bytes: [UInt8]) -> (cause: XMLReadError.Cause?, seconds: Double) {
        let start = Date()
        do {
            _ = try XMLDocumentReader.read(bytes)
            return (nil, Date().timeIntervalSince(start))
        } catch {
            return (error.cause, Date().timeIntervalSince(start))
        }
    }

    static func isMalformed(_ cause: XMLReadError.Cause?) -> Bool {
        if case .malformed = cause { return true }
        return false
    }

    @Test func theRecordedFeedsAreTreesWithTheirNamespaces() throws {
        let uk = try XMLDocumentReader.read(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: AlertFixtures.meteoAlarmUK))))
        #expect(uk.name == XMLName(namespace: Self.atom, "feed"))
        let entries = uk.children(named: XMLName(namespace: Self.atom, "entry"))
        // Counted independently of libxml2: the literal start tags in the file.
        let text = try String(contentsOfFile: AlertFixtures.meteoAlarmUK, encoding: .utf8)
        #expect(entries.count == text.components(separatedBy: "<entry>").count - 1)
        #expect(entries.count == 25)
        let first = try #require(entries.first)
        #expect(first.child(named: XMLName(namespace: Self.cap, "areaDesc"))?.text == "Strathclyde")
        // The geocode's unprefixed children are in the feed's default namespace, Atom's.
        let geocode = try #require(first.child(named: XMLName(namespace: Self.cap, "geocode")))
        #expect(geocode.child(named: XMLName(namespace: Self.atom, "value"))?.text == "UK105")
        let links = first.children(named: XMLName(namespace: Self.atom, "link"))
        #expect(links.contains { $0.attribute("type") == "application/cap+xml" && $0.attribute("href") != nil })
        // Namespace declarations are not attributes.
        #expect(uk.attributes.isEmpty)
        let areas = entries.compactMap { $0.child(named: XMLName(namespace: Self.cap, "areaDesc"))?.text }
        #expect(areas.contains("Orkney & Shetland"), "entities decoded")

        let france = try XMLDocumentReader.read(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: AlertFixtures.meteoAlarmFrance))))
        #expect(france.children(named: XMLName(namespace: Self.atom, "entry")).count == 12)
    }

    @Test func cdataIsTextAndCommentsAndProcessingInstructionsAreNot() throws {
        let root = try Self.read(
            "<?xml version='1.0'?><!-- before --><a>one <![CDATA[<b>two</b> & &amp;]]><!-- <c/> --><?pi x?> three</a>")
        #expect(root.text == "one <b>two</b> & &amp; three")
        #expect(root.children.isEmpty)
    }

    @Test func aPrefixIsTheWritersChoice() throws {
        let asSent = try Self.read(
            "<feed xmlns='\(Self.atom)' xmlns:cap='\(Self.cap)'><entry a='1'><cap:event>Wind</cap:event></entry></feed>"
        )
        let otherPrefixes = try Self.read(
            "<atom:feed xmlns:atom='\(Self.atom)' xmlns:w='\(Self.cap)'><atom:entry a='1'><w:event>Wind</w:event>"
                + "</atom:entry></atom:feed>")
        let defaults = try Self.read(
            "<feed xmlns='\(Self.atom)'><entry a='1'><event xmlns='\(Self.cap)'>Wind</event></entry></feed>")
        #expect(asSent == otherPrefixes)
        #expect(asSent == defaults)
        #expect(asSent.children.first?.children.first?.name == XMLName(namespace: Self.cap, "event"))
        // An unprefixed attribute is in no namespace; a prefixed one is in its prefix's.
        let attributes = try Self.read("<a xmlns='urn:x' xmlns:p='urn:p' b='1' p:b='2'/>").attributes
        #expect(
            attributes == [
                XMLAttribute(XMLName("b"), value: "1"), XMLAttribute(XMLName(namespace: "urn:p", "b"), value: "2"),
            ])
    }

    @Test func anUndeclaredPrefixIsNotWellFormed() {
        let outcome = Self.failure(Array("<feed><cap:event>Wind</cap:event></feed>".utf8))
        #expect(Self.isMalformed(outcome.cause), "\(String(describing: outcome.cause))")
    }

    @Test func anEntityBombIsRefusedQuickly() {
        var bomb = "<?xml version='1.0'?><!DOCTYPE lolz [<!ENTITY lol 'lol'>"
        var previous = "lol"
        for level in 1...9 {
            bomb += "<!ENTITY lol\(level) '" + String(repeating: "&\(previous);", count: 10) + "'>"
            previous = "lol\(level)"
        }
        bomb += "]><lolz>&\(previous);</lolz>"
        let outcome = Self.failure(Array(bomb.utf8))
        #expect(outcome.cause == .documentType)
        #expect(outcome.seconds < 2, "\(outcome.seconds) s")
    }

    @Test func anExternalEntityIsNeverRead() throws {
        let folder = TestPaths.temporaryDirectory("xml-entity")
        let secret = folder.appendingPathComponent("secret.txt")
        try "fixcast-secret-marker".write(to: secret, atomically: true, encoding: .utf8)
        for document in [
            "<!DOCTYPE a [<!ENTITY x SYSTEM 'file://\(secret.path)'>]><a>&x;</a>",
            "<!DOCTYPE a [<!ENTITY % p SYSTEM 'file://\(secret.path)'> %p;]><a/>",
            "<!DOCTYPE a SYSTEM 'file://\(secret.path)'><a/>",
            "<!DOCTYPE a [<!ENTITY x SYSTEM 'http://127.0.0.1:9/x'>]><a>&x;</a>",
        ] {
            let outcome = Self.failure(Array(document.utf8))
            #expect(outcome.cause != nil, "\(document)")
            #expect(!"\(String(describing: outcome.cause))".contains("fixcast-secret-marker"))
            #expect(outcome.seconds < 2)
        }
        #expect(Self.failure(Array("<!DOCTYPE a SYSTEM 'file://\(secret.path)'><a/>".utf8)).cause == .documentType)
        // Refused before libxml2 reads anything, so even a comment that names one is refused.
        #expect(Self.failure(Array("<a><!-- <!DOCTYPE a> --></a>".utf8)).cause == .documentType)
        // Behind that check, libxml2 as the shim sets it up reads no file either: no DTD is loaded and
        // no entity substituted, and the DTD it parsed is refused when the reader comes to it.
        for document in [
            "<!DOCTYPE a [<!ENTITY x SYSTEM 'file://\(secret.path)'>]><a>&x;</a>",
            "<!DOCTYPE a SYSTEM 'file://\(secret.path)'><a/>",
        ] {
            let bytes = Array(document.utf8)
            var names = ElementNames()
            let parsed = bytes.withUnsafeBufferPointer { XMLStreamReader.parse($0, into: &names) }
            guard let error = parsed else {
                Issue.record("libxml2 read \(document)")
                continue
            }
            #expect(error.cause == .documentType, "\(error.cause)")
            #expect(!"\(error.cause)".contains("fixcast-secret-marker"))
        }
    }

    @Test func aDeepDocumentIsRefusedAtTheBound() throws {
        let deep = String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000)
        let outcome = Self.failure(Array(deep.utf8))
        #expect(outcome.cause == .tooDeep(limit: XMLStreamReader.maxDepth))
        #expect(outcome.seconds < 2)
        let limit = XMLStreamReader.maxDepth
        let atTheBound = String(repeating: "<a>", count: limit) + "x" + String(repeating: "</a>", count: limit)
        var element = try Self.read(atTheBound)
        var depth = 1
        while let child = element.children.first {
            element = child
            depth += 1
        }
        #expect(depth == limit && element.text == "x")
    }

    @Test func hugeDocumentsAreRefusedAtTheBounds() {
        let tooLarge = [UInt8](repeating: 0x20, count: XMLStreamReader.maxBytes + 1)
        #expect(Self.failure(tooLarge).cause == .tooLarge(bytes: tooLarge.count, limit: XMLStreamReader.maxBytes))
        let elements = "<r>" + String(repeating: "<a/>", count: XMLDocumentReader.maxElements) + "</r>"
        let many = Self.failure(Array(elements.utf8))
        #expect(many.cause == .tooManyElements(limit: XMLDocumentReader.maxElements))
        #expect(many.seconds < 5, "\(many.seconds) s")
        let attributes =
            "<r>" + String(repeating: "<a b='' c='' d='' e=''/>", count: XMLDocumentReader.maxAttributes / 4)
            + "<a b='' c=''/></r>"
        let crowded = Self.failure(Array(attributes.utf8))
        #expect(crowded.cause == .tooManyAttributes(limit: XMLDocumentReader.maxAttributes))
        #expect(crowded.seconds < 5, "\(crowded.seconds) s")
    }

    /// libxml2 2.9 takes a tag's attributes in time that grows with their square (16 s for 100,000), so
    /// a tag with more than the bound never reaches it, however the attributes are written.
    @Test func aTagWithTooManyAttributesNeverReachesLibxml2() throws {
        let limit = XMLStreamReader.maxAttributesPerTag
        func tag(_ count: Int, value: String = "") -> [UInt8] {
            Array(("<a " + (0..<count).map { "a\($0)='\(value)'" }.joined(separator: " ") + "/>").utf8)
        }
        #expect(try XMLDocumentReader.read(tag(limit)).attributes.count == limit)
        let huge = Self.failure(tag(300_000))
        #expect(huge.cause == .tooManyAttributesInOneTag(limit: limit))
        #expect(huge.seconds < 2, "\(huge.seconds) s")
        // A '>' in a value does not end the count (a '<' there is not XML at all).
        #expect(Self.failure(tag(limit + 1, value: ">")).cause == .tooManyAttributesInOneTag(limit: limit))
        // Namespace declarations are attributes to libxml2, and each one in scope costs every lookup.
        let declarations = (0...XMLStreamReader.maxNamespaceDeclarations).map {
            "<p\($0):a xmlns:p\($0)='urn:\($0)'/>"
        }
        let declared = Self.failure(Array(("<r>" + declarations.joined() + "</r>").utf8))
        #expect(declared.cause == .tooManyNamespaceDeclarations(limit: XMLStreamReader.maxNamespaceDeclarations))
    }

    @Test func bytesThatAreNotUTF8AreNotWellFormedWhateverTheDocumentDeclares() throws {
        let invalid = Array("<a>ok ".utf8) + [0xFF, 0xFE] + Array("</a>".utf8)
        let outcome = Self.failure(invalid)
        guard case .malformed(let line, let message)? = outcome.cause else {
            Issue.record("\(String(describing: outcome.cause))")
            return
        }
        #expect(line == 1 && !message.isEmpty)
        // The declaration is not followed: Latin-1 bytes are not UTF-8, UTF-8 bytes are read as such.
        let latin1 = Array("<?xml version='1.0' encoding='ISO-8859-1'?><a>".utf8) + [0xE9] + Array("</a>".utf8)
        #expect(Self.isMalformed(Self.failure(latin1).cause))
        #expect(try Self.read("<?xml version='1.0' encoding='ISO-8859-1'?><a>é</a>").text == "é")
        #expect(try Self.read("<?xml version='1.0' encoding='EBCDIC-US'?><a>x</a>").text == "x")
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<a/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(Self.isMalformed(Self.failure(utf16).cause))
        #expect(try XMLDocumentReader.read([0xEF, 0xBB, 0xBF] + Array("<a>x</a>".utf8)).text == "x", "a BOM")
    }

    @Test func aFeedCutShortIsNotADocument() throws {
        let text = try String(contentsOfFile: AlertFixtures.meteoAlarmUK, encoding: .utf8)
        let third = try #require(text.ranges(of: "</entry>").dropFirst(2).first)
        let cut = Self.failure(Array(text[..<third.upperBound].utf8))
        #expect(Self.isMalformed(cut.cause), "\(String(describing: cut.cause))")
        // Only the last end tag missing.
        let end = try #require(text.range(of: "</feed>", options: .backwards))
        let withoutEnd = Self.failure(Array(text[..<end.lowerBound].utf8))
        guard case .malformed(let line, let message)? = withoutEnd.cause else {
            Issue.record("\(String(describing: withoutEnd.cause))")
            return
        }
        #expect(line > 1)
        let reason = XMLReadError(.malformed(line: line, message: message)).reason
        #expect(reason.hasPrefix("not well-formed XML at line \(line): "), "\(reason)")
        // Whitespace after the root is nothing; anything else is.
        #expect(throws: Never.self) { try Self.read(text + " \n\r\n") }
        #expect(Self.isMalformed(Self.failure(Array((text + "<feed/>").utf8)).cause))
        #expect(Self.isMalformed(Self.failure(Array("{\"json\": true}".utf8)).cause))
        #expect(Self.failure([]).cause == .malformed(line: 0, message: "the document is empty"))
    }

}
