import FixcastCore
import FixcastRendering
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `fixcast report` on made-up drives in a real store, through the binary: the profile and the
/// track's colours follow every reading (issue 23 item 6), the official alerts are drawn and
/// listed (issue 24 item 3), and a trip across the antimeridian or near the pole is drawn at its own
/// size with a true scale bar (issue 24 item 5).
@Suite(.serialized, .scratch) struct ReportFollowsReadingsTests {
    static func report(_ store: SyntheticTripStore, _ name: String) throws -> String {
        let out = store.directory.appendingPathComponent(name).path
        let r = try CLIRunner.run(["report", "--db", store.path, "-o", out], home: store.directory)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    @Test func aStraightDriveShowsEveryReadingInTheProfileAndItsColoursOnTheTrack() async throws {
        // 66 km due east-north-east on a dead-straight road, 14 readings between 8 and 26 °C.
        let temperatures: [Double] = [8, 12, 9, 15, 20, 26, 22, 18, 14, 10, 13, 17, 24, 19]
        let store = try await SyntheticTripStore(
            label: "report-straight", from: Coordinate(lat: 40, lon: -100)!, to: Coordinate(lat: 40.195, lon: -99.267)!,
            points: 2_400, temperaturesC: temperatures)
        defer { store.remove() }
        let km = (TrackDistance.cumulativeKm(store.fixes.map(\.coordinate)).last ?? 0)
        #expect(abs(km - 66) < 1.5, "\(km) km")
        let svg = ReportSVGReading(svg: try Self.report(store, "straight.svg"))

        let line = try #require(svg.elements("polyline", class: "temperature").first)
        let vertices = ReportSVGReading.vertices(line)
        let dots = svg.elements("circle", class: "profile-reading")
        #expect(dots.count == temperatures.count)
        for dot in dots {
            let cx = try #require(ReportSVGReading.number("cx", in: dot))
            let cy = try #require(ReportSVGReading.number("cy", in: dot))
            #expect(
                vertices.contains { $0.0 == cx && $0.1 == cy }, "reading at \(cx),\(cy) not on the line \(vertices)")
        }
        #expect(vertices.count >= temperatures.count)

        let colours = Set(
            svg.elements("polyline", class: "track").compactMap { ReportSVGReading.attribute("stroke", in: $0) })
        #expect(colours.count >= temperatures.count, "\(colours.count) colours: \(colours)")
    }

