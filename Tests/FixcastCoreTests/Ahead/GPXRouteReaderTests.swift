import FixcastCore
import Testing

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
                <metadata><name>  Line\u{1B}[31m one&#10;two  </name></metadata>
                <rte><rtept lat="0" lon="0"/><rtept lat="0" lon="1"/></rte>
                """))
        #expect(route.name == "Line [31m one two")
        let unnamed = try GPXRouteReader.read(
            Self.gpx("<rte><rtept lat=\"0\" lon=\"0\"/><rtept lat=\"0\" lon=\"1\"/></rte>"))
        #expect(unnamed.name == nil)
    }

    @Test func commentsCDATAAndAPlainDoctypeAreRead() throws {
        let route = try GPXRouteReader.read(
            Self.gpx(
                """
                <!-- a comment with <rtept lat="9" lon="9"/> inside -->
                <rte><name><![CDATA[A <b> road]]></name><rtept lat="0" lon="0"/><rtept lat="0.5" lon="0"/></rte>
                """, header: "\u{FEFF}<?xml version=\"1.0\"?>\n<!DOCTYPE gpx>\n"))
        #expect(route.name == "A <b> road")
        #expect(route.points.count == 2)
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

    @Test func anEntityBombIsRefusedBeforeAnythingIsExpanded() {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [
              <!ENTITY a "aaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            ]>
            <gpx version="1.1"><rte><name>&b;</name></rte></gpx>
            """
        #expect(Self.cause(Array(bomb.utf8)) == .entityDeclaration(line: 3))
    }

    @Test func anUndeclaredEntityAndABareAmpersandAreRefused() {
        #expect(Self.cause(Self.gpx("<rte><name>&nbsp;</name></rte>")) == .unknownEntity(line: 3, name: "nbsp"))
        guard case .malformed(3, _) = Self.cause(Self.gpx("<rte><name>A & B</name></rte>")) else {
            Issue.record("a bare & was accepted")
            return
        }
        guard case .malformed = Self.cause(Self.gpx("<rte><name>&#0;</name></rte>")) else {
            Issue.record("a NUL character reference was accepted")
            return
        }
    }

    @Test func aDeepFileIsRefusedAtTheLimit() {
        let depth = GPXRouteReader.maxDepth
        let open = String(repeating: "<e>", count: depth)
        let close = String(repeating: "</e>", count: depth)
        #expect(
            Self.cause(Self.gpx("<extensions>" + open + close + "</extensions>")) == .tooDeep(line: 3, limit: depth))
        // One level less is fine (and then there are no points).
        let fits = String(repeating: "<e>", count: depth - 2) + String(repeating: "</e>", count: depth - 2)
        #expect(Self.cause(Self.gpx("<extensions>" + fits + "</extensions>")) == .noPoints)
    }

    @Test func aHugeFileIsRefusedBeforeItIsScanned() {
        let huge = [UInt8](repeating: 0x20, count: GPXRouteReader.maxBytes + 1)
        #expect(Self.cause(huge) == .tooLarge(bytes: GPXRouteReader.maxBytes + 1, limit: GPXRouteReader.maxBytes))
    }

    @Test func tooManyPointsAreRefused() {
        let point = "<trkpt lat=\"1\" lon=\"1\"/>"
        let body = "<trk><trkseg>" + String(repeating: point, count: GPXRouteReader.maxPoints + 1) + "</trkseg></trk>"
        #expect(Self.cause(Self.gpx(body)) == .tooManyPoints(line: 3, limit: GPXRouteReader.maxPoints))
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz gpx`, bench/README.md): a tag with
    // 200,000 distinct attributes (2 MB, under the size limit) took minutes, each attribute compared with
    // every one before it.
    @Test func thousandsOfAttributesAreReadInLinearTime() {
        let attributes = (0..<40_000).map { " a\($0)=\"\"" }.joined()
        let clock = ContinuousClock()
        let started = clock.now
        let cause = Self.cause(Self.gpx("<extensions" + attributes + "/>"))
        let took = clock.now - started
        #expect(cause == .noPoints)
        #expect(took < .seconds(2), "40,000 attributes took \(took)")
        // A repeated one is still refused, however late it comes.
        guard case .malformed = Self.cause(Self.gpx("<extensions" + attributes + " a17=\"x\"/>")) else {
            Issue.record("a repeated attribute was accepted")
            return
        }
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
        guard case .notGPX = Self.cause(Array("".utf8)) else {
            Issue.record("empty accepted")
            return
        }
        let broken = [
            "<gpx version=\"1.1\"><rte></gpx>", "<gpx version=\"1.1\"><rte>", "<gpx version=\"1.1\"/><gpx/>",
            "<gpx version=\"1.1\">x</gpx>trailing", "<gpx version=\"1.1\" a=1></gpx>",
            "<gpx version=\"1.1\" a=\"1\" a=\"2\"></gpx>",
            "<gpx version=\"1.1\"><!-- open", "<gpx version=\"1.1\"><rte><name>\u{FF}</name></rte></gpx>",
            "<gpx version=\"1.1\"><1a/></gpx>", "<gpx version=\"1.1\"><!ELEMENT x></gpx>",
        ]
        for text in broken {
            var bytes = Array(text.utf8)
            if text.contains("\u{FF}") {
                bytes = Array("<gpx version=\"1.1\"><rte><name>".utf8) + [0xFF] + Array("</name></rte></gpx>".utf8)
            }
            guard case .malformed = Self.cause(bytes) else {
                Issue.record("accepted or misjudged: \(text)")
                continue
            }
        }
    }

    @Test func everyMessageIsOneSentenceNamingTheComponent() {
        let causes: [GPXRouteError.Cause] = [
            .tooLarge(bytes: 9, limit: 8), .tooDeep(line: 1, limit: 32), .tooManyPoints(line: 2, limit: 3),
            .entityDeclaration(line: 3),
            .unknownEntity(line: 4, name: "x"), .malformed(line: 5, reason: "r"), .notGPX(line: 6, reason: "r"),
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
