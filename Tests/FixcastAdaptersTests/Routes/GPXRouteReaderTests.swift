import FixcastAdapters
import FixcastCore
import Testing

/// Route files through libxml2 and `GPXRouteBuilder`, as `--route` reads them: what GPX writers write,
/// and what an attacker would.
@Suite("GPXRouteReader")
struct GPXRouteReaderTests {
    static func gpx(_ body: String, header: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") -> [UInt8] {
        Array(
            (header + "<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n" + body
                + "\n</gpx>\n").utf8)
    }

    static func cause(_ bytes: [UInt8]) -> GPXRouteError.Cause? {
        do {
            _ = try GPXRouteReader.read(bytes)
            return nil
        } catch {
            return error.cause
        }
    }

    /// The XML reader's reason when `bytes` are refused as XML, else nil.
    static func unreadable(_ bytes: [UInt8]) -> String? {
        if case .unreadableXML(let reason) = cause(bytes) { return reason }
        return nil
    }

    @Test func routePointsWinOverTrackPointsAndTheRouteNameIsKept() throws {
        let route = try GPXRouteReader.read(
            Self.gpx(
                """
                <metadata><name>Meta</name></metadata>
                <trk><name>Track</name><trkseg><trkpt lat="1" lon="1"/><trkpt lat="2" lon="2"/></trkseg></trk>
                <rte><name>Berlin &amp; Hamburg</name>
                  <rtept lat="52.52" lon="13.405"><ele>34</ele><name>Start</name></rtept>
                  <rtept lat='53.55' lon='9.99'/>
                </rte>
                """))
        #expect(route.name == "Berlin & Hamburg")
        #expect(route.points == [Coordinate(lat: 52.52, lon: 13.405)!, Coordinate(lat: 53.55, lon: 9.99)!])
    }

    @Test func everyTrackSegmentInOrderWhenThereIsNoRoute() throws {
        let route = try GPXRouteReader.read(
            Self.gpx(
                """
                <trk><name>Drive</name>
                  <trkseg><trkpt lat="1" lon="1"><time>2026-01-01T00:00:00Z</time></trkpt><trkpt lat="2" lon="2"/></trkseg>
                  <trkseg><trkpt lat="3" lon="3"/></trkseg>
                </trk>
                <trk><name>Second</name><trkseg><trkpt lat="4" lon="4"/></trkseg></trk>
                """))
        #expect(route.name == "Drive")
        #expect(route.points.map(\.lat) == [1, 2, 3, 4])
    }

    @Test func theMetadataNameStandsInAndANameIsCleaned() throws {
        let route = try GPXRouteReader.read(
            Self.gpx(
                """
                <metadata><name>  Line\u{9B}31m one&#10;two\u{202E}  </name></metadata>
                <rte><rtept lat="0" lon="0"/><rtept lat="0" lon="1"/></rte>
                """))
        // XML 1.0 has no C0 control but tab, CR and LF (an ESC is not well-formed: below), but it has
        // C1's (CSI, U+009B) and bidi overrides.
        #expect(route.name == "Line 31m one two")
        let unnamed = try GPXRouteReader.read(
            Self.gpx("<rte><rtept lat=\"0\" lon=\"0\"/><rtept lat=\"0\" lon=\"1\"/></rte>"))
        #expect(unnamed.name == nil)
        // The joiners spell words and emoji: kept (they became spaces); a bidi control goes, not a space.
        let joined = try GPXRouteReader.read(
            Self.gpx(
                """
                <rte><name>می\u{200C}روم به 👨\u{200D}👩\u{200D}👧 Ta\u{2066}hoe</name>
                <rtept lat="0" lon="0"/><rtept lat="0" lon="1"/></rte>
                """))
        #expect(joined.name == "می\u{200C}روم به 👨\u{200D}👩\u{200D}👧 Tahoe")
    }

    @Test func commentsCDATAAndABOMAreRead() throws {
        let route = try GPXRouteReader.read(
            Self.gpx(
                """
                <!-- a comment with <rtept lat="9" lon="9"/> inside -->
                <rte><name><![CDATA[A <b> road]]></name><rtept lat="0" lon="0"/><rtept lat="0.5" lon="0"/></rte>
                """, header: "\u{FEFF}<?xml version=\"1.0\"?>\n"))
        #expect(route.name == "A <b> road")
        #expect(route.points.count == 2)
    }

