import FixcastCore
import Foundation
import Testing

@testable import FixcastTestSupport
@testable import fixcast

/// Each command takes only its own options: anything else is exit 2 naming the option, and
/// `--help` lists exactly what the command accepts.
@Suite(.scratch) struct CommandOptionsTests {
    @Test(arguments: [
        (["search", "berlin", "--at", "1,2"], "--at"),
        (["status", "--force"], "--force"),
        (["export", "--format", "csv", "--json"], "--json"),
        (["trips", "--place", "Berlin"], "--place"),
        (["report", "--days", "3"], "--days"),
        (["run", "--force"], "--force"),
        (["now", "--limit", "3"], "--limit"),
        (["alerts", "--trip", "last"], "--trip"),
        (["forecast", "-o", "x.csv"], "-o"),
    ])
    func anOptionThatMeansNothingForTheCommandIsRefusedByName(argv: [String], option: String) {
        #expect {
            _ = try Arguments.parse(argv)
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.message.contains(option) && usage.message.contains("fixcast \(argv[0])")
                && usage.message.contains("means nothing")
        }
    }

    /// Every command but `completions`, which reads no config, store or service: there they mean
    /// nothing and are refused (`fixcast completions bash --units imperial` was exit 0).
    @Test func everyCommandTakesTheCommonOptions() throws {
        #expect(throws: UsageError.self) { try Arguments.parse(["completions", "bash", "--units", "imperial"]) }
        #expect(throws: UsageError.self) { try Arguments.parse(["completions", "bash", "--db", "/tmp/x.sqlite"]) }
        for command in CommandName.allCases where command != .completions {
            var argv = [
                command.rawValue, "--db", "/tmp/x.sqlite", "--units", "imperial", "--lang", "ru", "--config", "/c",
            ]
            switch command {
            case .search: argv.append("berlin")
            case .export: argv += ["--format", "csv"]
            case .mqtt: argv.append("test")
            default: break
            }
            let a = try Arguments.parse(argv)
            #expect(a.command == command)
            #expect(a.dbPath == "/tmp/x.sqlite")
        }
    }

    /// `--hours` takes what `ahead.hours` takes: a number of hours from 1 to 12, 1.5 too (it refused
    /// anything but a whole number).
    @Test func hoursTakesWhatTheConfigKeyTakes() throws {
        #expect(try Arguments.parse(["ahead", "--hours", "1.5"]).hours == 1.5)
        #expect(try Arguments.parse(["ahead", "--hours=12"]).hours == 12)
        for bad in ["0.5", "13", "nan", "inf", "two", ""] {
            #expect(throws: UsageError.self, "\(bad)") { try Arguments.parse(["ahead", "--hours", bad]) }
        }
    }

    @Test func typedOptionsCarryTheirValues() throws {
        let forecast = try ForecastOptions(
            Arguments.parse(["forecast", "--days", "3", "--at", "52.5,13.4", "--force"]))
        let berlin = try #require(Coordinate(lat: 52.5, lon: 13.4))
        #expect(forecast.days == 3 && forecast.force && forecast.position == .at(berlin))
        #expect(try ForecastOptions(Arguments.parse(["forecast"])).days == ForecastOptions.defaultDays)
        let search = try SearchOptions(Arguments.parse(["search", "new", "york", "--limit", "4", "--offline"]))
        #expect(search.query == "new york" && search.limit == 4 && search.offline)
        let now = try NowOptions(Arguments.parse(["now", "--place", "Oslo", "--json"]))
        #expect(now.position == .place("Oslo") && now.json && !now.force)
        #expect(try RunOptions(Arguments.parse(["run"])).position == .gpsd)
        let export = try ExportOptions(Arguments.parse(["export", "--format", "gpx", "-o", "-"]))
        #expect(export.format == .gpx && export.output == "-")
    }

    /// A search for only newlines is a usage error, as one for only spaces is.
    @Test(arguments: ["\n", " \n\r\n", "\t"])
    func aSearchForNothingIsAUsageError(query: String) {
        #expect(throws: UsageError.self) { try SearchOptions(Arguments.parse(["search", query])) }
    }

    @Test func helpListsExactlyTheAcceptedSharedOptions() {
        for command in CommandName.allCases {
            let help = HelpText.forCommand(command)
            for option in OptionName.allCases where option.sharedHelp != nil {
                let listed = help.contains("\n  \(option.flag) ")
                #expect(listed == command.acceptedOptions.contains(option), "\(command) \(option.flag)")
            }
        }
    }

    /// The whole `--help` text of each command, as a person sees it, against a checked-in copy: a
    /// change to what a command says about itself is a change on purpose (update the copy with
    /// `FIXCAST_UPDATE_GOLDEN=1 swift test --filter CommandOptionsTests`).
    @Test(arguments: ["main"] + CommandName.allCases.map(\.rawValue))
    func helpMatchesTheGoldenCopy(name: String) throws {
        let argv = name == "main" ? ["--help"] : [name, "--help"]
        let result = try CLIRunner.run(argv, home: TestPaths.temporaryDirectory("help"))
        #expect(result.status == 0)
        let golden = TestPaths.fixture("help/\(name).txt")
        if ProcessInfo.processInfo.environment["FIXCAST_UPDATE_GOLDEN"] != nil {
            try result.stdout.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(result.stdout == expected)
    }
}
