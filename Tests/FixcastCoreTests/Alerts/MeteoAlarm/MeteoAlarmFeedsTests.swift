import Testing

@testable import FixcastCore

struct MeteoAlarmFeedsTests {
    @Test func slugsAsMeteoAlarmSpellsThem() {
        #expect(MeteoAlarmFeeds.slug(countryCode: "DE") == "germany")
        #expect(MeteoAlarmFeeds.slug(countryCode: "gb") == "united-kingdom")
        #expect(MeteoAlarmFeeds.slug(countryCode: "BA") == "bosnia-herzegovina")
        #expect(MeteoAlarmFeeds.slug(countryCode: "MK") == "republic-of-north-macedonia")
        #expect(MeteoAlarmFeeds.slug(countryCode: "CZ") == "czechia")
        #expect(MeteoAlarmFeeds.slug(countryCode: "US") == nil)
        #expect(MeteoAlarmFeeds.slug(countryCode: "") == nil)
    }

    @Test func everyMemberCountryHasOneDistinctFeed() {
        #expect(MeteoAlarmFeeds.slugs.count == 39)
        #expect(Set(MeteoAlarmFeeds.slugs.values).count == MeteoAlarmFeeds.slugs.count)
        for (code, slug) in MeteoAlarmFeeds.slugs {
            #expect(code.count == 2 && code == code.uppercased())
            #expect(!slug.isEmpty && slug.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }, "\(slug)")
        }
    }

    /// Every country the bundled area table has geometry for has a feed (the UK has a feed but no
    /// geometry; Andorra, Switzerland and Ukraine have feeds without areas in the data).
    @Test func everyCountryOfTheAreaTableHasAFeed() throws {
        let table = try BundledAlertAreaTableTests.table()
        let countries = Set((0..<table.count).map { table.area(at: $0).country })
        #expect(countries.count == 35)
        for country in countries { #expect(MeteoAlarmFeeds.slug(countryCode: country) != nil, "\(country)") }
    }
}
