import FixcastCore
import FixcastRendering
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport
@testable import fixcast

/// A trip's `ahead_checks` from a real store (`tripSummaries`), the report's hour-before pairs, and
/// the text table's cell.
@Suite(.scratch)
struct AheadTripChecksTests {
    /// What `AheadDrive` makes, worked out from how it is built: forecast k's sample i lands on reading
    /// k + i + 1 exactly (so every ETA error is 0), while there is one.
    static func expectedPairs() -> [(k: Int, i: Int)] {
        (0..<AheadDrive.count).flatMap { k in (0..<4).filter { k + $0 + 1 < AheadDrive.count }.map { (k, $0) } }
    }

    @Test func tripSummariesCheckTheDrivesForecastsAgainstItsReadings() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("ahead-trip"))
        try await AheadDrive.fill(store)
        let trips = try await store.tripSummaries(gapMinutes: 30)
        #expect(trips.count == 1)
        let c = try #require(trips.first).aheadChecks
        let expected = Self.expectedPairs()
        #expect(c.pairs == expected.count && c.pairs == 26)
        #expect(c.etaErrorPctMedian.map { abs($0) < 1e-6 } == true)
        let errors = expected.map { k, i in
            abs((3.5 + 0.2 * Double(k) - 0.5 * Double(i)) - AheadDrive.metTemperature(k + i + 1))
        }
        #expect(abs(c.temperatureMaeC! - errors.reduce(0, +) / Double(errors.count)) < 1e-9)
        // Rain forecast from the third sample; met only at the last reading.
        #expect((c.rainHits, c.rainMisses, c.rainFalseAlarms) == (2, 2, 9))
        // The same through the readings the report reads.
        let readings = try await store.tripReadings(from: trips[0].start, to: trips[0].end)
        let pairs = AheadCheck.pairs(
            forecasts: readings.compactMap(\.ahead), met: readings.compactMap(AheadCheck.Met.init))
        #expect(AheadCheck.summary(pairs, rainMmH: 0.2) == c)
    }

    /// The ETA error is timed by the track's nearest pass: the same drive, its track 2 min behind the
    /// readings (the readings were taken where the forecasts said, the traveller got there later).
    @Test func theETAErrorIsTimedByTheTracksPass() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("ahead-trip-track"))
        for k in 0..<AheadDrive.count { try await store.insertReading(AheadDrive.reading(k)) }
        let lateS = 120.0
        var fixes: [Fix] = []
        for s in stride(from: -60.0, through: Double(AheadDrive.count - 1) * AheadDrive.stepS + 300, by: 10) {
            let km = 20 * (s - lateS) / 1000
            fixes.append(
                StoreTestData.fix(
                    at: s, lat: AheadDrive.lat,
                    lon: AheadDrive.lon0 + km / (111.32 * cos(AheadDrive.lat * .pi / 180))))
        }
        try await store.appendTrackPoints(fixes)
        let c = try #require(try await store.tripSummaries(gapMinutes: 30).first).aheadChecks
        // Sample i of a forecast looks (i + 1) × 15 min ahead; every pass is 2 min late.
        let errors = Self.expectedPairs().map { _, i in lateS / (Double(i + 1) * AheadDrive.stepS) * 100 }.sorted()
        let median = (errors[errors.count / 2 - 1] + errors[errors.count / 2]) / 2
        #expect(errors.count == 26)
        #expect(
            c.etaErrorPctMedian.map { abs($0 - median) < 1e-6 } == true,
            "\(String(describing: c.etaErrorPctMedian)) vs \(median)")
    }

    @Test func aTripWithoutForecastsHasNoChecks() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("ahead-trip-none"))
        try await store.insertReading(StoreTestData.reading(at: 0))
        try await store.appendTrackPoints([StoreTestData.fix(at: -10), StoreTestData.fix(at: 10)])
        let trips = try await store.tripSummaries(gapMinutes: 30)
        #expect(trips.map(\.aheadChecks) == [.none])
    }

    @Test func theReportDrawsTheForecastMadeAnHourBefore() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("ahead-report"))
        try await AheadDrive.fill(store)
        let input = try await TripReportWriter(gapMinutes: 30, units: .metric, language: .en).input(
            store: store, choice: nil, since: nil, until: nil)
        // Readings 2…8 checked a forecast 30–90 min old; from reading 4 on, one made exactly an hour before.
        #expect(
            input.aheadHourBefore.map(\.met.time)
                == (2..<9).map { StoreTestData.t0.addingTimeInterval(Double($0) * 900) })
        #expect(input.aheadHourBefore.map(\.leadS) == [1800, 2700, 3600, 3600, 3600, 3600, 3600])
        let svg = TripReportDocument.svg(input)
        #expect(svg.components(separatedBy: "class=\"forecast-temperature\"").count - 1 == 7)
        #expect(svg.contains("class=\"forecast-temperature-line\""))
        // Rain forecast an hour before at readings 4…8 (the sample 60 min ahead is the fourth: rainy).
        #expect(svg.components(separatedBy: "class=\"forecast-precipitation\"").count - 1 == 6)
        #expect(svg.contains("Forecast 1 h before"))
        let path = TestPaths.temporaryDirectory("ahead-report-svg").appendingPathComponent("trip.svg").path
        try svg.write(toFile: path, atomically: true, encoding: .utf8)
        // To look at it: FIXCAST_TEST_KEEP_SVG=/tmp/x.svg, then rsvg-convert it to PNG.
        if let keep = ProcessInfo.processInfo.environment["FIXCAST_TEST_KEEP_SVG"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: path, toPath: keep)
        }
    }

    @Test func theTripsTableShowsTheChecksInItsUnits() {
        let c = AheadCheck.Summary(
            pairs: 26, etaErrorPctMedian: 7.6, temperatureMaeC: 1.26, rainHits: 2, rainMisses: 2, rainFalseAlarms: 9)
        #expect(
            TripsCommand.aheadChecks(c, units: .metric)
                == "26 pairs, ETA ±8 %, temp ±1.3 °C, rain 2 hit 2 missed 9 false")
        #expect(TripsCommand.aheadChecks(c, units: .imperial).contains("±2.3 °F"))
        #expect(TripsCommand.aheadChecks(.none, units: .metric) == "—")
        let one = AheadCheck.Summary(
            pairs: 1, etaErrorPctMedian: nil, temperatureMaeC: nil, rainHits: 0, rainMisses: 0, rainFalseAlarms: 0)
        #expect(TripsCommand.aheadChecks(one, units: .metric) == "1 pair")
    }

    /// `trips --lang ru|zh`: the table's words in the display language (they were English whatever
    /// --lang said); numbers, units and places as in English.
    @Test func theTripsTableSpeaksTheDisplayLanguage() async throws {
        let c = AheadCheck.Summary(
            pairs: 26, etaErrorPctMedian: 7.6, temperatureMaeC: 1.26, rainHits: 2, rainMisses: 2, rainFalseAlarms: 9)
        #expect(
            TripsCommand.aheadChecks(c, units: .metric, language: .ru)
                == "26 пар, время прибытия ±8 %, темп. ±1.3 °C, дождь: верно 2, пропущено 2, ложно 9")
        #expect(TripsCommand.aheadChecks(c, units: .metric, language: .zh).hasPrefix("26 对, 到达时间 ±8 %"))
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("trips-lang"))
        try await AheadDrive.fill(store)
        let trips = try await store.tripSummaries(gapMinutes: 30)
        let ru = TripsCommand.table(trips, units: .metric, language: .ru)
        #expect(ru.first?.hasPrefix("#") == true && ru.first?.contains("начало (UTC)") == true, "\(ru)")
        #expect(ru.joined().contains("2 ч 02 мин"), "\(ru)")
        #expect(TripsCommand.table(trips, units: .metric, language: .zh).first?.contains("起点 → 终点") == true)
        #expect(TripsCommand.table(trips, units: .metric).first?.contains("start (UTC)") == true)
    }
}
