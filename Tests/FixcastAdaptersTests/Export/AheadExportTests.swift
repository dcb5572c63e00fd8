import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The ahead forecast's headline in all three exports, read back by real parsers (Python's csv and
/// json, xmllint), from a real store.
@Suite(.scratch) struct AheadExportTests {
    /// Readings with a forecast (rain ahead, at a place that would be a formula), one without rain
    /// ahead and one without a forecast.
    static func store() async throws -> SQLiteStore {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("ahead-export"))
        var rainy = StoreTestData.aheadForecast(at: 0)
        rainy.rain?.place = "=HYPERLINK(\"x\")"
        var dry = StoreTestData.aheadForecast(at: 600, rainMmH: 0)
        dry.rain = nil
        dry.stale = true
        try await store.insertReading(StoreTestData.reading(at: 0, ahead: rainy))
        try await store.insertReading(StoreTestData.reading(at: 600, ahead: dry))
        try await store.insertReading(StoreTestData.reading(at: 1200, ahead: nil))
        return store
    }

    func python(_ script: String, _ path: String) throws -> String {
        let (status, out, err) = try ExportTestSupport.run("/usr/bin/python3", ["-c", script, path])
        #expect(status == 0, "\(err)")
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func csvHasTheHeadlineColumnsWithThePlaceGuarded() async throws {
        let (path, _) = try await ExportTestSupport.export(.csv, try await Self.store())
        let out = try python(
            """
            import csv, json, sys
            rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
            keys = ['ahead_made_at', 'ahead_basis', 'ahead_stale', 'ahead_rain_in_min', 'ahead_rain_at_km',
                    'ahead_rain_place', 'ahead_rain_mm_h', 'ahead_min_temperature_c', 'ahead_max_gust_mps']
            print(json.dumps([[r[k] for k in keys] for r in rows]))
            """, path)
        let rows = try JSONDecoder().decode([[String]].self, from: Data(out.utf8))
        #expect(
            rows == [
                ["2027-01-15T08:00:00Z", "route", "false", "45", "54", "'=HYPERLINK(\"x\")", "1.2", "1", "14"],
                ["2027-01-15T08:10:00Z", "route", "true", "", "", "", "", "1", "14"],
                ["", "", "", "", "", "", "", "", ""],
            ])
    }

    @Test func gpxCarriesTheHeadlineInItsExtensions() async throws {
        let (path, _) = try await ExportTestSupport.export(.gpx, try await Self.store())
        func xpath(_ e: String) throws -> String {
            try ExportTestSupport.xpath(path, "string(" + e + ")")
        }
        let first = "//*[local-name()='wpt'][1]//*[local-name()='ahead']"
        #expect(try xpath(first + "/@basis") == "route")
        #expect(try xpath(first + "/@made_at") == "2027-01-15T08:00:00Z")
        #expect(try xpath(first + "/*[local-name()='rain']/@in_min") == "45")
        #expect(try xpath(first + "/*[local-name()='rain']") == "=HYPERLINK(\"x\")")
        #expect(try xpath(first + "/*[local-name()='min_temperature_c']") == "1")
        #expect(try xpath(first + "/*[local-name()='max_gust_mps']") == "14")
        let second = "//*[local-name()='wpt'][2]//*[local-name()='ahead']"
        #expect(try xpath(second + "/@stale") == "true")
        #expect(try xpath("count(" + second + "/*[local-name()='rain'])") == "0")
        #expect(try xpath("count(//*[local-name()='wpt'][3]//*[local-name()='ahead'])") == "0")
    }

    @Test func geoJSONPropertiesHoldTheHeadline() async throws {
        let (path, _) = try await ExportTestSupport.export(.geojson, try await Self.store())
        let out = try python(
            """
            import json, sys
            fs = [f for f in json.load(open(sys.argv[1]))['features'] if f['geometry']['type'] == 'Point']
            print(json.dumps([f['properties'].get('ahead_headline', 'missing') for f in fs]))
            assert not any('ahead' in f['properties'] for f in fs), 'no ahead of another shape than a reading has'
            """, path)
        let aheads = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [Any])
        #expect(aheads.count == 3)
        let first = try #require(aheads[0] as? [String: Any])
        #expect(first["basis"] as? String == "route" && first["stale"] as? Bool == false)
        let rain = try #require(first["rain"] as? [String: Any])
        #expect(rain["in_min"] as? Int == 45 && rain["mm_h"] as? Double == 1.2)
        #expect(first["min_temperature_c"] as? Double == 1 && first["max_gust_mps"] as? Double == 14)
        let second = try #require(aheads[1] as? [String: Any])
        #expect(second["rain"] is NSNull && second["stale"] as? Bool == true)
        #expect(aheads[2] is NSNull)
    }
}
