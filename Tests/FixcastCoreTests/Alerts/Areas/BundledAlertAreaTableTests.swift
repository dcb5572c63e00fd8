import Foundation
import Testing

@testable import FixcastCore

/// The bundled table itself (share/fixcast/alert-areas.bin, committed), against the raw GeoJSON it was
/// made from: Tests/FixcastTests/Fixtures/alert-areas/points.tsv holds 4,000 random points with the areas
/// a brute-force test on the unsimplified geometry puts them in (made by make-points.py beside it; points
/// within 150 m of a border, where simplification may legitimately differ, are left out).
struct BundledAlertAreaTableTests {
    static let repository: String = {
        var url = #filePath
        for _ in 0..<5 { url = String(url[..<(url.lastIndex(of: "/") ?? url.startIndex)]) }
        return url
    }()

    static func table() throws -> AlertAreaTable {
        let data = try Data(contentsOf: URL(fileURLWithPath: repository + "/share/fixcast/alert-areas.bin"))
        return try AlertAreaTable(storage: InMemoryPlaceTableStorage(copying: [UInt8](data)))
    }

    @Test func matchesABruteForceScanOfTheRawGeometry() throws {
        let table = try Self.table()
        #expect(table.count == 2232)
        let text = try String(
            contentsOfFile: Self.repository + "/Tests/FixcastTests/Fixtures/alert-areas/points.tsv", encoding: .utf8)
        var checked = 0
        var inSomeArea = 0
        var inSeveral = 0
        var mismatches: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3, let lat = Double(fields[0]), let lon = Double(fields[1]),
                let point = Coordinate(lat: lat, lon: lon)
            else {
                Issue.record("bad fixture line \(line)")
                continue
            }
            let expected = fields[2].split(separator: ",").map(String.init).sorted()
            let got = table.areas(containing: point).map { $0.geocode.scheme + ":" + $0.geocode.code }.sorted()
            if got != expected { mismatches.append("\(lat),\(lon): \(got) instead of \(expected)") }
            checked += 1
            if !expected.isEmpty { inSomeArea += 1 }
            if expected.count > 1 { inSeveral += 1 }
        }
        #expect(checked == 4000)
        // The fixture exercises both answers and overlaps, not only the sea.
        #expect(inSomeArea > 2500 && inSeveral > 100)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(checked): \(mismatches.prefix(10))")
    }

    @Test func aFrenchNUTSCodeNamesItsEMMAArea() throws {
        let table = try Self.table()
        let area = try #require(table.area(code: "FR718", scheme: "NUTS3"))
        #expect(area.geocode == AlertGeocode(scheme: "EMMA_ID", code: "FR035"))
        #expect(area.country == "FR")
        #expect(area.aliases.contains(AlertGeocode(scheme: "NUTS3", code: "FR718")))
        #expect(table.area(code: "FR718") == area)
        #expect(table.area(code: "FR035", scheme: "EMMA_ID") == area)
    }

    @Test func theSchemeTellsApartCodesThatCollide() throws {
        // DE112 is both an EMMA_ID and another area's NUTS3 code.
        let table = try Self.table()
        let emma = try #require(table.area(code: "DE112", scheme: "EMMA_ID"))
        let nuts = try #require(table.area(code: "DE112", scheme: "NUTS3"))
        #expect(emma != nuts)
        #expect(emma.code == "DE112" && nuts.aliases.contains(AlertGeocode(scheme: "NUTS3", code: "DE112")))
        #expect(table.area(code: "DE112") == emma)
    }

    @Test func irishFIPSAndGermanWarncellCodes() throws {
        let table = try Self.table()
        #expect(table.area(code: "EI07", scheme: "FIPS")?.country == "IE")
        let lakes = try #require(table.area(code: "201068000", scheme: "WARNCELLID"))
        #expect(lakes.country == "DE" && lakes.name == "Ostholsteinische Seen")
    }

    @Test func unknownGeocodesAreNil() throws {
        let table = try Self.table()
        #expect(table.area(code: "UK101") == nil)  // the UK's areas have no geometry in the data
        #expect(table.area(code: "FR035", scheme: "NUTS3") == nil)
        #expect(table.area(code: "XX999") == nil)
    }

    @Test func parisIsInTwoAreas() throws {
        let table = try Self.table()
        let point = try #require(Coordinate(lat: 48.8566, lon: 2.3522))
        let codes = table.areas(containing: point).map(\.code)
        #expect(codes.contains("FR067") && codes.contains("FR101"))
    }
}
