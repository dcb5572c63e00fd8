import FixcastCore
import Foundation
import Testing

@testable import FixcastRendering

@Suite struct DouglasPeuckerTests {
    /// A deterministic wiggly line (no randomness: a failure must reproduce).
    static func wiggle(_ n: Int) -> [PlanePoint] {
        (0..<n).map { i in
            let x = Double(i) * 0.37
            return PlanePoint(x: x, y: 40 * sin(x / 30) + 3 * sin(x * 1.7) + Double(i % 7) * 0.2)
        }
    }

    @Test func theToleranceHoldsAndTheEndsAreKept() {
        let points = Self.wiggle(5_000)
        for tolerance in [0.1, 0.7, 5.0] {
            let kept = DouglasPeucker.simplify(points, tolerance: tolerance)
            #expect(kept.first == 0)
            #expect(kept.last == points.count - 1)
            #expect(kept.count < points.count)
            // Every dropped point lies within the tolerance of the segment between its kept neighbours.
            for k in 1..<kept.count {
                for i in (kept[k - 1] + 1)..<kept[k] {
                    let d = DouglasPeucker.distanceSquared(points[i], points[kept[k - 1]], points[kept[k]]).squareRoot()
                    #expect(d <= tolerance + 1e-9, "point \(i) is \(d) off")
                }
            }
        }
    }

    @Test func aStraightLineKeepsTwoPointsAndShortInputsStay() {
        let line = (0..<1000).map { PlanePoint(x: Double($0), y: 2 * Double($0)) }
        #expect(DouglasPeucker.simplify(line, tolerance: 0.01) == [0, 999])
        #expect(DouglasPeucker.simplify([], tolerance: 1) == [])
        #expect(DouglasPeucker.simplify([PlanePoint(x: 0, y: 0), PlanePoint(x: 1, y: 1)], tolerance: 1) == [0, 1])
    }

    @Test func aHundredThousandPointRoad() {
        // A road-like line of 100,000 points (bends and GPS jitter) simplifies to a small share of
        // them; the work stack is explicit, so its depth never depends on the call stack.
        let road = Self.wiggle(100_000)
        let kept = DouglasPeucker.simplify(road, tolerance: 0.7)
        #expect(kept.first == 0 && kept.last == 99_999)
        #expect(kept.count < 30_000, "\(kept.count)")
    }
}

