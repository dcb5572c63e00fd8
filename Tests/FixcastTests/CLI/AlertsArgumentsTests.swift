import FixcastCore
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport
@testable import fixcast

@Suite(.scratch) struct AlertsArgumentsTests {
    @Test func alertsTakesAPositionAndJSON() throws {
        let a = try Arguments.parse(["alerts", "--at", "33.25,-112.30", "--json"])
        #expect(a.command == .alerts)
        #expect(a.at == Coordinate(lat: 33.25, lon: -112.30))
        #expect(a.json)
        #expect(try Arguments.parse(["alerts", "--place", "Bergen"]).place == "Bergen")
    }

    @Test func alertsRefusesOtherCommandsOptions() {
        #expect(throws: UsageError.self) { try Arguments.parse(["alerts", "--days", "3"]) }
        #expect(throws: UsageError.self) { try Arguments.parse(["alerts", "extra"]) }
        #expect(throws: UsageError.self) { try Arguments.parse(["alerts", "--at", "1,2", "--place", "Oslo"]) }
    }

    @Test func helpNamesTheCommand() {
        #expect(HelpText.main.contains("  alerts "))
        #expect(HelpText.forCommand(.alerts).hasPrefix("USAGE: fixcast alerts"))
    }
}
