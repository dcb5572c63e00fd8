import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// A forecast made from the provider's unrounded values (16.570396745125453 °C) says the same in the
/// reading's JSON, the store's row and the CSV and GPX exports: the tenths the JSON prints.
@Suite(.scratch) struct AheadHeadlineExportTests {
    /// A forecast assembled as the ahead service makes one, from values no forecast is rounded to.
    func madeForecast() -> AheadForecast {
        let t0 = StoreTestData.t0
        let from = Coordinate(lat: 52.52, lon: 13.4)!
        let hours = (0..<3).map { t0.addingTimeInterval(Double($0) * 3600) }
        let series = AheadHourlySeries(
            times: hours, temperatureC: Array(repeating: 16.570396745125453, count: 3),
            precipitationMmH: Array(repeating: 1.2649, count: 3), precipitationProbabilityPct: [80, 80, 80],
            weatherCode: [61, 61, 61], windSpeedMps: [1, 1, 1],
            windGustMps: Array(repeating: 1.3986167619349779, count: 3), windDirDeg: [270, 270, 270])
        let point = AheadSamplePoint(
            minutes: 15, eta: t0.addingTimeInterval(900), distanceM: 12_345.6,
            coordinate: Coordinate(lat: 52.52, lon: 13.58)!, travelBearingDeg: 90)
        let plan = AheadTrajectory.Plan(
            basis: .course, offRoute: false, path: .course(from: from, courseDeg: 90), route: nil,
            refreshBasis: AheadRefreshPolicy.Basis(basis: .course, routeID: nil, offRoute: false))
        return AheadForecastAssembly.forecast(
            plan: plan, speed: TravelSpeed(mps: 13.7, source: .gps),
            from: AheadForecast.Origin(coordinate: from, fixTime: t0),
            madeAt: t0, points: [point], locationOfSample: [0], series: [series], places: ["Werder"], rainMmH: 0.2)
    }

    @Test func jsonStoreCSVAndGPXSayTheSameTenths() async throws {
        let path = StoreTestData.temporaryStorePath("ahead-headline")
        let store = try SQLiteStore(path: path)
        let reading = StoreTestData.reading(at: 0, ahead: madeForecast())
        try await store.insertReading(reading)
        let json = try #require(reading.ahead?.json(language: .en))
        #expect(json["worst"]?["min_temperature_c"]?.doubleValue == 16.6)
        #expect(json["worst"]?["max_gust_mps"]?.doubleValue == 1.4)

        let row = try StoreTestData.sqlite3(
            path,
            "SELECT min_temperature_c, max_gust_mps, max_precipitation_mm_h, rain_at_km, rain_mm_h FROM ahead_forecasts"
        )
        #expect(row == "16.6|1.4|1.3|12.3|1.3")

        let (csvPath, _) = try await ExportTestSupport.export(.csv, store)
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(csv[1].hasSuffix(",course,false,15,12.3,Werder,1.3,16.6,1.4"), "\(csv[1])")

        let (gpxPath, _) = try await ExportTestSupport.export(.gpx, store)
        let gpx = try String(contentsOfFile: gpxPath, encoding: .utf8)
        #expect(gpx.contains("<fixcast:rain in_min=\"15\" at_km=\"12.3\" mm_h=\"1.3\">Werder</fixcast:rain>"), "\(gpx)")
        #expect(gpx.contains("<fixcast:min_temperature_c>16.6</fixcast:min_temperature_c>"))
        #expect(gpx.contains("<fixcast:max_gust_mps>1.4</fixcast:max_gust_mps>"))
    }
}
