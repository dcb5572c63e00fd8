import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastCore

/// Alerts keep their footprint: read from GeoJSON by the decoders, kept with the store's last answer.
@Suite struct AlertFootprintJSONTests {
    static let square = "[[10,50],[11,50],[11,51],[10,51],[10,50]]"
    static let hole = "[[10.4,50.4],[10.6,50.4],[10.6,50.6],[10.4,50.6],[10.4,50.4]]"

    static func geometry(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func polygonsAndMultipolygonsWithTheirHoles() throws {
        let polygon = try #require(
            AlertFootprint(
                geoJSON: try Self.geometry("{\"type\":\"Polygon\",\"coordinates\":[\(Self.square),\(Self.hole)]}")))
        guard case .polygons(let one) = polygon else {
            Issue.record("a polygon")
            return
        }
        #expect(one.count == 1 && one[0].count == 2)
        let multi = try #require(
            AlertFootprint(
                geoJSON: try Self.geometry(
                    "{\"type\":\"MultiPolygon\",\"coordinates\":[[\(Self.square)],[[[20,50],[21,50],[21,51],[20,50]]]]}"
                )))
        guard case .polygons(let two) = multi else {
            Issue.record("a multipolygon")
            return
        }
        #expect(two.count == 2)
    }

    @Test func whatIsNoPolygonIsNoFootprint() throws {
        for text in [
            "null", "{\"type\":\"Point\",\"coordinates\":[10,50]}", "{\"type\":\"Polygon\",\"coordinates\":[]}",
            "{\"type\":\"Polygon\",\"coordinates\":[[[10,50],[11,50]]]}",
            "{\"type\":\"Polygon\",\"coordinates\":[[[10,50],[11,\"x\"],[11,51],[10,50]]]}",
            "{\"type\":\"Polygon\",\"coordinates\":[[[10,95],[11,50],[11,51],[10,95]]]}",
        ] {
            #expect(AlertFootprint(geoJSON: try Self.geometry(text)) == nil, "\(text)")
        }
        // A polygon with a ring that does not read is left out whole (its hole must not become an outline).
        let broken = "{\"type\":\"MultiPolygon\",\"coordinates\":[[[[1,2]],\(Self.hole)],[\(Self.square)]]}"
        guard case .polygons(let kept)? = AlertFootprint(geoJSON: try Self.geometry(broken)) else {
            Issue.record("the readable polygon is kept")
            return
        }
        #expect(kept.count == 1 && kept[0].count == 1 && kept[0][0].first == AlertFootprint.Point(lon: 10, lat: 50))
        // Past the vertex limit: not a warning's area.
        let huge = "[" + (0..<60_000).map { "[\(10 + Double($0) * 1e-5),50]" }.joined(separator: ",") + "]"
        #expect(AlertFootprint(geoJSON: try Self.geometry("{\"type\":\"Polygon\",\"coordinates\":[\(huge)]}")) == nil)
    }

    /// The decoders' check of a feature's geometry against the asked point reads it by the same rule:
    /// a polygon whose outline does not read is no polygon (the source's point query stands), where its
    /// hole used to stand in for the outline and a point inside the area but outside the hole was
    /// taken for outside it, and the alert dropped.
    @Test func theDecodersReadTheGeometryByTheSameRule() throws {
        let brokenOutline = try Self.geometry("{\"type\":\"Polygon\",\"coordinates\":[[[10,50],[11,50]],\(Self.hole)]}")
        let insideOutsideTheHole = Coordinate(lat: 50.2, lon: 10.2)!
        #expect(AlertGeoJSON.geometry(brokenOutline, contains: insideOutsideTheHole) == nil)
        let whole = try Self.geometry("{\"type\":\"Polygon\",\"coordinates\":[\(Self.square),\(Self.hole)]}")
        #expect(AlertGeoJSON.geometry(whole, contains: insideOutsideTheHole) == true)
        #expect(AlertGeoJSON.geometry(whole, contains: Coordinate(lat: 50.5, lon: 10.5)!) == false, "in the hole")
        #expect(AlertGeoJSON.geometry(whole, contains: Coordinate(lat: 52, lon: 10.5)!) == false)
        #expect(AlertGeoJSON.geometry(nil, contains: insideOutsideTheHole) == nil)
    }

    @Test func theStoresLastAnswerKeepsEachAlertsFootprint() throws {
        let fp = try #require(
            AlertFootprint(
                geoJSON: try Self.geometry("{\"type\":\"Polygon\",\"coordinates\":[\(Self.square),\(Self.hole)]}")))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let alerts = [
            Alert(id: "p", event: "Wind", severity: .severe).placed(fp),
            Alert(id: "a", event: "Rain", severity: .moderate).placed(.areas(["FR718", "FR717"])),
            Alert(id: "n", event: "Heat", severity: .minor),
        ]
        let check = AlertCheck(
            source: .nws, coordinate: Coordinate(lat: 50.5, lon: 10.5)!, checkedAt: now, expires: nil,
            lastModified: nil, report: AlertReport.fetched(alerts, source: .nws, fetchedAt: now, now: now))
        let back = try #require(AlertCheck(json: try JSONValue.parse(Array(check.json.serialized().utf8))))
        let byID = Dictionary(uniqueKeysWithValues: back.report.active.map { ($0.id, $0.footprint) })
        #expect(byID["p"] == fp)
        #expect(byID["a"] == .areas(["FR718", "FR717"]))
        #expect(byID["n"] == .some(nil))
        // The reading JSON leaves it out.
        #expect(alerts[0].json["footprint"] == nil)
        // A hostile store's footprint is refused, the alert kept.
        #expect(AlertFootprint(json: try JSONValue.parse(Array("{\"polygons\":[[[[1,\"x\"]]]]}".utf8))) == nil)
        #expect(AlertFootprint(json: try JSONValue.parse(Array("{\"areas\":[]}".utf8))) == nil)
    }

    /// An NWS alert without geometry keeps its zones' paths (asked later under the configured base URL),
    /// never another host's URL or a path that is not a zone's.
    @Test func nwsZonesArePathsUnderZones() throws {
        let zones = try JSONValue.parse(
            Array(
                """
                ["https://api.weather.gov/zones/forecast/NVZ003","https://api.weather.gov/zones/county/NVC510",
                 "https://evil.example/alerts","https://x/zones/a b","https://x/zones/../../etc", 7]
                """.utf8))
        let footprint = try #require(AlertFootprint(nwsZones: zones))
        #expect(footprint == .zones(["/zones/forecast/NVZ003", "/zones/county/NVC510"]))
        #expect(AlertFootprint(nwsZones: try JSONValue.parse(Array("[\"https://evil.example/\"]".utf8))) == nil)
        #expect(AlertFootprint(json: footprint.json) == footprint)
        // Nothing is inside zones until they are replaced by their polygons.
        #expect(
            AlertsAhead.match(
                [AlertsAhead.Candidate(alert: Alert(id: "z", event: "Flood", severity: .minor), footprint: footprint)],
                samples: [
                    AheadForecast.Sample(
                        minutes: 15, eta: Date(), distanceKm: 1, coordinate: Coordinate(lat: 39, lon: -119)!)
                ]
            ).isEmpty)
    }
}
