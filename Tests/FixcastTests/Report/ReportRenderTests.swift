import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// `fixcast report` and `fixcast trips` on a real store of the bundled drive, checked with the
/// tools people open the files with: xmllint, rsvg-convert, headless Chromium.
@Suite(.serialized, .scratch) struct ReportRenderTests {
    static func tool(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    @Test func svgIsValidRendersAndDrawsTheStoredReadings() async throws {
        let drive = try await DriveStore.build()
        let home = TestPaths.temporaryDirectory("report-home")
        let out = home.appendingPathComponent("drive.svg").path
        let r = try CLIRunner.run(["report", "--db", drive.path, "-o", out], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        // Markers equal the stored readings.
        #expect(svg.components(separatedBy: "<circle class=\"reading\"").count - 1 == drive.readings.count)
        #expect(drive.readings.count > 5)
        // The track carries more than one colour.
        let colours = Set(
            svg.components(separatedBy: "<polyline class=\"track\"").dropFirst().compactMap { part -> String? in
                guard let r = part.range(of: "stroke=\"") else { return nil }
                return String(part[r.upperBound...].prefix(7))
            })
        #expect(colours.count > 1, "track colours: \(colours)")
        // The first and last place names are in the text (escaped as XML).
        let firstName = try #require(drive.readings.first?.place?.name)
        let lastName = try #require(drive.readings.last?.place?.name)
        #expect(svg.contains(XMLText.escape(firstName)))
        #expect(svg.contains(XMLText.escape(lastName)))
        // The alert title from the weather service is escaped, never raw markup.
        #expect(svg.contains("Wind Advisory &lt;test&gt;"))
        #expect(!svg.contains("<script"))
        #expect(svg.utf8.count < 1_000_000)
    }

    /// The SVG as xmllint and rsvg-convert read it (skipped, not passed, without them: Debian packages
    /// libxml2-utils and librsvg2-bin, which CI installs).
    @Test(
        .enabled(
            if: tool("/usr/bin/xmllint") && tool("/usr/bin/rsvg-convert"), "xmllint or rsvg-convert is not installed"))
    func svgIsValidXMLAndRendersToAPicture() async throws {
        let drive = try await DriveStore.build()
        let home = TestPaths.temporaryDirectory("report-tools")
        let out = home.appendingPathComponent("drive.svg").path
        let r = try CLIRunner.run(["report", "--db", drive.path, "-o", out], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let (lint, _, lintErr) = try ExportTestSupport.run("/usr/bin/xmllint", ["--noout", out])
        #expect(lint == 0, "xmllint: \(lintErr)")
        let png = home.appendingPathComponent("drive.png").path
        let (status, _, err) = try ExportTestSupport.run("/usr/bin/rsvg-convert", ["-o", png, out])
        #expect(status == 0, "rsvg-convert: \(err)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(bytes.count > 10_000)
        #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    /// The page: one row per reading, no script, nothing fetched from elsewhere.
    @Test func htmlPageHasARowPerReadingAndNoScript() async throws {
        let drive = try await DriveStore.build()
        let home = TestPaths.temporaryDirectory("report-html")
        let out = home.appendingPathComponent("drive.html").path
        let r = try CLIRunner.run(["report", "--trip", "1", "--db", drive.path, "-o", out], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.components(separatedBy: "<tr class=\"reading\">").count - 1 == drive.readings.count)
        #expect(!html.contains("<script"))
        #expect(!html.contains("http://") || html.contains("http://www.w3.org/2000/svg"))
    }

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: tool)

    /// The page in headless Chromium (skipped, not passed, without it: Debian package chromium).
    @Test(.enabled(if: chromium != nil, "chromium is not installed"))
    func htmlPageOpensInHeadlessChromiumWithoutConsoleErrors() async throws {
        let drive = try await DriveStore.build()
        let home = TestPaths.temporaryDirectory("report-chromium")
        let out = home.appendingPathComponent("drive.html").path
        let r = try CLIRunner.run(["report", "--trip", "1", "--db", drive.path, "-o", out], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let chromium = try #require(Self.chromium)
        let shot = home.appendingPathComponent("page.png").path
        var args = [
            "--headless", "--disable-gpu", "--no-first-run",
            "--user-data-dir=\(home.appendingPathComponent("chromium").path)",
            "--enable-logging=stderr", "--v=0", "--window-size=1000,1400", "--screenshot=\(shot)",
            "file://\(out)",
        ]
        if getuid() == 0 { args.insert("--no-sandbox", at: 0) }
        let (status, _, err) = try ExportTestSupport.run(chromium, args)
        #expect(status == 0, "chromium: \(err.suffix(2000))")
        #expect(!err.contains("Uncaught"), "\(err.suffix(2000))")
        #expect(!err.contains("ERROR:CONSOLE"), "\(err.suffix(2000))")
        // The page has no script, so any console line at all (a CSP refusal, a failed load) is a fault.
        #expect(!err.contains(":CONSOLE"), "\(err.suffix(2000))")
        #expect(!err.contains("Refused to"), "\(err.suffix(2000))")
        #expect(FileManager.default.fileExists(atPath: shot))
    }

    @Test func tripsListsTheDriveAndSplitsAtGaps() async throws {
        let drive = try await DriveStore.build()
        let home = TestPaths.temporaryDirectory("trips")
        let r = try CLIRunner.run(["trips", "--json", "--db", drive.path], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(json.count == 1)
        let trip = try #require(json.first)
        #expect(trip["trip"] as? Int == 1)
        #expect(trip["readings"] as? Int == drive.readings.count)
        let km = try #require(trip["distance_km"] as? Double)
        let expected = (TrackDistance.cumulativeKm(drive.fixes.map(\.coordinate)).last ?? 0)
        #expect(abs(km - expected) < 0.05, "\(km) vs \(expected)")
        #expect(trip["start_place"] as? String == drive.readings.first?.place?.name)
        #expect(trip["end_place"] as? String == drive.readings.last?.place?.name)
        let temps = drive.readings.compactMap { $0.weather?.current.temperatureC }
        #expect(trip["min_c"] as? Double == temps.min())
        #expect(trip["max_c"] as? Double == temps.max())
        // The log has a ~21 min gap (a logger restart): 10-minute trips split there and at the 13 min one.
        let short = try CLIRunner.run(
            ["trips", "--json", "--db", drive.path], env: ["FIXCAST_REPORT_TRIP_GAP_MIN": "10"], home: home)
        let split = try #require(try JSONSerialization.jsonObject(with: Data(short.stdout.utf8)) as? [[String: Any]])
        #expect(split.count == 3, "\(short.stdout)")
        let readings = split.compactMap { $0["readings"] as? Int }.reduce(0, +)
        #expect(readings <= drive.readings.count)
        // Text table names the places.
        let text = try CLIRunner.run(["trips", "--db", drive.path], home: home)
        #expect(text.status == 0)
        #expect(text.stdout.contains(drive.readings.first?.place?.name ?? "?"))
    }

    /// "HHMM" of a time, UTC, read with Foundation's calendar (not the writer's own formatting).
    static func hourMinute(_ date: Date?) -> String {
        guard let date else { return "?" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    @Test func theWriterPicksTheLastTripOrARangeAndNamesTheFileByDate() async throws {
        let drive = try await DriveStore.build()
        let store = try SQLiteStore(path: drive.path)
        let writer = TripReportWriter(gapMinutes: 10, units: .metric, language: .en)
        let last = try await writer.input(store: store, choice: nil, since: nil, until: nil)
        #expect(last.tripNumber == 3)
        #expect(last.points.last?.time == drive.fixes.last?.time)
        let first = try await writer.input(store: store, choice: .number(1), since: nil, until: nil)
        #expect(first.tripNumber == 1)
        // Named by the start's minute (UTC): trips of one day get a file each.
        let names = [TripReportWriter.defaultFileName(for: first), TripReportWriter.defaultFileName(for: last)]
        #expect(names[0] == "trip-2005-09-25T\(Self.hourMinute(first.points.first?.time))Z.svg")
        #expect(names[0] != names[1] && names[1].hasPrefix("trip-2005-09-2"))
        #expect(first.points.count + last.points.count < drive.fixes.count)
        // A range without --trip is the range itself, across trips.
        let from = try #require(drive.fixes[100].time)
        let to = try #require(drive.fixes[4000].time)
        let range = try await writer.input(store: store, choice: nil, since: from, until: to)
        #expect(range.tripNumber == nil)
        #expect(range.points.first?.time == from && range.points.last?.time == to)
        #expect(range.readings.allSatisfy { $0.time >= from && $0.time <= to })
        await #expect(throws: ReportError.nothingInRange) {
            try await writer.input(
                store: store, choice: nil, since: Date(timeIntervalSince1970: 0), until: Date(timeIntervalSince1970: 10)
            )
        }
    }

    /// A lone point after the drive (a receiver's first fix before it knew the date, stamped with the
    /// wall clock) is a trip of its own, but "the last trip" is the last one that went somewhere.
    @Test func theLastTripIsTheLastThatWentSomewhere() async throws {
        let drive = try await DriveStore.build()
        let store = try SQLiteStore(path: drive.path)
        let writer = TripReportWriter(gapMinutes: 10, units: .metric, language: .en)
        let before = try await writer.input(store: store, choice: nil, since: nil, until: nil)
        let lone = try #require(drive.fixes.last?.time).addingTimeInterval(86_400 * 400)
        let added = Process()
        added.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        added.arguments = [
            drive.path,
            "INSERT INTO track_points (time, lat, lon, mode) VALUES (\(lone.timeIntervalSince1970), 39.42, -119.76, '3d')",
        ]
        try added.run()
        added.waitUntilExit()
        #expect(added.terminationStatus == 0)
        let trips = try await store.trips(gapMinutes: 10)
        #expect(trips.count == before.tripNumber.map { $0 + 1 })
        #expect(trips.last?.distanceKm == 0)
        let last = try await writer.input(store: store, choice: nil, since: nil, until: nil)
        #expect(last.tripNumber == before.tripNumber)
        #expect(TripChoice.lastIndex([]) == nil)
        #expect(TripChoice.lastIndex(Array(trips.suffix(1))) == 0)
    }

    @Test func emptyStoreAndBadTripNumbers() async throws {
        let home = TestPaths.temporaryDirectory("report-empty")
        let db = home.appendingPathComponent("none.sqlite").path
        let r = try CLIRunner.run(["report", "--db", db], home: home)
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "storage: there is no store at \(db); check --db or storage.path, or record one with fixcast run.\n"
        )
        #expect(!FileManager.default.fileExists(atPath: db))
        let trips = try CLIRunner.run(["trips", "--json", "--db", db], home: home)
        #expect(trips.status == 0)
        #expect(trips.stdout == "[]\n")
        // A store that is there but holds no track: that is what "no trips" means.
        let emptyPath = home.appendingPathComponent("empty.sqlite").path
        _ = try SQLiteStore(path: emptyPath)
        let empty = try CLIRunner.run(["report", "--db", emptyPath], home: home)
        #expect(empty.status == 1)
        #expect(empty.stderr.hasPrefix("report: no trips in the store \(emptyPath)"))

        let drive = try await DriveStore.build()
        let past = try CLIRunner.run(["report", "--trip", "7", "--db", drive.path, "-o", "-"], home: home)
        #expect(past.status == 2)
        #expect(past.stderr.contains("--trip 7"))
        let junk = try CLIRunner.run(["report", "--trip", "zero", "--db", drive.path], home: home)
        #expect(junk.status == 2)
        let badOut = try CLIRunner.run(["report", "--db", drive.path, "-o", "x.png"], home: home)
        #expect(badOut.status == 2)
        // The default file name is trip-<date>.svg in the current folder; -o - writes to stdout.
        let stdout = try CLIRunner.run(["report", "--trip", "last", "--db", drive.path, "-o", "-"], home: home)
        #expect(stdout.status == 0)
        #expect(stdout.stdout.hasPrefix("<?xml"))
    }
}
