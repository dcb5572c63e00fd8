import Foundation
import Testing

@testable import FixcastCore

@Suite struct WMOCodeTests {
    static let expected = [
        0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99,
    ]

    @Test func tableHasEveryOpenMeteoCode() {
        #expect(WMOCode.all == Self.expected)
    }

    /// Every code listed in Open-Meteo's published table (the recorded docs page) is described.
    @Test func coversThePublishedTable() throws {
        let text = try String(
            contentsOf: CoreFixtures.api.appendingPathComponent("open-meteo-wmo-codes.txt"), encoding: .utf8)
        var codes: [Int] = []
        for line in text.split(separator: "\n") where line.first?.isNumber == true {
            codes += line.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "*" }).compactMap { Int($0) }
        }
        #expect(codes.sorted() == Self.expected)
        for code in codes {
            for language in Language.allCases { #expect(WMOCode.description(code, language: language) != nil) }
        }
    }

    @Test(arguments: Language.allCases) func descriptionsDifferPerCodeAndLanguage(language: Language) {
        let texts = Self.expected.compactMap { WMOCode.description($0, language: language) }
        #expect(Set(texts).count == Self.expected.count)
    }

    @Test func languagesAreActuallyTranslated() {
        #expect(WMOCode.description(3, language: .en) == "Overcast")
        #expect(WMOCode.description(3, language: .ru) == "Пасмурно")
        #expect(WMOCode.description(3, language: .zh) == "阴")
        #expect(WMOCode.description(63, language: .ru) != WMOCode.description(63, language: .en))
    }

    @Test(arguments: [-1, 4, 50, 100, 1000]) func unknownCodeIsNil(code: Int) {
        #expect(WMOCode.description(code, language: .en) == nil)
    }

    @Test func severityRisesThroughTheTable() {
        let ranks = Self.expected.map(WMOCode.severity)
        #expect(ranks == ranks.sorted())
        #expect(Set(ranks).count == ranks.count)
        #expect(WMOCode.severity(45) > WMOCode.severity(3))
        #expect(WMOCode.severity(51) > WMOCode.severity(48))
    }
}
