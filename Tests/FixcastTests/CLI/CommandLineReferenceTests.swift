import Foundation
import Testing

@testable import FixcastTestSupport
@testable import fixcast

/// The reference the man page and the completions are made from says what `--help` says and what
/// the option tables accept: if a command's help forgot an option it accepts (or listed one it
/// refuses), the man page and the completions would be wrong too, so that fails here.
@Suite struct CommandLineReferenceTests {
    @Test func everyCommandIsInTheReferenceWithExactlyTheOptionsItAccepts() {
        let reference = CommandLineReference.current
        #expect(reference.commands.map(\.name) == CommandName.allCases)
        for command in reference.commands {
            let listed = Set(command.options.compactMap(\.name))
            #expect(listed == Set(command.name.acceptedOptions), "\(command.name)")
            #expect(command.options.contains { $0.spellings == ["-h", "--help"] }, "\(command.name)")
            #expect(
                !command.summary.isEmpty && command.usage.hasPrefix("fixcast " + command.words.joined(separator: " ")))
            for option in command.options {
                #expect(!option.description.isEmpty, "\(command.name) \(option.spellings)")
            }
        }
        #expect(Set(reference.mainOptions.compactMap(\.name)) == Set(OptionName.common))
        #expect(reference.mainOptions.contains { $0.spellings == ["-V", "--version"] })
        #expect(reference.exitStatus.hasPrefix("0 done"))
    }

    /// Help shows a value's name exactly for the options the parser reads a value for.
    @Test func anOptionHasAValueInHelpExactlyWhenTheParserTakesOne() {
        let reference = CommandLineReference.current
        for option in reference.mainOptions + reference.commands.flatMap(\.options) {
            for spelling in option.spellings {
                #expect((option.argument == nil) == FlagArgument.names.contains(spelling), "\(spelling)")
            }
        }
    }

    @Test func optionValuesComeFromTheParsersTypes() {
        #expect(OptionName.format.values(for: .export) == .choices(["gpx", "csv", "geojson"]))
        #expect(OptionName.format.values(for: .report) == .free)
        #expect(OptionName.units.values(for: .now) == .choices(["metric", "imperial"]))
        #expect(OptionName.lang.values(for: nil) == .choices(["en", "ru", "zh"]))
        #expect(OptionName.trip.values(for: .report) == .trips)
        for file in [OptionName.config, .db, .output] { #expect(file.values(for: .export) == .file) }
        #expect(OptionName.json.values(for: .now) == OptionValues.none)
        #expect(OptionName.place.values(for: .now) == .free)
    }

    @Test(
        arguments: [
            ("  -o, --output FILE    Write to FILE.", ["-o", "--output"], "FILE", "Write to FILE."),
            ("  --at LAT,LON         Use this position.", ["--at"], "LAT,LON", "Use this position."),
            ("  --json               Print JSON instead of text.", ["--json"], nil, "Print JSON instead of text."),
            ("  --units metric|imperial", ["--units"], "metric|imperial", ""),
        ] as [(String, [String], String?, String)])
    func anOptionLineIsTakenApart(line: String, spellings: [String], argument: String?, description: String) {
        let entry = HelpPage.entry(line)
        #expect(entry.spellings == spellings)
        #expect(entry.argument == argument)
        #expect(entry.description == description)
    }

    @Test func continuationLinesJoinTheirOption() {
        let page = HelpPage(
            """
            USAGE: fixcast x [options]

            First line
            second line.

            OPTIONS:
              --units metric|imperial
                                   Units of the
                                   human display.
              -h, --help           Show help.
            """)
        #expect(page.usage == "fixcast x [options]")
        #expect(page.paragraphs == ["First line second line."])
        #expect(page.options.map(\.description) == ["Units of the human display.", "Show help."])
    }
}