@Suite struct LabelPlacerTests {
    @Test func noTwoLabelsOverlapAndNoneCoversAMarker() {
        let bounds = PlaneRect(x: 0, y: 0, width: 400, height: 300)
        let placer = LabelPlacer(bounds: bounds, fontSize: 12, markerRadius: 5, gap: 3)
        // A crowded cluster and a few loose markers.
        var markers: [PlanePoint] = []
        for i in 0..<40 { markers.append(PlanePoint(x: 150 + Double(i % 8) * 9, y: 120 + Double(i / 8) * 9)) }
        markers += [PlanePoint(x: 20, y: 20), PlanePoint(x: 380, y: 280), PlanePoint(x: 390, y: 10)]
        let texts = markers.indices.map { "Place number \($0) 12 °C" }
        let legend = PlaneRect(x: 0, y: 250, width: 120, height: 50)
        let labels = placer.place(markers: markers, texts: texts, obstacles: [legend])
        #expect(labels.count >= 3)
        #expect(labels.count < markers.count, "a crowded cluster must drop labels")
        for (i, a) in labels.enumerated() {
            #expect(bounds.contains(a.box))
            #expect(!a.box.intersects(legend))
            for b in labels[(i + 1)...] { #expect(!a.box.intersects(b.box), "\(a.text) overlaps \(b.text)") }
            for m in markers {
                let markerBox = PlaneRect(x: m.x - 5, y: m.y - 5, width: 10, height: 10)
                #expect(!a.box.intersects(markerBox))
            }
            #expect(a.box.width >= placer.textWidth(a.text) - 1e-9)
        }
        // The loose markers keep their full labels.
        #expect(labels.contains { $0.marker == 40 && $0.text == texts[40] })
    }

    @Test func aLabelSitsBesideTheRouteWhereThereIsRoom() throws {
        let bounds = PlaneRect(x: 0, y: 0, width: 400, height: 300)
        let placer = LabelPlacer(bounds: bounds, fontSize: 12, markerRadius: 5, gap: 3)
        let marker = PlanePoint(x: 200, y: 150)
        // The track runs through the marker from left to right: the spots beside it (right, then left,
        // the most wanted) lie across it; above is the first that is clear.
        let route = [PlanePoint(x: 0, y: 150), marker, PlanePoint(x: 400, y: 150)]
        let alone = placer.place(markers: [marker], texts: ["Verdi 21 °C"])
        let beside = placer.place(markers: [marker], texts: ["Verdi 21 °C"], route: route)
        #expect(alone.first?.box.x ?? 0 > marker.x, "without a route the right-hand spot is taken")
        let box = try #require(beside.first?.box)
        #expect(box.grown(by: 3.5).routeLength(route) == 0)
        #expect(box.maxY < marker.y, "above the track")
        // A route through every spot: the label is still drawn, where it hides least.
        let crowded = (0...40).map { PlanePoint(x: Double($0) * 10, y: $0.isMultiple(of: 2) ? 100 : 200) }
        #expect(placer.place(markers: [marker], texts: ["Verdi 21 °C"], route: crowded).count == 1)
    }

    @Test func aLabelTooLongForItsSpotIsShortened() {
        let bounds = PlaneRect(x: 0, y: 0, width: 120, height: 40)
        let placer = LabelPlacer(bounds: bounds, fontSize: 10, markerRadius: 4, gap: 2, shortLength: 6)
        let labels = placer.place(markers: [PlanePoint(x: 10, y: 20)], texts: ["Llanfairpwllgwyngyll railway station"])
        #expect(labels.count == 1)
        #expect(labels.first?.text == "Llanfa…")
        #expect(placer.textWidth("北京") > placer.textWidth("ab"))
    }
}

@Suite struct TripReportDocumentTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func input(name: String) -> TripReportInput {
        let points = (0..<50).map {
            TripTrackPoint(
                time: t0.addingTimeInterval(Double($0) * 10),
                coordinate: Coordinate(lat: 52 + Double($0) * 0.001, lon: 13)!)
        }
        let readings = [
            TripReading(
                time: t0, coordinate: points[0].coordinate, placeName: name, placeSource: .nominatim,
                provider: .openMeteo, temperatureC: 3),
            TripReading(
                time: t0.addingTimeInterval(490), coordinate: points[49].coordinate, placeName: "End\u{1B}[31m",
                temperatureC: 9, precipitationMm: 1.2,
                alerts: [TripAlert(WeatherAlert(title: "Gale & <b>", starts: t0, ends: t0.addingTimeInterval(100)))]),
        ]
        return TripReportInput(points: points, readings: readings, units: .imperial, language: .en, tripNumber: 1)
    }

    @Test func everythingFromOutsideIsEscaped() {
        let svg = TripReportDocument.svg(Self.input(name: "<script>alert(1)</script> & \"Co\""))
        #expect(!svg.contains("<script"))
        #expect(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;"))
        #expect(!svg.unicodeScalars.contains { $0.value == 0x1B })
        #expect(svg.contains("Gale &amp; &lt;b&gt;"))
        #expect(svg.contains("°F"))
        #expect(svg.contains("© OpenStreetMap contributors"))
        #expect(!svg.contains("href"))
        let html = TripReportDocument.html(Self.input(name: "Ünïcødé"))
        #expect(html.contains("Ünïcødé"))
        #expect(html.components(separatedBy: "<tr class=\"reading\">").count - 1 == 2)
        #expect(!html.contains("<script"))
    }

