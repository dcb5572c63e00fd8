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

    /// Every code has its own rank; within a group intensity rises, and across groups the numbers do
    /// not decide: heavy rain outranks slight showers, heavy snow slight snow showers, heavy freezing
    /// rain slight snow (the numbers said the opposite each time).
    @Test func severityRanksEveryCodeByHowBadItIs() {
        let ranks = WMOCode.all.map(WMOCode.severity)
        #expect(Set(ranks).count == WMOCode.all.count)
        #expect(ranks.allSatisfy { $0 >= 0 }, "every code in the table is ranked")
        #expect(Set(WMOCode.severityOrder) == Set(WMOCode.all))
        for group in [
            [0, 1, 2, 3], [45, 48], [51, 53, 55], [61, 63, 65], [71, 73, 75], [80, 81, 82], [95, 96, 99],
        ] {
            let r = group.map(WMOCode.severity)
            #expect(r == r.sorted(), "\(group)")
        }
        #expect(WMOCode.severity(45) > WMOCode.severity(3))
        #expect(WMOCode.severity(51) > WMOCode.severity(48))
        #expect(WMOCode.severity(65) > WMOCode.severity(80))
        #expect(WMOCode.severity(75) > WMOCode.severity(85))
        #expect(WMOCode.severity(67) > WMOCode.severity(71))
        #expect(WMOCode.severity(95) > WMOCode.severity(86))
        #expect(WMOCode.severity(4) < WMOCode.severity(0), "outside the table: below all")
    }
}
