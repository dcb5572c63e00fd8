import FixcastCore
import FoundationEssentials
import Testing

@testable import FixcastRendering

@Suite struct MapCornerTests {
    static let panel = PlaneRect(x: 0, y: 0, width: 900, height: 500)
    static func legend(_ c: MapCorner) -> PlaneRect { c.box(width: 262, height: 52, margin: 10, in: panel) }
    static let preference: [MapCorner] = [.bottomLeft, .topLeft, .topRight, .bottomRight]

    @Test func theBoxSitsInItsCornerAtTheMargin() {
        #expect(Self.legend(.bottomLeft) == PlaneRect(x: 10, y: 438, width: 262, height: 52))
        #expect(Self.legend(.topRight) == PlaneRect(x: 628, y: 10, width: 262, height: 52))
        #expect(Self.legend(.topLeft).y == 10)
        #expect(Self.legend(.bottomRight).maxX == 890)
    }

    @Test func aSegmentCountsOnlyWhatRunsUnderTheBox() {
        let box = PlaneRect(x: 10, y: 10, width: 100, height: 20)
        func length(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            box.clippedLength(from: PlanePoint(x: a.0, y: a.1), to: PlanePoint(x: b.0, y: b.1))
        }
        #expect(abs(length((0, 20), (200, 20)) - 100) < 1e-9)  // straight across, both ends outside
        #expect(abs(length((20, 15), (50, 15)) - 30) < 1e-9)  // wholly inside
        #expect(abs(length((60, 20), (60, 100)) - 10) < 1e-9)  // from inside out through the bottom
        #expect(length((0, 50), (200, 50)) == 0)  // parallel, below
        #expect(length((0, 0), (5, 100)) == 0)  // beside it
        #expect(length((20, 15), (20, 15)) == 0)  // a point has no length
        // Diagonally: in through the top at x 30, out through the bottom at x 90.
        #expect(abs(length((0, 0), (120, 40)) - 60 * (1 + 1.0 / 9).squareRoot()) < 1e-9)
    }

    @Test func aClearMapKeepsTheMostWantedCorner() {
        // A route down the middle touches no corner.
        let route = [PlanePoint(x: 450, y: 20), PlanePoint(x: 450, y: 480)]
        let marks = route
        #expect(MapCorner.least(Self.preference, box: Self.legend, route: route, marks: marks) == .bottomLeft)
    }

    @Test func aTripEndingInTheLowerLeftMovesTheLegend() {
        // From the top right to the lower left: the end mark would be under a bottom-left legend, the
        // start under a top-right one; the top left is clear.
        let route = [PlanePoint(x: 880, y: 20), PlanePoint(x: 450, y: 250), PlanePoint(x: 40, y: 470)]
        let marks = [route[0], route[2]]
        let chosen = MapCorner.least(Self.preference, box: Self.legend, route: route, marks: marks)
        #expect(chosen == .topLeft)
        #expect(MapCorner.hidden(under: Self.legend(.bottomLeft), route: route, marks: marks) >= MapCorner.markWeight)
    }

    @Test func aStretchWithItsEndsOutsideStillCounts() {
        // A long straight stretch along the bottom edge: its two points are beyond the bottom-left box.
        let route = [PlanePoint(x: 2, y: 470), PlanePoint(x: 600, y: 470), PlanePoint(x: 600, y: 250)]
        #expect(MapCorner.least(Self.preference, box: Self.legend, route: route, marks: []) == .topLeft)
    }

    @Test func aMarkWeighsMoreThanAStretchOfRoute() {
        // Every corner has something: a stretch under the bottom left, a reading marker under each of
        // the others; the stretch is the lesser harm.
        let route = [PlanePoint(x: 20, y: 460), PlanePoint(x: 200, y: 460)]
        let marks = [PlanePoint(x: 100, y: 30), PlanePoint(x: 800, y: 30), PlanePoint(x: 800, y: 460)]
        #expect(MapCorner.least(Self.preference, box: Self.legend, route: route, marks: marks) == .bottomLeft)
    }

    @Test func aReportMovesItsLegendOffTheTripsEnd() throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        // North-east to south-west: the trip ends in the map's lower left.
        let points = (0..<60).map { i in
            TripTrackPoint(
                time: t0.addingTimeInterval(Double(i) * 10),
                coordinate: Coordinate(lat: 52.06 - Double(i) * 0.001, lon: 13.24 - Double(i) * 0.004)!)
        }
        let readings = [
            TripReading(time: t0, coordinate: points[0].coordinate, placeName: "A", temperatureC: 3),
            TripReading(
                time: t0.addingTimeInterval(590), coordinate: points[59].coordinate, placeName: "B", temperatureC: 5),
        ]
        let svg = TripReportDocument.svg(
            TripReportInput(points: points, readings: readings, units: .metric, language: .en, tripNumber: 1))
        let legend = try #require(Self.attributes(after: "<g class=\"legend\"><rect ", in: svg))
        let end = try #require(Self.attributes(after: "<rect class=\"end\" ", in: svg))
        let endCentre = PlanePoint(x: end.x + end.width / 2, y: end.y + end.height / 2)
        let p = TripReportDocument.mapPanel
        let usual = MapCorner.bottomLeft.box(width: 262, height: 52, margin: 10, in: p)
        // The trip does end where the legend usually is…
        try #require(endCentre.x >= usual.x && endCentre.x <= usual.maxX && endCentre.y + 9 >= usual.y)
        // …so the legend is elsewhere, clear of the end.
        #expect(legend != usual)
        #expect(
            !(endCentre.x >= legend.x - 9 && endCentre.x <= legend.maxX + 9 && endCentre.y >= legend.y - 9
                && endCentre.y <= legend.maxY + 9))

        // A trip straight north, down the middle of the map, keeps the usual layout.
        let north = (0..<60).map { i in
            TripTrackPoint(
                time: t0.addingTimeInterval(Double(i) * 10),
                coordinate: Coordinate(lat: 52 + Double(i) * 0.001, lon: 13)!)
        }
        let plain = TripReportDocument.svg(
            TripReportInput(points: north, readings: [], units: .metric, language: .en, tripNumber: 1))
        let kept = try #require(Self.attributes(after: "<g class=\"legend\"><rect ", in: plain))
        #expect(kept == MapCorner.bottomLeft.box(width: 262, height: 52, margin: 10, in: p))
    }

    /// The `x`, `y`, `width` and `height` of the first element after `prefix` in `svg`.
    static func attributes(after prefix: String, in svg: String) -> PlaneRect? {
        guard let tail = svg.components(separatedBy: prefix).dropFirst().first else { return nil }
        let element = " " + tail.prefix { $0 != ">" }
        func value(_ name: String) -> Double? {
            guard let v = element.components(separatedBy: " \(name)=\"").dropFirst().first else { return nil }
            return Double(v.prefix { $0 != "\"" })
        }
        guard let x = value("x"), let y = value("y"), let w = value("width"), let h = value("height") else {
            return nil
        }
        return PlaneRect(x: x, y: y, width: w, height: h)
    }
}
