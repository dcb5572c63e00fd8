import Testing

@testable import FixcastCore

struct MeteoAlarmEntryAreasTests {
    @Test func theFrenchFeedsEntriesNameTheirNUTSAreas() throws {
        let body = try CoreFixtures.tree("meteoalarm-atom-france.xml")
        let entries = MeteoAlarmEntryAreas.entries(body)
        #expect(entries.count == 12)
        #expect(entries.allSatisfy { $0.polygons.isEmpty && !$0.geocodes.isEmpty })
        #expect(entries.flatMap(\.geocodes).allSatisfy { $0.scheme == "NUTS3" && $0.code.hasPrefix("FR") })
        #expect(entries.flatMap(\.geocodes).contains(AlertGeocode(scheme: "NUTS3", code: "FR718")))
        // The same identifiers as the decoder's alerts, so each alert can be placed.
        let decoded = Set(try MeteoAlarmAtomDecoderTests.decode(body).map(\.id))
        #expect(!decoded.isEmpty && decoded.isSubset(of: Set(entries.map(\.identifier))))
    }

    /// Of the area geocodes in the recorded feeds that have geometry at all (not the UK's), ≥ 99 % placed.
    @Test func theRecordedGeocodesArePlaced() throws {
        let table = try BundledAlertAreaTableTests.table()
        let france = MeteoAlarmEntryAreas.entries(try CoreFixtures.tree("meteoalarm-atom-france.xml"))
        let codes = france.flatMap(\.geocodes)
        let placed = codes.filter { table.areaIndex(code: $0.code, scheme: $0.scheme) != nil }
        #expect(codes.count >= 12 && placed.count == codes.count)
        let uk = MeteoAlarmEntryAreas.entries(try CoreFixtures.tree("meteoalarm-atom-united-kingdom.xml"))
        #expect(!uk.isEmpty && uk.allSatisfy { $0.geocodes.first?.scheme == "EMMA_ID" })
    }

    @Test func aCAPPolygonIsReadAndWins() throws {
        let message = try CoreFixtures.tree("cap-serbia-emma-id-polygon.xml")
        let polygons = MeteoAlarmEntryAreas.polygons(in: message)
        #expect(polygons.count == 3 && polygons[0].count > 50)
        #expect(MeteoAlarmEntryAreas.geocodes(in: message) == [AlertGeocode(scheme: "EMMA_ID", code: "RS010")])
        let table = try BundledAlertAreaTableTests.table()
        let kragujevac = try #require(Coordinate(lat: 44.0128, lon: 20.9114))
        let belgrade = try #require(Coordinate(lat: 44.8125, lon: 20.4612))
        let geocodes = [AlertGeocode(scheme: "EMMA_ID", code: "RS010")]
        #expect(
            MeteoAlarmPlacement.place(
                polygons: polygons, geocodes: geocodes, at: .init(kragujevac, in: table), table: table
            )
            .verdict == .here)
        #expect(
            MeteoAlarmPlacement.place(
                polygons: polygons, geocodes: geocodes, at: .init(belgrade, in: table), table: table
            )
            .verdict == .elsewhere)
    }

    @Test func polygonTextThatIsNotAPolygon() {
        #expect(MeteoAlarmEntryAreas.ring("44.6,20.2 44.5,20.4 44.4,20.3")?.count == 3)
        #expect(MeteoAlarmEntryAreas.ring("44.6,20.2 44.5,20.4") == nil)
        #expect(MeteoAlarmEntryAreas.ring("44.6,20.2 44.5;20.4 44.4,20.3") == nil)
        #expect(MeteoAlarmEntryAreas.ring("95,20.2 44.5,20.4 44.4,20.3") == nil)
        #expect(MeteoAlarmEntryAreas.ring("nan,20.2 44.5,20.4 44.4,20.3") == nil)
        #expect(MeteoAlarmEntryAreas.ring("1e1,20.2 44.5,20.4 44.4,20.3") == nil)
        #expect(MeteoAlarmEntryAreas.ring("") == nil)
        let huge = Array(repeating: "44.6,20.2", count: MeteoAlarmEntryAreas.maxVertices + 1).joined(separator: " ")
        #expect(MeteoAlarmEntryAreas.ring(huge) == nil)
    }

    @Test func hostileEntries() throws {
        let feed = try MeteoAlarmFeedAlertsTests.feed(
            "<entry><id>a&amp;b</id><cap:geocode><valueName>EMMA_ID</valueName><value>FR&#48;35</value></cap:geocode>"
                + "<cap:geocode><valueName>EMMA_ID</valueName><value>FR035</value></cap:geocode>"
                + "<cap:geocode><valueName>NUTS3</valueName></cap:geocode>"
                + "<cap:polygon>not a polygon</cap:polygon></entry><entry><title>no id</title></entry>")
        let entries = MeteoAlarmEntryAreas.entries(feed)
        #expect(entries.count == 1)
        #expect(entries.first?.identifier == "a&b")
        #expect(entries.first?.geocodes == [AlertGeocode(scheme: "EMMA_ID", code: "FR035")])
        #expect(entries.first?.polygons.isEmpty == true)
        #expect(MeteoAlarmEntryAreas.entries(try CoreFixtures.tree(text: "<html/>")).isEmpty)
    }

    /// At most `maxGeocodes` geocodes and `maxPolygons` polygons are read from one entry.
    @Test func anEntryNamesAtMostSoManyAreas() throws {
        let geocodes = (0..<(MeteoAlarmEntryAreas.maxGeocodes + 5)).map {
            "<cap:geocode><valueName>EMMA_ID</valueName><value>X\($0)</value></cap:geocode>"
        }
        let polygons = Array(
            repeating: "<cap:polygon>45.6,4.6 45.6,5.0 45.9,5.0 45.6,4.6</cap:polygon>",
            count: MeteoAlarmEntryAreas.maxPolygons + 5)
        let feed = try MeteoAlarmFeedAlertsTests.feed(
            "<entry><id>many</id>" + geocodes.joined() + polygons.joined() + "</entry>")
        let entry = try #require(MeteoAlarmEntryAreas.entries(feed).first)
        #expect(entry.geocodes.count == MeteoAlarmEntryAreas.maxGeocodes)
        #expect(entry.geocodes.last?.code == "X\(MeteoAlarmEntryAreas.maxGeocodes - 1)")
        #expect(entry.polygons.count == MeteoAlarmEntryAreas.maxPolygons)
    }
}