    /// Right-to-left names in the title and the map labels are isolated (character references, no raw
    /// control): drawn without, the title read "Trip 1: 11-05-2025 · القاهرة → الإسكندرية" and a label
    /// "17 القاهرة °C".
    @Test func rightToLeftNamesAreIsolatedFromTheTextAroundThem() {
        var input = Self.input(name: "الإسكندرية")
        input.readings[1].placeName = "القاهرة"
        for document in [TripReportDocument.svg(input), TripReportDocument.html(input)] {
            #expect(document.contains("Trip 1: &#x2068;الإسكندرية&#x2069; → &#x2068;القاهرة&#x2069; · "))
            #expect(!document.unicodeScalars.contains { (0x2066...0x2069).contains($0.value) })
        }
        let svg = TripReportDocument.svg(input)
        #expect(
            svg.contains(">&#x2068;القاهرة&#x2069; 48 °F</text>"),
            "\(svg.split(separator: "\n").filter { $0.contains("label") })")
        #expect(TripReportDocument.svg(Self.input(name: "Start")).contains("Trip 1: Start → End[31m · "))
    }

    /// Long names are cut alike in the drawn title so that it fits the page and keeps its date; the
    /// document's own title keeps them whole. They ran off the page, the end place and date with them.
    @Test func theDrawnTitleFitsThePage() throws {
        var input = Self.input(name: "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch")
        input.readings[1].placeName = "Tirau Village (Tīrau) — Te Taumata o Te Whakatipu Māori Community Centre"
        let svg = TripReportDocument.svg(input)
        let line = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<text class=\"title\"") })
        let text = String(line.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
        #expect(text.hasSuffix(" · 2027-01-15") && text.contains("… → ") && text.hasSuffix("… · 2027-01-15"), "\(text)")
        #expect(LabelPlacer.textWidth(text, fontSize: 22 * 1.1) <= TripReportDocument.width - 40, "\(text)")
        #expect(
            svg.contains("<title>Trip 1: Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch → Tirau Village"))
        // A title that fits is drawn whole.
        #expect(
            TripReportDocument.svg(Self.input(name: "Start")).contains(">Trip 1: Start → End[31m · 2027-01-15</text>"))
    }

    /// The readings' table under the picture spans the map panel's width, not the page's: its margins are
    /// the panel's inset in the picture (20 of 960 px), as % of the page, so both line up at any width.
    @Test func theHTMLTableLinesUpWithTheMap() throws {
        let html = TripReportDocument.html(Self.input(name: "x"))
        let inset = TripReportDocument.mapPanel.x / TripReportDocument.width * 100
        let rule = try #require(html.split(separator: "\n").first { $0.hasPrefix("table {") })
        #expect(rule.contains("width: 95.833%;"), "\(rule)")
        #expect(rule.contains("margin: 1.5em 2.083% 0;"), "\(rule)")
        #expect(abs(inset - 2.0833) < 0.001)
        // The picture's map panel is centred, so one inset serves both sides.
        let panel = TripReportDocument.mapPanel
        #expect(panel.x == TripReportDocument.width - panel.x - panel.width)
    }

    @Test func aTripWithoutReadingsIsDrawnGreyAndSaysSo() {
        var input = Self.input(name: "x")
        input.readings = []
        input.language = .ru
        let svg = TripReportDocument.svg(input)
        #expect(svg.contains("нет замеров температуры"))
        #expect(!svg.contains("<circle class=\"reading\""))
        #expect(svg.contains("stroke=\"#8c959f\""))
        #expect(svg.contains("Поездка 1"))
    }

    @Test func aHundredThousandPointTripStaysUnderAMegabyte() {
        var points: [TripTrackPoint] = []
        points.reserveCapacity(100_000)
        for i in 0..<100_000 {
            let f = Double(i)
            points.append(
                TripTrackPoint(
                    time: Self.t0.addingTimeInterval(f),
                    coordinate: Coordinate(lat: 45 + f * 0.00001 + 0.0001 * sin(f / 9), lon: 7 + 0.05 * sin(f / 5000))!)
            )
        }
        let readings = stride(from: 0, to: 100_000, by: 3_000).map {
            TripReading(
                time: Self.t0.addingTimeInterval(Double($0)), coordinate: points[$0].coordinate, placeName: "P\($0)",
                temperatureC: Double($0 % 17))
        }
        let svg = TripReportDocument.svg(TripReportInput(points: points, readings: readings))
        #expect(svg.utf8.count < 1_000_000, "\(svg.utf8.count) bytes")
        #expect(svg.components(separatedBy: "<circle class=\"reading\"").count - 1 == readings.count)
    }
}
