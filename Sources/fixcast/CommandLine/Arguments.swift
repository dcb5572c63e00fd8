import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastText
import FoundationEssentials

/// The commands of CONTRACT.md.
public enum CommandName: String, Sendable, CaseIterable {
    case run, now, forecast, search, export, status, alerts, ahead, trips, report, mqtt, line, completions

    /// The commands, for the messages that list them.
    static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// "no command named …", with the command it most likely meant.
    static func unknown(_ word: String) -> UsageError {
        let guess = NearestWord.to(word, among: allCases.map(\.rawValue)).map { " (did you mean \"\($0)\"?)" } ?? ""
        return UsageError("fixcast: no command named \"\(TerminalText.echo(word))\"\(guess); the commands are \(list).")
    }
}

/// A command line that does not make sense; exit 2 with the message (which names the option).
public struct UsageError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// What the command line said, before the config file and environment are merged in: the command,
/// and every option's value (nil: not given, so the config file or its default applies). Each
/// command then takes its own options from it (`CommandOptions`), and an option the command does not
/// accept is a usage error naming it.
public struct Arguments: Sendable, Equatable {
    public var command: CommandName?
    public var help = false
    public var version = false
    /// `--man-page`: print fixcast(1) in roff (for the package and docs/fixcast.1; not in --help).
    public var manPage = false
    /// The options given, in order (for the check that each means something to the command).
    var given: [OptionName] = []

    public var configPath: String?
    public var gpsd: GPSDAddress?
    public var at: Coordinate?
    public var place: String?
    public var dbPath: String?
    public var units: UnitSystem?
    public var lang: Language?
    public var json = false
    public var offline = false
    public var force = false

    // forecast
    public var days: Int?
    // search
    public var query: String?
    public var limit: Int?
    // export
    public var format: String?
    public var since: Date?
    public var until: Date?
    public var output: String?
    // report
    public var trip: TripChoice?
    // mqtt
    public var mqttAction: String?
    // completions
    public var completionShell: String?
    // line
    public var waybar = false
    public var i3blocks = false
    public var watch = false
    // run, ahead: the route to follow (`ahead.route` when not given)
    public var route: String?
    // ahead
    public var hours: Double?

    public init() {}
}

