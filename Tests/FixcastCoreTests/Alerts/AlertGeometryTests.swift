import FixcastText
import Testing

@testable import FixcastCore

/// A GeoJSON alert's polygon is tested with the area table's one point-in-polygon rule
/// (`RingContainment`): its border belongs to the alert, holes are cut out, and a polygon across the
/// antimeridian is the small one it means.
@Suite struct AlertGeometryTests {
    static func polygon(_ rings: [[(Double, Double)]]) throws -> JSONValue {
        let text = rings.map { ring in "[" + ring.map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]" }
        return try JSONValue.parse("{\"type\": \"Polygon\", \"coordinates\": [\(text.joined(separator: ","))]}")
    }

    static let square = [(0.0, 0.0), (2, 0), (2, 2), (0, 2), (0, 0)]
    static let hole = [(0.5, 0.5), (1.5, 0.5), (1.5, 1.5), (0.5, 1.5), (0.5, 0.5)]

    @Test func theBorderBelongsToTheAlertAndAHoleDoesNot() throws {
        let g = try Self.polygon([Self.square, Self.hole])
        func at(_ lat: Double, _ lon: Double) -> Bool? {
            AlertGeoJSON.geometry(g, contains: Coordinate(lat: lat, lon: lon)!)
        }
        #expect(at(0.25, 0.25) == true)
        #expect(at(1, 1) == false)  // in the hole
        #expect(at(2, 1) == true)  // on the outer ring's northern edge
        #expect(at(0.5, 1) == true)  // on the hole's edge: the area's border
        #expect(at(3, 3) == false)
    }

    @Test func aPolygonAcrossTheAntimeridianIsTheSmallOne() throws {
        let fiji = try Self.polygon([
            [(179.0, -17.0), (-179.0, -17.0), (-179.0, -16.0), (179.0, -16.0), (179.0, -17.0)]
        ])
        #expect(AlertGeoJSON.geometry(fiji, contains: Coordinate(lat: -16.5, lon: 179.9)!) == true)
        #expect(AlertGeoJSON.geometry(fiji, contains: Coordinate(lat: -16.5, lon: -179.9)!) == true)
        #expect(AlertGeoJSON.geometry(fiji, contains: Coordinate(lat: -16.5, lon: 0)!) == false)
    }
}
