import Foundation
import Testing

@testable import FixcastTables

/// places.tsv's reader: what it keeps of each line, and the line it names when the text is not the
/// version-1 format.
struct PlaceTableTextTests {
    static let small = """
        fixcast-places\t1
        #countries\t2
        DE\tGermany
        US\tUnited States
        #regions\t1
        North Rhine-Westphalia
        #places\t3
        @DE\t0
        509333\t69500\tKöln\t1024621\tKoeln
        @US\t
        407143\t-740060\tNew York City\t8804190
        399000\t-750000\tNowhere Special

        """

    @Test func readsCountriesRegionsAndRows() throws {
        let parsed = try PlaceTableText.parse(Array(Self.small.utf8))
        #expect(parsed.countries.map(\.code) == ["DE", "US"])
        #expect(parsed.regions == ["North Rhine-Westphalia"])
        #expect(parsed.rows.count == 3)
        let koeln = try #require(parsed.rows.first)
        #expect(koeln.latE4 == 509_333 && koeln.lonE4 == 69_500)
        #expect(String(decoding: koeln.name, as: UTF8.self) == "Köln")
        #expect(String(decoding: koeln.alt, as: UTF8.self) == "Koeln")
        #expect(koeln.population == 1_024_621 && koeln.region == 0 && koeln.country == 0)
        let nowhere = parsed.rows[2]
        #expect(nowhere.population == -1 && nowhere.region == -1 && nowhere.country == 1)
    }

    @Test func namesTheLineItStoppedAt() {
        let cases: [(String, Int)] = [
            ("fixcast-places\t2\n", 1),
            (Self.small.replacingOccurrences(of: "509333\t69500", with: "999999\t69500"), 9),
            (Self.small.replacingOccurrences(of: "@US\t", with: "@XX\t"), 10),
            (Self.small.replacingOccurrences(of: "#places\t3", with: "#places\t4"), 13),
        ]
        for (text, line) in cases {
            #expect(throws: TableFormatError.self) { try PlaceTableText.parse(Array(text.utf8)) }
            do {
                _ = try PlaceTableText.parse(Array(text.utf8))
            } catch {
                #expect(error.line == line, "\(error.reason)")
            }
        }
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz places-tsv`, bench/README.md): a count of
    // 999999999999 regions appended empty names past the end of the text until memory ran out.
    @Test func moreRegionsAnnouncedThanTheTextHasIsAnError() {
        let text = "fixcast-places\t1\n#countries\t1\nDE\tGermany\n#regions\t2000000\nBerlin\n"
        do {
            _ = try PlaceTableText.parse(Array(text.utf8))
            Issue.record("a table with 1 of 2,000,000 regions was read")
        } catch {
            #expect(error.line == 6 && error.reason.contains("2000000 regions but has 1"), "\(error)")
        }
    }

    @Test func anEncodedTableReadsBack() throws {
        let parsed = try PlaceTableText.parse(Array(Self.small.utf8))
        let bytes = PlaceTableImage.encode(countries: parsed.countries, regions: parsed.regions, rows: parsed.rows)
        let image = try PlaceTableImage(storage: InMemoryTableStorage(copying: bytes))
        #expect(image.count == 3 && image.countries == parsed.countries && image.regions == parsed.regions)
        #expect(image.nearest(lat: 40.7, lon: -74)?.row == 1)
        #expect(image.population(2) == -1 && image.regionIndex(0) == 0 && image.countryIndex(1) == 1)
    }
}
