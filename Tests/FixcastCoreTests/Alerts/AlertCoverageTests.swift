import Testing

@testable import FixcastCore

/// The offline choice of a source by country (CONTRACT.md `alerts.source`).
struct AlertCoverageTests {
    @Test(arguments: [
        ("US", AlertSourceID.nws), ("PR", .nws), ("NO", .metalerts), ("SJ", .metalerts), ("CA", .eccc),
        ("FR", .meteoalarm), ("de", .meteoalarm), ("GB", .meteoalarm), ("BA", .meteoalarm),
    ])
    func autoPicksTheCountrysSource(_ country: String, _ source: AlertSourceID) {
        #expect(AlertCoverage.source(countryCode: country, setting: .auto) == source)
    }

    @Test func theUnitedStatesTerritoriesAreNWSs() {
        for code in ["US", "PR", "GU", "VI", "AS", "MP", "UM", "us"] {
            #expect(AlertCoverage.source(countryCode: code, setting: .auto) == .nws)
        }
    }

    @Test func autoCoversNothingElsewhere() {
        #expect(AlertCoverage.source(countryCode: "JP", setting: .auto) == nil)
        #expect(AlertCoverage.source(countryCode: "RU", setting: .auto) == nil)
        #expect(AlertCoverage.source(countryCode: "MX", setting: .auto) == nil)
        #expect(AlertCoverage.source(countryCode: nil, setting: .auto) == nil)
    }

    /// Why nothing covers: the country named, no country to tell, or the lookup off.
    @Test func theCauseOfNotCovered() {
        #expect(AlertCoverage.cause(countryCode: "jp", setting: .auto) == .country("JP"))
        #expect(AlertCoverage.cause(countryCode: nil, setting: .auto) == .countryUnknown)
        #expect(AlertCoverage.cause(countryCode: nil, setting: .meteoalarm) == .countryUnknown)
        #expect(AlertCoverage.cause(countryCode: "JP", setting: .meteoalarm) == .country("JP"))
        #expect(AlertCoverage.cause(countryCode: "US", setting: .none) == .sourceOff)
        #expect(AlertCoverage.cause(countryCode: nil, setting: .none) == .sourceOff)
    }

    @Test func meteoAlarmExplicitlyCoversItsMembersOnly() {
        #expect(AlertCoverage.source(countryCode: "NO", setting: .meteoalarm) == .meteoalarm)
        #expect(AlertCoverage.source(countryCode: "IT", setting: .meteoalarm) == .meteoalarm)
        #expect(AlertCoverage.source(countryCode: "US", setting: .meteoalarm) == nil)
        #expect(AlertCoverage.source(countryCode: nil, setting: .meteoalarm) == nil)
        #expect(AlertCoverage.needsCountry(.meteoalarm) && AlertCoverage.needsCountry(.auto))
        #expect(!AlertCoverage.needsCountry(.eccc))
    }

    @Test func forcedSourcesNeedNoCountry() {
        #expect(AlertCoverage.source(countryCode: nil, setting: .eccc) == .eccc)
        #expect(AlertCoverage.source(countryCode: "FR", setting: .nws) == .nws)
        #expect(AlertCoverage.source(countryCode: "US", setting: .none) == nil)
    }
}
