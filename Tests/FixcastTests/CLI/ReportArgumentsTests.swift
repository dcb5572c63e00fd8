import FixcastCore
import FixcastRendering
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport
@testable import fixcast

@Suite(.scratch) struct ReportArgumentsTests {
    @Test func tripAndOutputParse() throws {
        let a = try Arguments.parse(["report", "--trip", "3", "-o", "x.html", "--since", "2026-01-30"])
        #expect(a.command == .report)
        #expect(a.trip == .number(3))
        #expect(a.output == "x.html")
        #expect(a.since != nil)
        #expect(try Arguments.parse(["report", "--trip=last"]).trip == .last)
        #expect(try Arguments.parse(["trips", "--json"]).command == .trips)
        #expect(ReportFormat(path: "A.SVG") == .svg)
        #expect(ReportFormat(path: "a.htm") == .html)
        #expect(ReportFormat(path: "a.png") == nil)
    }

    @Test func badValuesAreUsageErrorsNamingTheOption() {
        for (argv, needle) in [
            (["report", "--trip", "0"], "--trip"),
            (["report", "--trip", "first"], "--trip"),
            (["report", "-o", "out.pdf"], "-o"),
            (["now", "--trip", "2"], "--trip"),
            (["trips", "-o", "x.svg"], "-o"),
            (["report", "--format", "gpx"], "--format"),
            (["report", "--since", "2026-02-01", "--until", "2026-01-01"], "--since"),
        ] {
            #expect(throws: UsageError.self) { try Arguments.parse(argv) }
            do {
                _ = try Arguments.parse(argv)
            } catch {
                #expect(error.message.contains(needle), "\(argv): \(error.message)")
            }
        }
    }

    @Test func helpNamesTheNewCommands() {
        #expect(HelpText.main.contains("trips"))
        #expect(HelpText.main.contains("report"))
        #expect(HelpText.forCommand(.report).contains("--trip N|last"))
        #expect(HelpText.forCommand(.trips).contains("trip_gap_min"))
    }

    @Test func tripsTableIsTerminalSafe() {
        let t = TripSummary(
            number: 1, start: Date(timeIntervalSince1970: 1_800_000_000),
            end: Date(timeIntervalSince1970: 1_800_003_600),
            distanceKm: 42.42, startPlace: "Evil\u{1B}[2JTown", endPlace: nil, readings: 2, minC: 3, maxC: 9)
        let lines = TripsCommand.table([t], units: .imperial)
        #expect(lines.count == 2)
        #expect(!lines.joined().unicodeScalars.contains { $0.value == 0x1B })
        #expect(lines[1].contains("26.4 mi"))
        #expect(lines[1].contains("37 … 48 °F"))
        #expect(lines[1].contains("1 h 00 min"))
    }

    /// A trip at one temperature reads as the report's header reads it: "17 °C", not "17 … 17 °C".
    @Test func tripsTableSaysAFlatRangeOnce() {
        func range(_ lo: Double?, _ hi: Double?) -> String {
            let t = TripSummary(
                number: 1, start: Date(timeIntervalSince1970: 1_800_000_000),
                end: Date(timeIntervalSince1970: 1_800_003_600),
                distanceKm: 1, startPlace: "A", endPlace: "B", readings: 2, minC: lo, maxC: hi)
            return TripsCommand.table([t], units: .metric)[1]
        }
        #expect(range(16.8, 16.8).contains(" 17 °C "), "\(range(16.8, 16.8))")
        #expect(!range(16.8, 16.8).contains("…"))
        #expect(range(16.4, 17.2).contains(" 16 … 17 °C "))
        #expect(range(nil, nil).contains(" — "))
    }

    @Test func tripsTableShowsAPlaceAsOneCappedLine() {
        let long = String(repeating: "Llan", count: 30)
        let t = TripSummary(
            number: 1, start: Date(timeIntervalSince1970: 1_800_000_000),
            end: Date(timeIntervalSince1970: 1_800_003_600),
            distanceKm: 1, startPlace: "Bad\nTown\u{202E}", endPlace: long, readings: 2, minC: 3, maxC: 9)
        let row = TripsCommand.table([t], units: .metric)[1]
        #expect(row.contains("Bad Town → "))
        #expect(!row.unicodeScalars.contains { TerminalText.isUnsafe($0) })
        // Cut to a cell's 24 columns: one long name no longer pads every row past 80 columns.
        #expect(row.contains("Bad Town → " + String(long.prefix(TextColumns.cellNameColumns - 1)) + "…"))
        #expect(!row.contains(long))
        let tokyo = TripsCommand.table(
            [
                TripSummary(
                    number: 1, start: Date(timeIntervalSince1970: 1_800_000_000),
                    end: Date(timeIntervalSince1970: 1_800_003_600), distanceKm: 1,
                    startPlace: String(repeating: "東京", count: 15), endPlace: "B", readings: 2, minC: 3, maxC: 9)
            ], units: .metric)[1]
        #expect(tokyo.contains(String(repeating: "東京", count: 5) + "東… → B"), "\(tokyo)")
    }

    /// `search`'s name, region and country are cut to a cell's columns alike.
    @Test func searchCellsAreCappedInColumns() throws {
        let match = PlaceMatch(
            name: "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch", region: "Wales",
            country: "United Kingdom", countryCode: "GB", coordinate: Coordinate(lat: 53.22, lon: -4.2)!,
            population: 3_107, source: .offline)
        let lines = SearchTable.render([match]).split(separator: "\n")
        #expect(lines[1].hasPrefix("Llanfairpwllgwyngyllgog…  Wales"), "\(lines)")
        #expect(lines.allSatisfy { TextColumns.width(String($0)) <= 80 }, "\(lines)")
        // The header and the no-match line speak --lang.
        #expect(SearchTable.render([match], language: .zh).hasPrefix("名称"))
        #expect(SearchTable.render([match], language: .ru).hasPrefix("НАЗВАНИЕ"))
        #expect(SearchTable.noMatch("zzzz", language: .ru) == "Ни одно место не подходит к «zzzz».")
        #expect(SearchTable.noMatch("zzzz") == "No place matches \"zzzz\".")
    }
}
