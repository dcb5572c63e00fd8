import FixcastCore
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport
@testable import fixcast

@Suite(.scratch) struct ArgumentsTests {
    @Test func commandAndOptionsInAnyOrder() throws {
        let a = try Arguments.parse([
            "--json", "now", "--at", "52.52,13.405", "--units=imperial", "--lang", "ru", "--force",
        ])
        #expect(a.command == .now)
        #expect(a.json && a.force)
        #expect(a.at == Coordinate(lat: 52.52, lon: 13.405))
        #expect(a.units == .imperial)
        #expect(a.lang == .ru)
    }

    @Test func negativeCoordinatesAreValues() throws {
        let a = try Arguments.parse(["now", "--at", "-33.87,151.21"])
        #expect(a.at?.lat == -33.87)
        // Written inline, a value that reads as an option is still the value.
        #expect(try Arguments.parse(["now", "--db=--offline"]).dbPath == "--offline")
    }

    @Test func searchJoinsTheQuery() throws {
        let a = try Arguments.parse(["search", "new", "york", "--limit", "3"])
        #expect(a.query == "new york")
        #expect(a.limit == 3)
    }

    @Test(
        arguments: [
            (["now", "--gpsd", "nonsense:port"], "--gpsd"),
            (["now", "--gpsd", "host:70000"], "--gpsd"),
            (["now", "--at", "91,0"], "--at"),
            (["now", "--at", "abc"], "--at"),
            (["now", "--at", "10,181"], "--at"),
            (["now", "--at"], "--at"),
            (["now", "--units", "kelvin"], "--units"),
            (["now", "--lang", "de"], "--lang"),
            (["forecast", "--days", "0"], "--days"),
            (["now", "--days", "3"], "--days"),
            (["export", "--format", "kml"], "--format"),
            (["export"], "--format"),
            (["export", "--format", "gpx", "--since", "yesterday"], "--since"),
            (["export", "--format", "gpx", "--until", "2026-02-30"], "--until"),
            (["search"], "search"),
            (["now", "--bogus"], "--bogus"),
            (["fly"], "fly"),
            (["now", "extra"], "extra"),
            (["now", "--at", "1,2", "--place", "Berlin"], "--place"),
            (["now", "--db", ""], "--db needs a file path"),
            (["now", "--config", ""], "--config needs a file path"),
            (["now", "--gpsd", "h:0"], "fixcast: --gpsd: \"h:0\" has no valid port"),
            // Only newlines is no name (it was looked up, and "no place named" exited 1).
            (["now", "--place", "\n\n"], "--place needs a place name"),
            (["now", "--place", " \r\n\t"], "--place needs a place name"),
            (["now", "--at", "\n"], "--at"),
            // An option where the value should be: it was taken as the value (a store called "--offline").
            (["now", "--db", "--offline", "--at", "1,1"], "--db needs a value before --offline"),
            (["now", "--config", "--db", "x"], "--config needs a value before --db"),
            (["export", "-o", "--since", "2026-01-01"], "-o needs a value before --since"),
            (["now", "--place", "--help"], "--place needs a value before --help"),
        ] as [([String], String)])
    func badInputNamesTheOption(_ argv: [String], _ named: String) {
        #expect {
            _ = try Arguments.parse(argv)
        } throws: { error in
            guard let e = error as? UsageError else { return false }
            return e.message.contains(named)
        }
    }

    @Test func gpsdOption() throws {
        #expect(try Arguments.parse(["now", "--gpsd", "127.0.0.1:2948"]).gpsd?.port == 2948)
        #expect(try Arguments.parse(["now", "--gpsd=gps.local"]).gpsd?.port == 2947)
    }

    @Test func helpAndVersion() throws {
        #expect(try Arguments.parse(["--help"]).help)
        #expect(try Arguments.parse(["now", "--help"]).command == .now)
        #expect(try Arguments.parse(["help", "export"]).command == .export)
        #expect(try Arguments.parse(["--version"]).version)
    }

    @Test func exportDates() throws {
        let a = try Arguments.parse([
            "export", "--format", "csv", "--since", "2026-01-30", "--until", "2026-01-31T12:00:00Z", "-o", "x.csv",
        ])
        #expect(a.since.map(UTCTime.format) == "2026-01-30T00:00:00Z")
        #expect(a.until.map(UTCTime.format) == "2026-01-31T12:00:00Z")
        #expect(a.output == "x.csv")
    }
}
