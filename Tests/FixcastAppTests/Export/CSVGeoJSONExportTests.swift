import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

@Suite(.scratch) struct CSVExportTests {
    /// Parsed back by Python's csv module (a real RFC 4180 reader) into JSON.
    func parseWithPython(_ path: String) throws -> [[String]] {
        let script =
            "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))"
        let (status, out, err) = try ExportTestSupport.run("/usr/bin/python3", ["-c", script, path])
        guard status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: ["python": err]) }
        return try JSONDecoder().decode([[String]].self, from: Data(out.utf8))
    }

    @Test func pythonReadsTheHeaderAndEveryFieldBack() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let (path, summary) = try await ExportTestSupport.export(.csv, store)
        #expect(summary == ExportSummary(readings: 3, trackPoints: 0))
        let rows = try parseWithPython(path)
        #expect(rows.count == 4)
        // The columns as CONTRACT.md's readers know them, written out: a change to the writer's list
        // must show here.
        let contracted = [
            "time", "trigger", "lat", "lon", "alt_m", "speed_mps", "track_deg", "mode", "fix_time",
            "position_source", "position_age_s", "place_name", "place_region", "place_country", "place_country_code",
            "place_source", "weather_provider", "weather_fetched_at", "weather_cached", "weather_stale",
            "weather_derived", "temperature_c", "feels_like_c", "humidity_pct", "dew_point_c", "pressure_hpa",
            "wind_speed_mps", "wind_gust_mps", "wind_dir_deg", "precipitation_mm", "cloud_cover_pct", "weather_code",
            "description", "today_min_c", "today_max_c", "errors", "alerts_count", "alerts_max_severity",
            "ahead_made_at", "ahead_basis", "ahead_stale", "ahead_rain_in_min", "ahead_rain_at_km",
            "ahead_rain_place", "ahead_rain_mm_h", "ahead_min_temperature_c", "ahead_max_gust_mps",
        ]
        #expect(rows[0] == contracted)
        #expect(CSVWriter.header == contracted)
        #expect(
            rows[0].contains("temperature_c") && rows[0].contains("wind_speed_mps") && rows[0].contains("pressure_hpa"))
        let column = Dictionary(uniqueKeysWithValues: rows[0].enumerated().map { ($1, $0) })
        func field(_ row: Int, _ name: String) -> String? { column[name].map { rows[row][$0] } }
        #expect(rows.dropFirst().allSatisfy { $0.count == CSVWriter.header.count })
        #expect(field(1, "time") == "2027-01-15T08:00:00Z")
        #expect(field(1, "lat") == "52.52")
        #expect(field(1, "temperature_c") == "3.1")
        #expect(field(1, "wind_speed_mps") == "4.2")
        #expect(field(1, "description") == (WMOCode.description(3, language: .en) ?? ""))
        #expect(field(1, "place_country_code") == "DE")
        #expect(field(2, "place_name") == ExportTestSupport.trickyName)
        #expect(field(3, "lat") == "")
        #expect(field(3, "temperature_c") == "")
        #expect(field(3, "errors") == "gps: no fix, \"really\"")  // the message as it is, its component said once
    }

    @Test func linesEndInCRLF() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let (path, _) = try await ExportTestSupport.export(.csv, store)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == CSVWriter.header.joined(separator: ",") + "\r\n")
    }
}

@Suite(.scratch) struct GeoJSONExportTests {
    @Test func isAFeatureCollectionOfPointsAndALineStringInLonLatOrder() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let (path, summary) = try await ExportTestSupport.export(.geojson, store)
        #expect(summary == ExportSummary(readings: 3, trackPoints: 20))
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        #expect(features.count == 5)
        #expect(features.allSatisfy { $0["type"] as? String == "Feature" && $0["properties"] is [String: Any] })

