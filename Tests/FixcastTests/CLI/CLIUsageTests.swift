import Foundation
import Testing

@testable import FixcastTestSupport

/// The binary as a user meets it: help, version, usage errors (exit 2 naming the option).
@Suite(.scratch) struct CLIUsageTests {
    let home = TestPaths.temporaryDirectory("cli-usage")

    @Test(
        arguments: [
            (["now", "--gpsd", "nonsense:port"], "--gpsd"),
            (["now", "--at", "91,0"], "--at"),
            (["now", "--at", "abc"], "--at"),
            (["bogus"], "bogus"),
            (["export", "--format", "gpx", "--since", "last tuesday"], "--since"),
        ] as [([String], String)])
    func usageErrorsExit2NamingTheOption(_ args: [String], _ option: String) throws {
        let r = try CLIRunner.run(args, home: home, timeout: 20)
        #expect(r.status == 2)
        #expect(r.stderr.contains(option))
        // Every bad option is named alike, after "fixcast:" (an option is not a config key).
        #expect(r.stderr.hasPrefix("fixcast: "), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "one sentence, got: \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test(
        "a mistyped command, option, section or key is answered with the word it most likely meant",
        arguments: [
            (["nwo"], [], "fixcast: no command named \"nwo\" (did you mean \"now\"?); the commands are run, now,"),
            (["help", "exprt"], [], "(did you mean \"export\"?)"),
            (["now", "--jsn"], [], "fixcast: unknown option --jsn (did you mean --json?); see fixcast --help."),
            (["now", "--zzz"], [], "fixcast: unknown option --zzz; see fixcast --help."),
            (["now"], ["[wether]"], "unknown section [wether] (did you mean [weather]?); the sections are"),
            (
                ["now"], ["[weather]", "providr = \"metno\""],
                "unknown key \"providr\" in [weather] (did you mean \"provider\"?);"
            ),
        ] as [([String], [String], String)])
    func aSlipIsAnsweredWithTheWordMeant(_ args: [String], _ config: [String], _ sentence: String) throws {
        var arguments = args
        if !config.isEmpty {
            let path = home.appendingPathComponent("slip-\(UUID().uuidString).toml")
            try (config.joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)
            arguments += ["--config", path.path]
        }
        let r = try CLIRunner.run(arguments, home: home, timeout: 20)
        #expect(r.status == 2)
        #expect(r.stderr.contains(sentence), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "one sentence, got: \(r.stderr)")
    }

    @Test func helpForEveryCommand() throws {
        let main = try CLIRunner.run(["--help"], home: home)
        #expect(main.status == 0)
        for command in ["run", "now", "forecast", "search", "export", "status"] {
            #expect(main.stdout.contains("  \(command) "), "main help lists \(command)")
            let r = try CLIRunner.run([command, "--help"], home: home)
            #expect(r.status == 0)
            #expect(r.stdout.contains("USAGE: fixcast \(command)"))
        }
    }

    @Test func versionCreditsTheData() throws {
        let r = try CLIRunner.run(["--version"], home: home)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("fixcast "))
        #expect(r.stdout.contains("GeoNames"))
        #expect(r.stdout.contains("OpenStreetMap"))
        // Issue 21: the European and Canadian alert sources and the area data, as their terms ask.
        for credit in [
            "MeteoAlarm (EUMETNET)", "Environment and Climate Change Canada", "Meteoalarm / EUMETNET (CC0 1.0)",
            "Deutscher Wetterdienst (CC BY 4.0)", "Natural Earth",
        ] {
            #expect(r.stdout.contains(credit), "\(credit)")
        }
    }

    @Test func noGpsdAndNothingStoredExits1NamingGpsd() throws {
        let port = freeLoopbackPort()
        let r = try CLIRunner.run(["now", "--gpsd", "127.0.0.1:\(port)", "--offline"], home: home, timeout: 60)
        #expect(r.status == 1)
        #expect(r.stderr.contains("gpsd"))
        #expect(r.stderr.contains("127.0.0.1:\(port)"))
        #expect(r.stderr.contains("--at"))
    }

    @Test func badConfigFileExits2NamingFileLineAndKey() throws {
        let config = home.appendingPathComponent("bad.toml")
        try "[gps]\nport = 2947\n\n[trigger]\nmove_kilometres = 5\n".write(
            to: config, atomically: true, encoding: .utf8)
        let r = try CLIRunner.run(["now", "--at", "1,2", "--config", config.path, "--offline"], home: home)
        #expect(r.status == 2)
        #expect(r.stderr.contains(config.path))
        #expect(r.stderr.contains("5"))  // line 5
        #expect(r.stderr.contains("move_kilometres"))
    }
}
