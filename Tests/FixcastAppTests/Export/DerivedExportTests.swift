import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// CONTRACT.md `derived` in the exports: the values fixcast computed are named in CSV and GPX as in
/// the reading's JSON, and a reading whose provider gave everything names none.
@Suite(.scratch) struct DerivedExportTests {
    /// Two readings: the first with dew point, sunrise and sunset derived, the second with nothing derived.
    static func store() async throws -> SQLiteStore {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("export-derived"))
        var computed = StoreTestData.reading(at: 0)
        computed.weather?.derived = [.dewPoint, .sunrise, .sunset]
        try await store.insertReading(computed)
        try await store.insertReading(StoreTestData.reading(at: 600))
        return store
    }

    @Test func csvNamesTheDerivedValuesInOneColumn() async throws {
        let (path, _) = try await ExportTestSupport.export(.csv, try await Self.store())
        let rows = try CSVExportTests().parseWithPython(path)
        let column = try #require(rows[0].firstIndex(of: "weather_derived"))
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == CSVWriter.header.count })
        #expect(rows[1][column] == "dew_point_c sunrise sunset")
        #expect(rows[2][column] == "")
    }

    @Test func gpxHasOneDerivedElementPerValue() async throws {
        let (path, _) = try await ExportTestSupport.export(.gpx, try await Self.store())
        let derived = "*[local-name()='derived' and namespace-uri()='\(GPXWriter.namespace)']"
        #expect(try ExportTestSupport.xpath(path, "count(//*[local-name()='wpt'][1]//\(derived))") == "3")
        #expect(try ExportTestSupport.xpath(path, "string(//*[local-name()='wpt'][1]//\(derived)[3])") == "sunset")
        #expect(try ExportTestSupport.xpath(path, "count(//*[local-name()='wpt'][2]//\(derived))") == "0")
    }
}
