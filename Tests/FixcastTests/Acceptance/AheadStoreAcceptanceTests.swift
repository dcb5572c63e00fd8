import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Through the binary: a store holding readings with ahead forecasts, read by `trips --json`,
/// `trips`, `export` and `line`, each a separate `fixcast` process on the real file.
@Suite(.scratch)
struct AheadStoreAcceptanceTests {
    @Test func tripsExportAndLineReadTheStoredForecasts() async throws {
        let home = TestPaths.temporaryDirectory("ahead-binary")
        let db = home.appendingPathComponent("drive.sqlite").path
        do {
            let store = try SQLiteStore(path: db)
            try await AheadDrive.fill(store)
        }

        let json = try CLIRunner.run(["trips", "--json", "--db", db], home: home)
        #expect(json.status == 0, "\(json.stderr)")
        let trips = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let checks = try #require(trips.first?["ahead_checks"] as? [String: Any])
        #expect(checks["pairs"] as? Int == 26)
        #expect(checks["eta_error_pct_median"] as? Double == 0)
        #expect(checks["temperature_mae_c"] is Double)
        #expect(checks["rain_hits"] as? Int == 2 && checks["rain_misses"] as? Int == 2)
        #expect(checks["rain_false_alarms"] as? Int == 9)

        let table = try CLIRunner.run(["trips", "--db", db], home: home)
        #expect(table.status == 0)
        #expect(table.stdout.contains("forecast ahead vs met") && table.stdout.contains("26 pairs, ETA ±0 %"))

        let csv = try CLIRunner.run(["export", "--format", "csv", "--db", db], home: home)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.components(separatedBy: "\r\n")
        // The ahead columns come last: made at, basis, stale, rain in/at/place/rate, min temperature, max gust.
        #expect(rows[0].hasSuffix(AheadExportFields.csvHeader.joined(separator: ",")))
        #expect(rows[1].hasSuffix(",2027-01-15T08:00:00Z,route,false,45,54,Place 2,1.2,2,14"), "\(rows[1])")

        let gpx = try CLIRunner.run(["export", "--format", "gpx", "--db", db], home: home)
        #expect(gpx.status == 0)
        #expect(gpx.stdout.components(separatedBy: "<fixcast:ahead ").count - 1 == AheadDrive.count)

        // The drive is in 2027: its forecasts are from the future, counted from when they were made,
        // and the line is stale, as a reading stamped ahead of the clock is of an age not known.
        let line = try CLIRunner.run(["line", "--db", db, "--format", "%r", "--waybar"], home: home)
        #expect(line.status == 0, "\(line.stderr)")
        let bar = try #require(try JSONSerialization.jsonObject(with: Data(line.stdout.utf8)) as? [String: Any])
        #expect(bar["text"] as? String == "~rain in 45 min")
        #expect((bar["class"] as? [String])?.contains("rain-ahead") == true)
    }

    @Test func lineCountsTheLastForecastsRainFromNow() async throws {
        let home = TestPaths.temporaryDirectory("ahead-line")
        let db = home.appendingPathComponent("now.sqlite").path
        let made = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - 600)
        do {
            let store = try SQLiteStore(path: db)
            var r = StoreTestData.reading(at: made.timeIntervalSince(StoreTestData.t0))
            r.ahead = StoreTestData.aheadForecast(at: made.timeIntervalSince(StoreTestData.t0))
            try await store.insertReading(r)
        }
        let line = try CLIRunner.run(["line", "--db", db, "--format", "%l: %r"], home: home)
        #expect(line.status == 0, "\(line.stderr)")
        // Rain 45 min after a forecast made 10 min ago (a minute more if the clock turned meanwhile).
        #expect(["Berlin: rain in 35 min\n", "Berlin: rain in 34 min\n"].contains(line.stdout), "\(line.stdout)")
    }
}
