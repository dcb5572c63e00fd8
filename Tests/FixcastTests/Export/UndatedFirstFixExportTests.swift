import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// The exports of a replayed drive whose first fix came before the receiver knew the date (no fix time)
/// with the startup reading taken there (`UndatedFirstFixTripTests.build`: a real SQLite file). `trips`
/// and `report` place that fix and reading at the start of the drive, 2 s and 1 s (of receive time)
/// before its first dated fix; the exports dated them by their receive time, 2026: the GeoJSON line
/// ended with a jump back to the start and an `end` in 2026, the GPX had a stray one-point segment, and
/// `--since 2026-01-01` exported them alone. They now take the times `trips` gives them.
@Suite(.scratch) struct UndatedFirstFixExportTests {
    static func export(_ format: ExportFormat, _ path: String, since: Date? = nil, gapMinutes: Double = 30)
        async throws -> (text: String, summary: ExportSummary)
    {
        let out = TestPaths.temporaryDirectory("undated-export").appendingPathComponent("out.\(format.rawValue)").path
        let store = try SQLiteStore.forReading(path: path)
        let summary = try await Exporter.export(
            format: format, store: store, since: since, until: nil, gapMinutes: gapMinutes, to: .file(path: out))
        return (try String(contentsOfFile: out, encoding: .utf8), summary)
    }

    @Test func theGPXTrackAndWaypointsStartWithTheUndatedFix() async throws {
        let built = try await UndatedFirstFixTripTests.build()
        let first = try #require(built.fixes.first?.time)
        let last = try #require(built.fixes.last?.time)
        let (gpx, summary) = try await Self.export(.gpx, built.path)
        #expect(summary == ExportSummary(readings: 2, trackPoints: built.fixes.count + 1))
        let times = Self.matches(#"<trkpt[^>]*>(?:<ele>[^<]*</ele>)?<time>([^<]*)</time>"#, in: gpx)
        #expect(times.first == UTCTime.format(first.addingTimeInterval(-2)))
        #expect(times.last == UTCTime.format(last))
        #expect(times == times.sorted())
        // No segment of its own for the undated point: the dated fixes' 5-minute gaps make them all.
        let fixTimes = built.fixes.compactMap(\.time)
        let gaps = zip(fixTimes, fixTimes.dropFirst()).filter { $1.timeIntervalSince($0) > GPXWriter.segmentGap }
        #expect(gpx.components(separatedBy: "<trkseg>").count - 1 == gaps.count + 1)
        // The startup reading is the first waypoint, at the time trips gives it.
        let waypoints = Self.matches(#"<wpt[^>]*>(?:<ele>[^<]*</ele>)?<time>([^<]*)</time>"#, in: gpx)
        let later3000 = try #require(built.fixes[3000].time)
        #expect(waypoints == [first.addingTimeInterval(-1), later3000].map(UTCTime.format))
        let startup = try #require(gpx.range(of: "<name>Undated start</name>"))
        let later = try #require(gpx.range(of: "<name>Dated later</name>"))
        #expect(startup.lowerBound < later.lowerBound)
    }

    @Test func theGeoJSONLineRunsFromTheUndatedFixToTheLastWithTheTripsTimes() async throws {
        let built = try await UndatedFirstFixTripTests.build()
        let first = try #require(built.fixes.first?.time)
        let last = try #require(built.fixes.last)
        let (text, _) = try await Self.export(.geojson, built.path)
        let root = try JSONValue.parse(Array(text.utf8))
        let features = try #require(root["features"]?.arrayValue)
        // The track's parts: cut where GPX cuts its segments (the dated fixes' 5-minute gaps), the
        // undated point in the first.
        let parts = features.filter { $0["properties"]?["name"]?.stringValue == "fixcast track" }
        let fixTimes = built.fixes.compactMap(\.time)
        let gaps = zip(fixTimes, fixTimes.dropFirst()).filter { $1.timeIntervalSince($0) > GPXWriter.segmentGap }
        #expect(parts.count == gaps.count + 1)
        #expect(parts.first?["properties"]?["start"]?.stringValue == UTCTime.format(first.addingTimeInterval(-2)))
        let line = try #require(parts.last)
        #expect(line["properties"]?["end"]?.stringValue == last.time.map(UTCTime.format))
        let coordinates = try #require(line["geometry"]?["coordinates"]?.arrayValue)
        #expect(coordinates.last?.arrayValue?.compactMap(\.doubleValue) == [last.coordinate.lon, last.coordinate.lat])
        // The readings in the trips' order: the startup reading first.
        #expect(features.first?["properties"]?["trigger"]?.stringValue == "startup")
    }

    @Test func sinceAndUntilTakeTheUndatedRowsAtTheTripsTimes() async throws {
        let built = try await UndatedFirstFixTripTests.build()
        let first = try #require(built.fixes.first?.time)
        // The replay's wall clock holds nothing of the 2005 drive, the undated rows included.
        let wallOnly = try await Self.export(.csv, built.path, since: UndatedFirstFixTripTests.wall)
        #expect(wallOnly.summary == ExportSummary(readings: 0, trackPoints: 0))
        let track = try await Self.export(.gpx, built.path, since: UndatedFirstFixTripTests.wall)
        #expect(track.summary == ExportSummary(readings: 0, trackPoints: 0))
        // The drive's first seconds hold them.
        let start = try await Self.export(.gpx, built.path, since: first.addingTimeInterval(-2))
        #expect(start.summary == ExportSummary(readings: 2, trackPoints: built.fixes.count + 1))
        let csv = try await Self.export(.csv, built.path)
        let rows = csv.text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.dropFirst().first?[1] == "startup")
    }

    /// The trips' gap (`report.trip_gap_min`) is the export's too: a fix received further than it from
    /// any dated one keeps its receive time, as `trips` keeps it.
    @Test func theTripGapIsTheTrips() async throws {
        let built = try await UndatedFirstFixTripTests.build()
        let (gpx, _) = try await Self.export(.gpx, built.path, gapMinutes: 1.0 / 60)
        let times = Self.matches(#"<trkpt[^>]*>(?:<ele>[^<]*</ele>)?<time>([^<]*)</time>"#, in: gpx)
        #expect(times.last == UTCTime.format(UndatedFirstFixTripTests.wall))
    }

    /// The same through the binary, as the audit ran it: `--since 2026-01-01` on the replayed store.
    @Test func theCommandExportsNothingOfTheDriveSince2026() async throws {
        let built = try await UndatedFirstFixTripTests.build()
        let home = TestPaths.temporaryDirectory("undated-export-cli")
        let r = try CLIRunner.run(
            ["export", "--format", "csv", "--since", "2026-01-01", "--db", built.path], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout == CSVWriter.header.joined(separator: ",") + "\r\n")
    }

    /// The first capture group of every match of `pattern` in `text`.
    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let re = try? NSRegularExpression(pattern: pattern) else { return [] }
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