extension Arguments {
    /// Parses everything after the program name. Options may come before or after the command,
    /// as `--opt value` or `--opt=value`.
    public static func parse(_ argv: [String]) throws(UsageError) -> Arguments {
        var a = Arguments()
        var positionals: [String] = []
        var i = 0
        func value(_ name: String, _ inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            i += 1
            guard i < argv.count else { throw UsageError("fixcast: \(name) needs a value; see fixcast --help.") }
            // `--db --offline` made a store called "--offline" (and did not go offline): a word that
            // is one of fixcast's own options is that option, not this one's value. `--x=--db` still
            // passes such a value for whoever means it.
            if OptionName(flag: argv[i]) != nil || ["-h", "--help", "-V", "--version"].contains(argv[i]) {
                throw UsageError(
                    "fixcast: \(name) needs a value before \(argv[i]); see fixcast --help.")
            }
            return argv[i]
        }
        /// A path option's value, refused when empty: "" names no file, and would otherwise read as the
        /// option left out (the default store, the usual config files). `needs` ends the sentence.
        func path(_ name: String, _ inline: String?, needs: String) throws(UsageError) -> String {
            let v = try value(name, inline)
            guard !v.isEmpty else { throw UsageError("fixcast: \(name) needs \(needs)") }
            return v
        }
        var onlyPositionals = false
        while i < argv.count {
            let arg = argv[i]
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                i += 1
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                i += 1
                continue
            }
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if let inline, FlagArgument.names.contains(name) {
                throw UsageError(FlagArgument.valueGiven(name: name, value: inline))
            }
            if let option = OptionName(flag: name) { a.given.append(option) }
            switch name {
            case "-h", "--help": a.help = true
            case "-V", "--version": a.version = true
            case "--man-page": a.manPage = true
            case "--json": a.json = true
            case "--offline": a.offline = true
            case "--force": a.force = true
            case "--config":
                a.configPath = try path(
                    name, inline, needs: "a file path (omit it for the usual config files, or give /dev/null for none)."
                )
            case "--db":
                a.dbPath = try path(name, inline, needs: "a file path (omit it for the default store).")
            case "--gpsd":
                let v = try value(name, inline)
                do {
                    a.gpsd = try GPSDAddress(parsing: v, option: "--gpsd")
                } catch {
                    throw UsageError("fixcast: --gpsd: \(error.reason)")
                }
            case "--at":
                let v = try value(name, inline)
                guard let c = Coordinate(parsing: v) else {
                    throw UsageError(
                        "fixcast: --at: \"\(TerminalText.echo(v))\" is not LAT,LON in decimal degrees with latitude in [-90, 90] and longitude in [-180, 180] (for example --at 52.52,13.405)."
                    )
                }
                a.at = c
            case "--place":
                let v = try value(name, inline)
                guard !v.allSatisfy(\.isWhitespace) else {  // newlines too, not only spaces and tabs
                    throw UsageError("fixcast: --place needs a place name.")
                }
                a.place = v
            case "--units":
                let v = try value(name, inline)
                guard let u = UnitSystem(rawValue: v) else {
                    throw UsageError("fixcast: --units: \"\(TerminalText.echo(v))\" is not metric or imperial.")
                }
                a.units = u
            case "--lang":
                let v = try value(name, inline)
                guard let l = Language(rawValue: v) else {
                    throw UsageError("fixcast: --lang: \"\(TerminalText.echo(v))\" is not en, ru or zh.")
                }
                a.lang = l
            case "--days":
                let v = try value(name, inline)
                guard let d = Int(v), (1...16).contains(d) else {
                    throw UsageError(
                        "fixcast: --days: \"\(TerminalText.echo(v))\" is not a number of days from 1 to 16.")
                }
                a.days = d
            case "--limit":
                let v = try value(name, inline)
                guard let l = Int(v), (1...100).contains(l) else {
                    throw UsageError("fixcast: --limit: \"\(TerminalText.echo(v))\" is not a number from 1 to 100.")
                }
                a.limit = l
            case "--format":
                // export's formats are checked once the command is known (ExportOptions); for line it is a template.
                a.format = try value(name, inline)
            case "--waybar": a.waybar = true
            case "--i3blocks": a.i3blocks = true
            case "--watch": a.watch = true
            case "--route":
                let v = try path(name, inline, needs: "a GPX file's path, e.g. --route trip.gpx.")
                guard !v.contains("\0") else {
                    throw UsageError("fixcast: --route needs a GPX file's path, e.g. --route trip.gpx.")
                }
                a.route = v
            case "--hours":
                let v = try value(name, inline)
                // As ahead.hours takes it: 1.5 is an hour and a half.
                guard let h = Double(v), h.isFinite, (1...12).contains(h) else {
                    throw UsageError(
                        "fixcast: --hours: \"\(TerminalText.echo(v))\" is not a number of hours from 1 to 12 (such as 2 or 1.5)."
                    )
                }
                a.hours = h
            case "--since", "--until":
                let v = try value(name, inline)
                guard let d = ExportTimeRange.parse(v, isUpperBound: name == "--until") else {
                    throw UsageError(
                        "fixcast: \(name): \"\(TerminalText.echo(v))\" is not a date (YYYY-MM-DD) or an ISO 8601 time (2026-01-30T12:00:00Z)."
                    )
                }
                if name == "--since" { a.since = d } else { a.until = d }
            case "-o", "--output":
                let v = try value(name, inline)
                if let problem = OutputPath.problem(v) { throw UsageError(problem) }
                a.output = v
            case "--trip":
                let v = try value(name, inline)
                guard let choice = TripChoice(parsing: v) else {
                    throw UsageError(
                        "fixcast: --trip: \"\(TerminalText.echo(v))\" is not a trip number (1, 2, … as fixcast trips lists them) or last."
                    )
                }
                a.trip = choice
            default:
                let flags = OptionName.allCases.map(\.flag) + ["--output", "--help", "--version", "--man-page"]
                let guess = NearestWord.to(name, among: flags).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError("fixcast: unknown option \(TerminalText.echo(name))\(guess); see fixcast --help.")
            }
            i += 1
        }
        if let first = positionals.first {
            if first == "help" {
                a.help = true
                if positionals.count > 1 {
                    guard let c = CommandName(rawValue: positionals[1]) else {
                        throw CommandName.unknown(positionals[1])
                    }
                    a.command = c
                }
                return a
            }
            guard let c = CommandName(rawValue: first) else { throw CommandName.unknown(first) }
            a.command = c
            let rest = positionals.dropFirst()
            if c == .search {
                if !rest.isEmpty { a.query = rest.joined(separator: " ") }
            } else if c == .mqtt, let action = rest.first {
                guard action == "test", rest.count == 1 else {
                    throw UsageError(
                        "fixcast mqtt: unexpected argument \"\(rest.joined(separator: " "))\"; the only action is test (fixcast mqtt test)."
                    )
                }
                a.mqttAction = action
            } else if c == .completions, let shell = rest.first {
                guard rest.count == 1 else {
                    throw UsageError(
                        "fixcast completions: give one shell: bash, zsh or fish (not \"\(TerminalText.echo(rest.joined(separator: " ")))\")."
                    )
                }
                a.completionShell = shell
            } else if let extra = rest.first {
                throw UsageError(
                    "fixcast \(c.rawValue): unexpected argument \"\(TerminalText.echo(extra))\"; see fixcast \(c.rawValue) --help."
                )
            }
        }
        if a.help || a.version || a.manPage { return a }
        try a.validate()
        return a
    }

    /// Checks that every option given means something to the command (exit 2 naming the first that
    /// does not), then that the command's own options make sense together.
    func validate() throws(UsageError) {
        guard let command else { return }
        let accepted = command.acceptedOptions
        if let stray = given.first(where: { !accepted.contains($0) }) {
            throw UsageError(
                "fixcast \(command.rawValue): \(stray.flag) means nothing for this command; see fixcast \(command.rawValue) --help."
            )
        }
        _ = try command.options.init(self)
    }
}

extension String {
    func trimmingCharacters(in set: CharacterClass) -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }

    enum CharacterClass { case whitespaces }
}

/// Options that are switches (`--json`), not `--name VALUE`: `--json=false` must not quietly
/// mean "JSON on", and `--json=yes` is a guess at a syntax fixcast does not have.
enum FlagArgument {
    static let names: Set<String> = [
        "-h", "--help", "-V", "--version", "--man-page", "--json", "--offline", "--force", "--waybar", "--i3blocks",
        "--watch",
    ]

    static func valueGiven(name: String, value: String) -> String {
        "fixcast: \(name) takes no value (not \(name)=\(TerminalText.echo(value))); give \(name) alone to turn it on, leave it out to keep it off."
    }
}