    /// GPX 1.0's namespace and none at all are GPX; an element of another namespace is a vendor's, even
    /// when its local name is `rtept` or `name`.
    @Test func gpxElementsAreKnownByTheirNamespace() throws {
        let old = "<gpx version=\"1.0\" xmlns=\"http://www.topografix.com/GPX/1/0\">"
        let points = "<rte><rtept lat=\"1\" lon=\"1\"/><rtept lat=\"2\" lon=\"2\"/></rte></gpx>"
        #expect(try GPXRouteReader.read(Array((old + points).utf8)).points.count == 2)
        #expect(try GPXRouteReader.read(Array(("<gpx>" + points).utf8)).points.count == 2)
        let vendor = try GPXRouteReader.read(
            Self.gpx(
                """
                <rte xmlns:v="urn:vendor"><v:name>Not this</v:name>
                  <rtept lat="1" lon="1"/><v:rtept lat="9" lon="9"/><rtept lat="2" lon="2"/></rte>
                """))
        #expect(vendor.points.map(\.lat) == [1, 2])
        #expect(vendor.name == nil)
        guard case .notGPX = Self.cause(Array("<gpx xmlns=\"urn:not-gpx\">\(points)".utf8)) else {
            Issue.record("a <gpx> of another namespace was read as GPX")
            return
        }
    }

    @Test func consecutiveDuplicatesAreDroppedButARevisitIsKept() throws {
        let route = try GPXRouteReader.read(
            Self.gpx(
                """
                <rte><rtept lat="0" lon="0"/><rtept lat="0" lon="0"/><rtept lat="0" lon="1"/><rtept lat="0" lon="1"/><rtept lat="0" lon="0"/></rte>
                """))
        #expect(route.points.map(\.lon) == [0, 1, 0])
    }

    @Test func aRouteAcrossTheAntimeridianKeepsItsLongitudes() throws {
        let route = try GPXRouteReader.read(
            Self.gpx(
                """
                <rte><rtept lat="-17.7" lon="179.9"/><rtept lat="-17.8" lon="-179.9"/><rtept lat="-17.9" lon="-179.5"/></rte>
                """))
        #expect(route.points.map(\.lon) == [179.9, -179.9, -179.5])
    }