        let first = features[0]
        let geometry = try #require(first["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "Point")
        #expect(geometry["coordinates"] as? [Double] == [13.4138, 52.52, 34.5])
        let properties = try #require(first["properties"] as? [String: Any])
        #expect(properties["trigger"] as? String == "moved")
        #expect((properties["place"] as? [String: Any])?["name"] as? String == "Berlin")
        #expect(
            ((properties["weather"] as? [String: Any])?["current"] as? [String: Any])?["temperature_c"] as? Double
                == 3.1)
        #expect(
            ((features[1]["properties"] as? [String: Any])?["place"] as? [String: Any])?["name"] as? String
                == ExportTestSupport.trickyName)
        #expect(features[2]["geometry"] is NSNull)  // no position: an unlocated feature (RFC 7946 §3.2)

        // The track, cut at its 10-minute gap (as GPX's trkseg): no straight line across it.
        let parts = features[3...].map { $0["geometry"] as? [String: Any] }
        #expect(parts.map { $0?["type"] as? String } == ["LineString", "LineString"])
        let coordinates = try #require(parts[0]?["coordinates"] as? [[Double]])
        #expect(coordinates.count == 12)
        #expect(coordinates[0] == [-0.00001, 52.5])
        #expect((parts[1]?["coordinates"] as? [[Double]])?.first?[1] == 52.6)
        let properties3 = features[3...].map { $0["properties"] as? [String: Any] }
        #expect(properties3.map { $0?["point_count"] as? Int } == [12, 8])
        #expect(properties3.map { $0?["part"] as? Int } == [1, 2])
    }

    /// A point alone between two gaps is still the track: a Point feature with its part.
    @Test func aPointAloneBetweenGapsIsAPointPart() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        try await store.appendTrackPoints(
            [0, 10, 1000, 2000, 2010].map { StoreTestData.fix(at: $0, lat: 52.5 + $0 / 10_000, lon: 13) })
        let (path, _) = try await ExportTestSupport.export(.geojson, store)
        let root = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let features = try #require(root["features"]?.arrayValue)
        #expect(features.map { $0["geometry"]?["type"]?.stringValue } == ["LineString", "Point", "LineString"])
        #expect(features.map { $0["properties"]?["part"]?.intValue } == [1, 2, 3])
        #expect(features.map { $0["properties"]?["point_count"]?.intValue } == [2, 1, 2])
    }

    @Test func propertiesAreTheStoredReadingExactly() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let (path, _) = try await ExportTestSupport.export(.geojson, store)
        let root = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let properties = try #require(root["features"]?[0]?["properties"])
        #expect(
            Reading(json: properties) == StoreTestData.reading(at: 0, lat: 52.52, lon: 13.4138, placeName: "Berlin"))
    }

    /// RFC 7946 §3.1.9: a track across ±180° (a boat off Fiji, out and back) is cut on the line into
    /// LineString parts, so that no part runs the long way round the world.
    @Test func aTrackAcrossTheAntimeridianIsCutIntoPartsOnTheLine() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let lons = [179.98, 179.99, -179.99, -179.98, 179.99]
        try await store.appendTrackPoints(
            lons.enumerated().map { StoreTestData.fix(at: Double($0.offset), lat: -17, lon: $0.element) })
        let (path, summary) = try await ExportTestSupport.export(.geojson, store)
        #expect(summary.trackPoints == 5)
        let root = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let features = try #require(root["features"]?.arrayValue)
        #expect(features.count == 3)
        let parts = features.compactMap { $0["geometry"]?["coordinates"]?.arrayValue?.map { $0.arrayValue ?? [] } }
        let lonsDrawn = parts.map { $0.compactMap { $0.first?.doubleValue } }
        #expect(lonsDrawn == [[179.98, 179.99, 180], [-180, -179.99, -179.98, -180], [180, 179.99]])
        for part in parts {
            let lon = part.compactMap { $0.first?.doubleValue }
            // No step inside a part is longer than half the world.
            #expect(zip(lon, lon.dropFirst()).allSatisfy { abs($1 - $0) <= 180 })
            #expect(part.allSatisfy { $0.last?.doubleValue == -17 })
        }
        #expect(features.map { $0["geometry"]?["type"]?.stringValue } == ["LineString", "LineString", "LineString"])
        #expect(features.map { $0["properties"]?["part"]?.intValue } == [1, 2, 3])
        #expect(features.map { $0["properties"]?["point_count"]?.intValue } == [2, 2, 1])
        #expect(
            features.map { $0["properties"]?["start"]?.stringValue }
                == [0, 2, 4].map { StoreTestData.fix(at: $0).time.map(UTCTime.format) })
        // A track that stays on one side (and has no gap) is one LineString without a `part`.
        let plainStore = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        try await plainStore.appendTrackPoints([0, 10, 20].map { StoreTestData.fix(at: $0, lat: -17, lon: 179) })
        let (plainPath, _) = try await ExportTestSupport.export(.geojson, plainStore)
        let plain = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: plainPath))))
        let track = try #require(plain["features"]?.arrayValue?.last)
        #expect(track["geometry"]?["type"]?.stringValue == "LineString")
        #expect(track["properties"]?["part"] == nil)
    }

    @Test func oneTrackPointIsAPointAndNoneIsNothing() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let (emptyPath, _) = try await ExportTestSupport.export(.geojson, store)
        let empty = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: emptyPath))) as? [String: Any])
        #expect((empty["features"] as? [Any])?.count == 0)
        try await store.appendTrackPoints([StoreTestData.fix(at: 0)])
        let (path, _) = try await ExportTestSupport.export(.geojson, store)
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        #expect(features.count == 1)
        #expect((features[0]["geometry"] as? [String: Any])?["type"] as? String == "Point")
    }
}

