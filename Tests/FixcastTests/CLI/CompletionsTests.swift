import FixcastApp
import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport
@testable import fixcast

/// `fixcast completions bash|zsh|fish`, loaded into the real shells: what they complete is checked
/// against the option tables (`CommandName.acceptedOptions`, the parser's value types), not against
/// the reference the scripts are made from.
@Suite(.serialized, .scratch) struct CompletionsTests {
    static func tool(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Every spelling of an option (`-o` is also `--output`).
    static func spellings(_ option: OptionName) -> [String] {
        option.flag.hasPrefix("--") ? [option.flag] : [option.flag, "--" + option.rawValue]
    }

    /// What a command line offers after `fixcast CMD -`: its options, exactly, and help.
    static func optionWords(_ command: CommandName) -> Set<String> {
        Set(command.acceptedOptions.flatMap(spellings) + ["-h", "--help"])
    }

    static let commandWords = CommandName.allCases.map { $0.helpName.split(separator: " ")[0] }.map(String.init)

    struct Scratch {
        let dir: URL
        init() throws {
            dir = TestPaths.temporaryDirectory("completions")
            for shell in CompletionShell.allCases {
                let home = dir.appendingPathComponent("home-\(shell.rawValue)")
                let result = try CLIRunner.run(["completions", shell.rawValue], home: home)
                guard result.status == 0, result.stderr.isEmpty else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: result.stderr])
                }
                try result.stdout.write(to: script(shell), atomically: true, encoding: .utf8)
            }
        }
        func script(_ shell: CompletionShell) -> URL { dir.appendingPathComponent("fixcast.\(shell.rawValue)") }
        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    /// A script is printed whatever the config says: a broken environment or config file must not
    /// leave `source <(fixcast completions bash)` in a start-up file completing nothing (it was exit 2).
    @Test func aBrokenConfigDoesNotStopTheScript() throws {
        let home = TestPaths.temporaryDirectory("completions-config")
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("broken.toml")
        try "[gps]\nport = \"x\"\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try CLIRunner.run(
            ["completions", "bash"], env: ["FIXCAST_GPS_PORT": "x", "FIXCAST_CONFIG": config.path], home: home)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("complete -F _fixcast fixcast"))
    }

    @Test func aShellIsRequiredAndOneOfTheThree() throws {
        let home = TestPaths.temporaryDirectory("completions-usage")
        defer { try? FileManager.default.removeItem(at: home) }
        for argv in [
            ["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"],
            ["completions", "bash", "--json"], ["completions", "bash", "--units", "imperial"],
        ] {
            let result = try CLIRunner.run(argv, home: home)
            #expect(result.status == 2, "\(argv)")
            #expect(
                result.stderr.hasPrefix("fixcast completions") && result.stdout.isEmpty, "\(argv): \(result.stderr)")
        }
    }

    /// bash: `complete -p` after sourcing, then `_fixcast` on COMP_WORDS as bash fills them.
    @Test(.enabled(if: tool("/bin/bash"))) func bashCompletesCommandsOptionsAndValues() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let files = scratch.dir.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for name in ["drive-a.gpx", "drive-b.csv", "other.txt"] {
            #expect(FileManager.default.createFile(atPath: files.appendingPathComponent(name).path, contents: Data()))
        }
        let drive = try await DriveStore.build()
        // temporaryStorePath: <temporary folder>/nested/dir/fixcast.sqlite
        let storeFolder = URL(fileURLWithPath: drive.path).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: storeFolder) }
        // A second trip: the first hundred fixes again, two days later.
        let store = try SQLiteStore(path: drive.path)
        try await store.appendTrackPoints(
            drive.fixes.prefix(100).map { fix in
                var later = fix
                later.time = fix.time.map { $0.addingTimeInterval(2 * 86_400) }
                later.receivedAt = fix.receivedAt.addingTimeInterval(2 * 86_400)
                return later
            })
        let trips = try await store.tripSummaries(gapMinutes: 30).map { String($0.number) }
        #expect(trips.count >= 2)

        var cases: [([String], Set<String>)] = [
            (["fixcast", ""], Set(Self.commandWords + ["help"])),
            (["fixcast", "ex"], ["export"]),
            (["fixcast", "-"], Set(OptionName.common.flatMap(Self.spellings) + ["-h", "--help", "-V", "--version"])),
            (["fixcast", "export", "--format", ""], Set(ExportFormat.allCases.map(\.rawValue))),
            (
                ["fixcast", "export", "--format", "=", "g"],
                Set(ExportFormat.allCases.map(\.rawValue).filter { $0.hasPrefix("g") })
            ),
            (["fixcast", "--db", "x.sqlite", "now", "--units", ""], Set(UnitSystem.allCases.map(\.rawValue))),
            (["fixcast", "forecast", "--lang", ""], Set(Language.allCases.map(\.rawValue))),
            (["fixcast", "completions", ""], Set(CompletionShell.allCases.map(\.rawValue))),
            (["fixcast", "completions", "bash", ""], []),
            (["fixcast", "mqtt", ""], ["test"]),
            (["fixcast", "help", "rep"], ["report"]),
            (["fixcast", "now", "--place", ""], []),
            (
                ["fixcast", "export", "-o", files.path + "/drive"],
                [files.path + "/drive-a.gpx", files.path + "/drive-b.csv"]
            ),
            (["fixcast", "--config", files.path + "/oth"], [files.path + "/other.txt"]),
            (["fixcast", "report", "--db", drive.path, "--trip", ""], Set(["last"] + trips)),
            // --db=PATH, as bash splits it: the trips of that store, not of one named "=".
            (["fixcast", "report", "--db", "=", drive.path, "--trip", ""], Set(["last"] + trips)),
        ]
        for command in CommandName.allCases {
            cases.append((["fixcast", command.rawValue, "-"], Self.optionWords(command)))
        }
        var driver = """
            source '\(scratch.script(.bash).path)'
            complete -p fixcast
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _fixcast; echo "${COMPREPLY[*]}"; }

            """
        for (words, _) in cases {
            driver += "t " + words.map { "'\($0)'" }.joined(separator: " ") + "\n"
        }
        let result = try ShellRun.run("/bin/bash", ["--norc", "--noprofile", "-c", driver])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "complete -F _fixcast fixcast")
        for (index, (words, expected)) in cases.enumerated() {
            let line = lines.count > index + 1 ? lines[index + 1] : "<missing>"
            let got = Set(line.split(separator: " ").map(String.init))
            #expect(got == expected, "\(words.joined(separator: " ")) -> \(line)")
        }
    }

    /// zsh: the script loads both ways people use it (autoloaded from fpath as the package installs
    /// it, and sourced) and registers itself for fixcast, without a word on stderr.
    @Test(.enabled(if: tool("/usr/bin/zsh"), "zsh is not installed")) func zshLoadsTheCompletion() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fpath = scratch.dir.appendingPathComponent("fpath")
        try FileManager.default.createDirectory(at: fpath, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: scratch.script(.zsh), to: fpath.appendingPathComponent("_fixcast"))
        let dump = scratch.dir.appendingPathComponent("zcompdump").path
        let syntax = try ShellRun.run("/usr/bin/zsh", ["-n", scratch.script(.zsh).path])
        #expect(syntax.status == 0 && syntax.stderr.isEmpty, "\(syntax.stderr)")
        let autoloaded = try ShellRun.run(
            "/usr/bin/zsh",
            [
                "-fc",
                "fpath=('\(fpath.path)' $fpath); autoload -U compinit; compinit -d '\(dump)'; print -r -- $_comps[fixcast]; autoload +X _fixcast && whence -w _fixcast",
            ])
        #expect(autoloaded.status == 0 && autoloaded.stderr.isEmpty, "\(autoloaded.stderr)")
        #expect(autoloaded.stdout == "_fixcast\n_fixcast: function\n")
        let sourced = try ShellRun.run(
            "/usr/bin/zsh",
            [
                "-fc",
                "autoload -U compinit; compinit -d '\(dump)'; source '\(scratch.script(.zsh).path)'; print -r -- $_comps[fixcast]; whence -w _fixcast_trips",
            ])
        #expect(sourced.status == 0 && sourced.stderr.isEmpty, "\(sourced.stderr)")
        #expect(sourced.stdout == "_fixcast\n_fixcast_trips: function\n")
        // Each command's block offers exactly the options it accepts.
        let script = try String(contentsOf: scratch.script(.zsh), encoding: .utf8)
        for command in CommandName.allCases {
            let block = Self.zshBlock(script, command: command.rawValue)
            for option in OptionName.allCases {
                let offered = Self.spellings(option).contains {
                    block.contains("'\($0)[") || block.contains("'\($0)=[") || block.contains("\($0),")
                        || block.contains("\($0)=}") || block.contains(",\($0)}")
                }
                #expect(offered == command.acceptedOptions.contains(option), "zsh \(command) \(option.flag)")
            }
        }
    }

    static func zshBlock(_ script: String, command: String) -> String {
        guard let start = script.range(of: "\n        \(command))\n") else { return "" }
        let rest = script[start.upperBound...]
        let end = rest.range(of: "\n          ;;")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// fish: `complete -C` on command lines, as fish itself completes them.
    @Test(.enabled(if: tool("/usr/bin/fish"), "fish is not installed")) func fishCompletesCommandsOptionsAndValues()
        throws
    {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var cases: [(String, Set<String>)] = [
            ("fixcast ex", ["export"]),
            ("fixcast ", Set(Self.commandWords + ["help"])),
            ("fixcast export --format ", Set(ExportFormat.allCases.map(\.rawValue))),
            ("fixcast now --units ", Set(UnitSystem.allCases.map(\.rawValue))),
            ("fixcast --db x.sqlite alerts --lang ", Set(Language.allCases.map(\.rawValue))),
            ("fixcast completions ", Set(CompletionShell.allCases.map(\.rawValue))),
            ("fixcast mqtt ", ["test"]),
            ("fixcast report --trip ", ["last"]),
            ("fixcast now --place ", []),
        ]
        for command in CommandName.allCases {
            cases.append(("fixcast \(command.rawValue) -", Self.optionWords(command)))
        }
        var driver = "source '\(scratch.script(.fish).path)'\n"
        for (line, _) in cases {
            driver += "complete -C '\(line)'; echo '@@'\n"
        }
        let result = try ShellRun.run("/usr/bin/fish", ["--no-config", "-c", driver])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let answers = result.stdout.components(separatedBy: "@@\n")
        for (index, (line, expected)) in cases.enumerated() {
            let answer = answers.count > index ? answers[index] : ""
            let words = Set(answer.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
            #expect(words == expected, "\(line) -> \(words.sorted())")
        }
        // A path after -o comes from the file system.
        let files = try ShellRun.run(
            "/usr/bin/fish",
            [
                "--no-config", "-c",
                "source '\(scratch.script(.fish).path)'; complete -C 'fixcast export -o \(scratch.dir.path)/fixcast.b'",
            ])
        #expect(files.stdout.split(separator: "\n").map(String.init) == [scratch.script(.bash).path])
    }
}