    @Test func noPointsAndOnePointAreRefused() {
        #expect(Self.cause(Self.gpx("<rte><name>x</name></rte>")) == .noPoints)
        #expect(Self.cause(Self.gpx("<rte><rtept lat=\"1\" lon=\"1\"/></rte>")) == .onePoint)
        #expect(
            Self.cause(Self.gpx("<rte><rtept lat=\"1\" lon=\"1\"/><rtept lat=\"1\" lon=\"1\"/></rte>")) == .onePoint)
    }

    @Test(arguments: [
        ("abc", "lat"), ("91", "lat"), ("-90.0001", "lat"), ("1e1", "lat"), ("nan", "lat"), ("0x10", "lat"),
        ("", "lat"),
        ("+-1", "lat"), (".", "lat"),
    ])
    func aBadLatitudeIsRefusedWithItsLine(text: String, attribute: String) {
        let bytes = Self.gpx("<rte>\n<rtept lat=\"0\" lon=\"0\"/>\n<rtept lat=\"\(text)\" lon=\"1\"/></rte>")
        #expect(Self.cause(bytes) == .badCoordinate(line: 5, attribute: attribute, text: text))
    }

    @Test func aBadOrMissingLongitudeIsRefused() {
        #expect(
            Self.cause(Self.gpx("<rte><rtept lat=\"0\" lon=\"180.5\"/></rte>"))
                == .badCoordinate(line: 3, attribute: "lon", text: "180.5"))
        #expect(
            Self.cause(Self.gpx("<rte><rtept lat=\"0\"/></rte>"))
                == .badCoordinate(line: 3, attribute: "lon", text: "(missing)"))
        // Decimal forms the schema allows are read.
        #expect(
            Self.cause(Self.gpx("<rte><rtept lat=\" +.5 \" lon=\"-180\"/><rtept lat=\"5.\" lon=\"180\"/></rte>")) == nil
        )
    }

    /// No DTD is read, so a DOCTYPE is refused, plain or a bomb, before libxml2 sees it.
    @Test func aDoctypeIsRefusedBeforeAnythingIsExpanded() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [
              <!ENTITY a "aaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            ]>
            <gpx version="1.1"><rte><name>&b;</name></rte></gpx>
            """
        for bytes in [Array(bomb.utf8), Self.gpx("<rte/>", header: "<!DOCTYPE gpx>\n")] {
            let reason = Self.unreadable(bytes)
            #expect(reason?.contains("DTD") == true, "\(String(describing: reason))")
        }
    }

    @Test func anUndeclaredEntityAndABareAmpersandAreRefusedWithTheirLine() {
        for body in ["<rte><name>&nbsp;</name></rte>", "<rte><name>A & B</name></rte>", "<rte><name>&#0;</name></rte>"]
        {
            let reason = Self.unreadable(Self.gpx(body))
            #expect(reason?.contains("line 3") == true, "\(body): \(String(describing: reason))")
        }
    }

    @Test func aDeepFileIsRefusedAtTheLimit() {
        let depth = XMLStreamReader.maxDepth
        let open = String(repeating: "<e>", count: depth)
        let close = String(repeating: "</e>", count: depth)
        let reason = Self.unreadable(Self.gpx("<extensions>" + open + close + "</extensions>"))
        #expect(reason?.contains("deeper than \(depth)") == true, "\(String(describing: reason))")
        // Within the limit is fine (and then there are no points).
        let fits = String(repeating: "<e>", count: depth - 2) + String(repeating: "</e>", count: depth - 2)
        #expect(Self.cause(Self.gpx("<extensions>" + fits + "</extensions>")) == .noPoints)
    }

    @Test func aHugeFileIsRefusedBeforeItIsScanned() {
        let huge = [UInt8](repeating: 0x20, count: GPXRouteReader.maxBytes + 1)
        #expect(Self.cause(huge) == .tooLarge(bytes: GPXRouteReader.maxBytes + 1, limit: GPXRouteReader.maxBytes))
    }

    @Test func tooManyPointsAreRefused() {
        let point = "<trkpt lat=\"1\" lon=\"1\"/>"
        let body = "<trk><trkseg>" + String(repeating: point, count: GPXRouteBuilder.maxPoints + 1) + "</trkseg></trk>"
        #expect(Self.cause(Self.gpx(body)) == .tooManyPoints(line: 3, limit: GPXRouteBuilder.maxPoints))
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz gpx`, bench/README.md): a tag with
    // 200,000 distinct attributes (2 MB, under the size limit) took minutes, each attribute compared with
    // every one before it. libxml2 2.9 does the same, so such a tag never reaches it.
    @Test func aTagWithThousandsOfAttributesIsRefusedQuickly() throws {
        let attributes = { (n: Int) in (0..<n).map { " a\($0)=\"\"" }.joined() }
        let limit = XMLStreamReader.maxAttributesPerTag
        #expect(Self.cause(Self.gpx("<extensions" + attributes(limit) + "/>")) == .noPoints)
        let clock = ContinuousClock()
        let started = clock.now
        let reason = Self.unreadable(Self.gpx("<extensions" + attributes(200_000) + "/>"))
        let took = clock.now - started
        #expect(reason?.contains("attributes") == true, "\(String(describing: reason))")
        #expect(took < .seconds(2), "200,000 attributes took \(took)")
        // A repeated one is refused.
        #expect(Self.unreadable(Self.gpx("<extensions" + attributes(20) + " a17=\"x\"/>")) != nil)
    }

    @Test func whatIsNotGPXOrNotWellFormedIsRefused() {
        guard case .notGPX = Self.cause(Array("<kml><rte/></kml>".utf8)) else {
            Issue.record("kml accepted")
            return
        }
        guard case .notGPX = Self.cause(Array("<gpx version=\"2.0\"></gpx>".utf8)) else {
            Issue.record("2.0 accepted")
            return
        }
        #expect(Self.unreadable([]) != nil, "empty accepted")
        let broken = [
            "<gpx version=\"1.1\"><rte></gpx>", "<gpx version=\"1.1\"><rte>", "<gpx version=\"1.1\"/><gpx/>",
            "<gpx version=\"1.1\">x</gpx>trailing", "<gpx version=\"1.1\" a=1></gpx>",
            "<gpx version=\"1.1\" a=\"1\" a=\"2\"></gpx>",
            "<gpx version=\"1.1\"><!-- open", "<gpx version=\"1.1\"><rte><name>\u{FF}</name></rte></gpx>",
            "<gpx version=\"1.1\"><1a/></gpx>", "<gpx version=\"1.1\"><!ELEMENT x></gpx>",
            "<gpx version=\"1.1\"><rte><name>\u{1B}[2J</name></rte></gpx>",
        ]
        for text in broken {
            var bytes = Array(text.utf8)
            if text.contains("\u{FF}") {
                bytes = Array("<gpx version=\"1.1\"><rte><name>".utf8) + [0xFF] + Array("</name></rte></gpx>".utf8)
            }
            #expect(Self.unreadable(bytes)?.hasPrefix("not well-formed XML") == true, "accepted or misjudged: \(text)")
        }
    }

    @Test func everyMessageIsOneSentenceNamingTheComponent() {
        let causes: [GPXRouteError.Cause] = [
            .tooLarge(bytes: 9, limit: 8), .tooManyPoints(line: 2, limit: 3),
            .libraryMissing(MissingLibrary(soname: "libxml2.so.2", detail: "libxml2.so.2: gone")),
            .unreadableXML(reason: "not well-formed XML at line 5: x"), .notGPX(line: 6, reason: "r"),
            .badCoordinate(line: 7, attribute: "lat", text: "a\u{1B}b"), .noPoints, .onePoint,
        ]
        for cause in causes {
            for error in [GPXRouteError(cause), GPXRouteError(cause).at(path: "/r/\u{1B}[2Jx.gpx")] {
                let message = error.message
                #expect(message.hasPrefix("ahead: the route file "))
                #expect(message.hasSuffix("."))
                #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control })
                #expect(error.path == nil || message.contains("/r/"), "\(message)")
            }
        }
        #expect(GPXRouteError(.badCoordinate(line: 7, attribute: "lat", text: "abc")).message.contains("line 7"))
    }
}