@Suite(.scratch) struct ExportDestinationTests {
    @Test func aFileInAMissingFolderIsCannotCreateAndLeavesNothing() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let dir = TestPaths.temporaryDirectory().appendingPathComponent("missing").path
        let path = dir + "/out.gpx"
        await #expect(throws: ExportError.self) {
            try await Exporter.export(format: .gpx, store: store, since: nil, until: nil, to: .file(path: path))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: dir), "nothing made, not even the folder")
    }

    /// (The partial file of a failed `-o FILE` is `ExportTargetTests.failureMidWriteKeepsOldFile`'s.)
    @Test func aFailingWriteIsWriteFailed() async throws {
        // /dev/full accepts open and fails every write with ENOSPC.
        let store = try await ExportTestSupport.populatedStore()
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        do {
            try await Exporter.export(format: .csv, store: store, since: nil, until: nil, to: .fileDescriptor(fd))
            Issue.record("writing to /dev/full succeeded")
        } catch {
            guard case .writeFailed(_, let detail) = error else {
                Issue.record("expected writeFailed, got \(error)")
                return
            }
            #expect(detail.contains("No space"))
            #expect(error.message.hasPrefix("storage: "))
        }
    }

    @Test func aCompletedFileReplacesAnOldOne() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let path = TestPaths.temporaryDirectory().appendingPathComponent("out.csv").path
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        try await Exporter.export(format: .csv, store: store, since: nil, until: nil, to: .file(path: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("time,trigger,"))
        // The temporary file it was written to (`.out.csv.fixcast-XXXXXX` beside it) is gone.
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.csv"])
    }
}

@Suite(.scratch) struct ExportTextTests {
    @Test(arguments: [
        (3.1, "3.1"), (40.0, "40"), (-0.00001, "-0.00001"), (0.000000123, "0.000000123"), (1e-12, "0"),
        (-179.999999, "-179.999999"), (52.520008, "52.520008"),
    ])
    func numbersHaveNoExponent(value: Double, text: String) {
        #expect(ExportText.number(value) == text)
    }

    @Test func xmlEscapesSpecialsAndDropsForbiddenControls() {
        #expect(ExportText.xml("a<b>&\"c\"'\u{01}\td") == "a&lt;b&gt;&amp;&quot;c&quot;&#39;\td")
    }
}

@Suite(.scratch) struct ExportTimeRangeTests {
    @Test func aBareDateIsTheWholeUTCDay() throws {
        let since = try #require(ExportTimeRange.parse("2027-01-15", isUpperBound: false))
        let until = try #require(ExportTimeRange.parse("2027-01-15", isUpperBound: true))
        #expect(since == Date(timeIntervalSince1970: 1_800_000_000 - 8 * 3600))  // 2027-01-15T00:00:00Z
        #expect(until > since.addingTimeInterval(86_399) && until < since.addingTimeInterval(86_400))
    }

    @Test func aFullTimeIsExact() {
        #expect(
            ExportTimeRange.parse("2027-01-15T08:00:00Z", isUpperBound: true)
                == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(
            ExportTimeRange.parse("2027-01-15T10:00:00+02:00", isUpperBound: false)
                == Date(timeIntervalSince1970: 1_800_000_000))
        // Without an offset, UTC (as the help says).
        #expect(
            ExportTimeRange.parse("2027-01-15T08:00", isUpperBound: false) == Date(timeIntervalSince1970: 1_800_000_000)
        )
    }

    @Test(arguments: ["yesterday", "2027-02-30", "15.01.2027", "", "2027-01-15T25:00"])
    func badValuesAreNil(text: String) {
        #expect(ExportTimeRange.parse(text, isUpperBound: false) == nil)
    }

    /// Through the exporter: a day's bounds take that day's readings.
    @Test func aDayExportsThatDay() async throws {
        let store = try await ExportTestSupport.populatedStore()
        let path = TestPaths.temporaryDirectory().appendingPathComponent("day.csv").path
        let summary = try await Exporter.export(
            format: .csv, store: store, since: ExportTimeRange.parse("2027-01-15", isUpperBound: false),
            until: ExportTimeRange.parse("2027-01-15", isUpperBound: true), to: .file(path: path))
        #expect(summary.readings == 3)
        let none = try await Exporter.export(
            format: .csv, store: store, since: ExportTimeRange.parse("2027-01-16", isUpperBound: false), until: nil,
            to: .file(path: path))
        #expect(none.readings == 0)
    }
}