    @Test func officialAlertsAreShadedInTheProfileAndListedInTheTable() async throws {
        let t0 = SyntheticTripStore.t0
        func alert(_ id: String, _ event: String, from: Double, to: Double) -> Alert {
            Alert(
                id: "urn:oid:2.49.0.1.840.0.\(id)", event: event, headline: event + " issued by NWS",
                severity: .extreme, onset: t0.addingTimeInterval(from), expires: t0.addingTimeInterval(to + 3600),
                ends: t0.addingTimeInterval(to), area: "Washoe County")
        }
        let alerts = [
            alert("a1", "Tornado Warning", from: 0, to: 900),
            alert("a2", "Extreme Wind Warning", from: 600, to: 1800),
            alert("a3", "Blizzard Warning <b>", from: 1200, to: 3000),
        ]
        let report = AlertReport(source: .nws, covered: true, fetchedAt: t0, stale: false, active: alerts)
        let store = try await SyntheticTripStore(
            label: "report-alerts", from: Coordinate(lat: 39.5, lon: -119.8)!, to: Coordinate(lat: 39.2, lon: -120)!,
            points: 3_600, temperaturesC: [20, 18, 15, 12, 10], alerts: report)
        defer { store.remove() }

        let svg = try Self.report(store, "alerts.svg")
        let shaded = ReportSVGReading(svg: svg).elements("rect", class: "alert alert-extreme")
        #expect(shaded.count == 3, "\(shaded)")
        #expect(shaded.allSatisfy { ReportSVGReading.attribute("fill", in: $0) == AlertColours(.extreme).fill })
        for event in ["Tornado Warning", "Extreme Wind Warning", "Blizzard Warning &lt;b&gt;"] {
            #expect(svg.contains("Alert: " + event + " · extreme"), "\(event) not in the profile")
        }
        #expect(!svg.contains("<b>"))
        #expect(svg.contains("NWS (public domain)"))

        let out = store.directory.appendingPathComponent("alerts.html").path
        let r = try CLIRunner.run(["report", "--db", store.path, "-o", out], home: store.directory)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let table = try #require(html.components(separatedBy: "<table class=\"alerts\">").dropFirst().first)
        #expect(table.components(separatedBy: "<tr class=\"alert\">").count - 1 == 3)
        for event in ["Tornado Warning", "Extreme Wind Warning", "Blizzard Warning &lt;b&gt;"] {
            #expect(table.contains("<td>" + event + "</td>"))
        }
        #expect(table.contains("severity-extreme"))
        #expect(table.contains("<td>NWS</td>"))
        // Every reading's row names the alerts it listed.
        let rows = html.components(separatedBy: "<tr class=\"reading\">").dropFirst()
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0.contains("Tornado Warning (extreme)") })
    }

    /// The bar's pixels per km equal the track's own (its ends' pixel distance over their
    /// great-circle distance) within 3 %, and the bar is a length that fits the trip.
    static func expectTrueScaleBar(_ svg: ReportSVGReading, _ store: SyntheticTripStore) throws {
        let ends = try #require(svg.startAndEnd)
        let first = try #require(store.fixes.first?.coordinate)
        let last = try #require(store.fixes.last?.coordinate)
        let km = GreatCircle.distanceKm(first, last)
        let trackPxPerKm = hypot(ends.end.0 - ends.start.0, ends.end.1 - ends.start.1) / km
        let bar = try #require(svg.scaleBar)
        let barKm = try #require(svg.scaleBarKm)
        let barPxPerKm = bar.pixels / barKm
        #expect(abs(barPxPerKm / trackPxPerKm - 1) < 0.03, "bar \(bar.label) \(bar.pixels) px; track \(km) km")
        #expect(barKm < km, "bar \(bar.label) for a \(km) km trip")
    }

    @Test func aTripAcrossTheAntimeridianIsDrawnAtItsOwnSize() async throws {
        // 106 km due east along 17.6° N, from 179.5° E to 179.5° W.
        let store = try await SyntheticTripStore(
            label: "report-antimeridian", from: Coordinate(lat: 17.6, lon: 179.5)!,
            to: Coordinate(lat: 17.6, lon: -179.5)!, points: 1_200, temperaturesC: [27, 28, 29])
        defer { store.remove() }
        let km = (TrackDistance.cumulativeKm(store.fixes.map(\.coordinate)).last ?? 0)
        #expect(abs(km - 106) < 1, "\(km) km")
        let svg = ReportSVGReading(svg: try Self.report(store, "antimeridian.svg"))
        let ends = try #require(svg.startAndEnd)
        // Eastwards is to the right: the start is left of the end, not at the world's far edge.
        #expect(ends.start.0 < ends.end.0)
        try Self.expectTrueScaleBar(svg, store)
    }

    @Test func aTripNearTheNorthPoleIsDrawnAtItsOwnSize() async throws {
        // 32 km across the pole: from 89.9° N 0° to 89.812° N 180°.
        let store = try await SyntheticTripStore(
            label: "report-pole", from: Coordinate(lat: 89.9, lon: 0)!, to: Coordinate(lat: 89.812, lon: 180)!,
            points: 1_000, temperaturesC: [-30, -28, -31])
        defer { store.remove() }
        let km = (TrackDistance.cumulativeKm(store.fixes.map(\.coordinate)).last ?? 0)
        #expect(abs(km - 32) < 1, "\(km) km")
        let text = try Self.report(store, "pole.svg")
        let svg = ReportSVGReading(svg: text)
        try Self.expectTrueScaleBar(svg, store)
        #expect(text.contains("azimuthal equidistant"))
    }
}
