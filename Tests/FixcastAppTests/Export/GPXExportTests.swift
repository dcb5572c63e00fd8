import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

@Suite(.scratch) struct GPXExportTests {
    @Test func isWellFormedAndCountsMatchInXmllintAndGpsbabel() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let (path, summary) = try await ExportTestSupport.export(.gpx, store)
        #expect(summary == ExportSummary(readings: 3, trackPoints: 20))
        let lint = try ExportTestSupport.run("/usr/bin/xmllint", ["--noout", path])
        #expect(lint.0 == 0, "xmllint: \(lint.2)")
        // The reading without a position has no waypoint.
        #expect(try ExportTestSupport.xpath(path, "count(//*[local-name()='wpt'])") == "2")
        #expect(try ExportTestSupport.xpath(path, "count(//*[local-name()='trkpt'])") == "20")
        #expect(try ExportTestSupport.xpath(path, "count(//*[local-name()='trkseg'])") == "2")  // the 10-minute gap
        #expect(
            try ExportTestSupport.xpath(path, "count(//*[local-name()='trkseg'][1]/*[local-name()='trkpt'])") == "12")

        let waypoints = try ExportTestSupport.run(
            "/usr/bin/gpsbabel", ["-i", "gpx", "-f", path, "-x", "nuketypes,tracks,routes", "-o", "unicsv", "-F", "-"])
        #expect(waypoints.0 == 0, "gpsbabel: \(waypoints.2)")
        #expect(waypoints.1.split(whereSeparator: \.isNewline).count == 1 + 2, "\(waypoints)")  // header + waypoints
        let track = try ExportTestSupport.run(
            "/usr/bin/gpsbabel",
            ["-t", "-i", "gpx", "-f", path, "-x", "nuketypes,waypoints,routes", "-o", "unicsv", "-F", "-"])
        #expect(track.0 == 0, "gpsbabel: \(track.2)")
        #expect(track.1.split(whereSeparator: \.isNewline).count == 1 + 20)
    }

    @Test func waypointsCarryPlaceTimeAndWeatherInTheFixcastNamespace() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let (path, _) = try await ExportTestSupport.export(.gpx, store)
        let ns = GPXWriter.namespace
        #expect(
            try ExportTestSupport.xpath(path, "string(//*[local-name()='wpt'][2]/*[local-name()='name'])")
                == ExportTestSupport.trickyName)
        #expect(
            try ExportTestSupport.xpath(path, "string(//*[local-name()='wpt'][1]/*[local-name()='time'])")
                == "2027-01-15T08:00:00Z")
        #expect(try ExportTestSupport.xpath(path, "string(//*[local-name()='wpt'][1]/@lat)") == "52.52")
        #expect(
            try ExportTestSupport.xpath(
                path, "string(//*[local-name()='wpt'][1]//*[local-name()='temperature_c' and namespace-uri()='\(ns)'])")
                == "3.1")
        #expect(
            try ExportTestSupport.xpath(
                path, "string(//*[local-name()='wpt'][1]//*[local-name()='description' and namespace-uri()='\(ns)'])")
                == (WMOCode.description(3, language: .en) ?? ""))
        // A longitude of -0.00001 is written as a plain decimal (xsd:decimal has no exponent).
        #expect(try ExportTestSupport.xpath(path, "string(//*[local-name()='trkpt'][1]/@lon)") == "-0.00001")
        #expect(try ExportTestSupport.xpath(path, "string(//*[local-name()='trkpt'][1]/*[local-name()='ele'])") == "40")
    }

    @Test func sinceAndUntilLimitWaypointsAndTrack() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let (path, summary) = try await ExportTestSupport.export(
            .gpx, store, since: StoreTestData.t0.addingTimeInterval(500),
            until: StoreTestData.t0.addingTimeInterval(745))
        #expect(summary == ExportSummary(readings: 1, trackPoints: 4))
        #expect(try ExportTestSupport.xpath(path, "count(//*[local-name()='trkpt'])") == "4")
        #expect(try ExportTestSupport.run("/usr/bin/xmllint", ["--noout", path]).0 == 0)
    }

    @Test func anEmptyStoreGivesAValidEmptyGPX() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let (path, summary) = try await ExportTestSupport.export(.gpx, store)
        #expect(summary == ExportSummary(readings: 0, trackPoints: 0))
        #expect(try ExportTestSupport.run("/usr/bin/xmllint", ["--noout", path]).0 == 0)
        #expect(try ExportTestSupport.xpath(path, "count(/*[local-name()='gpx']/*)") == "0")
    }
}

/// gpxpy (PyPI; the second GPX reader) when a Python with it is at hand: the system
/// python3, or the one named by FIXCAST_GPXPY_PYTHON (e.g. a venv). Skipped otherwise.
@Suite(.scratch) struct GPXGpxpyTests {
    static let python: String? = {
        let candidates = [ProcessInfo.processInfo.environment["FIXCAST_GPXPY_PYTHON"], "/usr/bin/python3"].compactMap {
            $0
        }
        return candidates.first { (try? ExportTestSupport.run($0, ["-c", "import gpxpy"]).0) == 0 }
    }()

    @Test(.enabled(if: python != nil, "gpxpy is not installed (pip install gpxpy, or set FIXCAST_GPXPY_PYTHON)"))
    func gpxpyReadsTheSameCounts() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let (path, _) = try await ExportTestSupport.export(.gpx, store)
        let script = """
            import gpxpy, sys
            g = gpxpy.parse(open(sys.argv[1], encoding='utf-8'))
            print(len(g.waypoints), len(g.tracks), ",".join(str(len(s.points)) for t in g.tracks for s in t.segments))
            print(g.waypoints[1].name)
            """
        let (status, out, err) = try ExportTestSupport.run(try #require(Self.python), ["-c", script, path])
        #expect(status == 0, "\(err)")
        let lines = out.split(separator: "\n", maxSplits: 1).map(String.init)
        #expect(lines.first == "2 1 12,8")
        #expect(lines.last?.trimmingCharacters(in: .newlines) == ExportTestSupport.trickyName)
    }
}
