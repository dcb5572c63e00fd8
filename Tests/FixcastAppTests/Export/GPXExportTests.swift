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
        // The extensions' namespace readers of the GPX match on, written out.
        let ns = "https://fixcast.invalid/xmlns/gpx/1"
        #expect(GPXWriter.namespace == ns)
        #expect(
            try ExportTestSupport.xpath(path, "string(//*[local-name()='wpt'][2]/*[local-name()='name'])")
                == ExportTestSupport.trickyName)
        // The receiver's fix time (a second before the reading was taken), as `trips` dates it.
        #expect(
            try ExportTestSupport.xpath(path, "string(//*[local-name()='wpt'][1]/*[local-name()='time'])")
                == "2027-01-15T07:59:59Z")
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

    /// A replayed log (the demo's 2025 drive received in 2026): `trips` and `report` date it by the
    /// receiver's times, and the export did by the receive times. The range `trips` listed exported
    /// nothing, and a 3-hour drive came out as the 3 minutes of its replay, its segments judged on
    /// that clock. The export now takes the track's and the readings' times as `trips` does.
    @Test func aReplayedLogExportsOnItsOwnClock() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("export-replay"))
        let logged = Date(timeIntervalSince1970: 1_747_000_000)  // 2025-05-11
        let wall = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30
        // Twenty fixes a minute apart in the log, received a second apart; a 20-minute stop after the 10th.
        try await store.appendTrackPoints(
            (0..<20).map { i in
                let logS = Double(i) * 60 + (i >= 10 ? 1200 : 0)
                return Fix(
                    time: logged.addingTimeInterval(logS), receivedAt: wall.addingTimeInterval(Double(i)),
                    coordinate: Coordinate(lat: 39.5 + Double(i) * 0.001, lon: -119.8)!, mode: .threeD)
            })
        var reading = StoreTestData.reading(at: 0, lat: 39.505, lon: -119.8, placeName: "Sparks")
        reading.time = wall.addingTimeInterval(5)
        reading.position?.fixTime = logged.addingTimeInterval(300)
        try await store.insertReading(reading)
        let (path, summary) = try await ExportTestSupport.export(
            .gpx, store, since: logged, until: logged.addingTimeInterval(86_400))
        #expect(summary == ExportSummary(readings: 1, trackPoints: 20))
        #expect(
            try ExportTestSupport.xpath(path, "string(//*[local-name()='trkpt'][1]/*[local-name()='time'])")
                == UTCTime.format(logged))
        // The stop in the log breaks the track; the replay's one-second steps would not have.
        #expect(try ExportTestSupport.xpath(path, "count(//*[local-name()='trkseg'])") == "2")
        // The wall clock's range holds none of it.
        let (_, wallOnly) = try await ExportTestSupport.export(
            .gpx, store, since: wall.addingTimeInterval(-60), until: wall.addingTimeInterval(60))
        #expect(wallOnly == ExportSummary(readings: 0, trackPoints: 0))
        // Weather ahead still learns from the last minutes as received (the wall clock's).
        #expect(try await store.recentTrack(since: wall.addingTimeInterval(-60)).count == 20)
    }

    /// A waypoint's time is the reading's trip time (`Reading.tripTime`), as the track's points
    /// have theirs: a replayed log's readings were dated by the wall clock of the replay, 1.5 years
    /// after the track they sit on. A position given by hand, and the last known one (an old fix under
    /// weather of the moment), go by the reading's own time.
    @Test func waypointsAreDatedAsTripsDateTheirReadings() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("export-wpt-time"))
        let logged = Date(timeIntervalSince1970: 1_747_000_000)  // 2025-05-11
        let wall = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30
        var replayed = StoreTestData.reading(at: 0, lat: 39.505, lon: -119.8, placeName: "Sparks")
        replayed.time = wall
        replayed.position?.fixTime = logged
        var manual = StoreTestData.reading(at: 0, lat: 52.52, lon: 13.4, placeName: "Berlin")
        manual.time = wall.addingTimeInterval(60)
        manual.position?.source = .manual
        manual.position?.fixTime = nil
        var parked = StoreTestData.reading(at: 0, lat: 39.6, lon: -119.9, placeName: "Reno")
        parked.time = wall.addingTimeInterval(120)
        parked.position?.source = .lastKnown
        parked.position?.fixTime = logged.addingTimeInterval(-86_400)
        for r in [replayed, manual, parked] { try await store.insertReading(r) }
        let (path, summary) = try await ExportTestSupport.export(.gpx, store)
        #expect(summary.readings == 3)
        func time(of name: String) throws -> String {
            try ExportTestSupport.xpath(
                path, "string(//*[local-name()='wpt'][*[local-name()='name']='\(name)']/*[local-name()='time'])")
        }
        #expect(try time(of: "Sparks") == UTCTime.format(logged))
        #expect(try time(of: "Berlin") == UTCTime.format(manual.time))
        #expect(try time(of: "Reno") == UTCTime.format(parked.time))
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
