import FoundationEssentials
import FixcastCore

/// The commands of CONTRACT.md.
public enum CommandName: String, Sendable, CaseIterable {
    case run, now, forecast, search, export, status, mqtt
}

/// A command line that does not make sense; exit 2 with the message (which names the option).
public struct UsageError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// What the command line asked for, before the config file and environment are merged in.
/// nil means "not given on the command line" so that the config file or its default applies.
public struct Arguments: Sendable, Equatable {
    public var command: CommandName?
    public var help = false
    public var version = false

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
    // mqtt
    public var mqttAction: String?

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
            return argv[i]
        }
        var onlyPositionals = false
        while i < argv.count {
            let arg = argv[i]
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                i += 1
                continue
            }
            if arg == "--" { onlyPositionals = true; i += 1; continue }
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            switch name {
            case "-h", "--help": a.help = true
            case "-V", "--version": a.version = true
            case "--json": a.json = true
            case "--offline": a.offline = true
            case "--force": a.force = true
            case "--config": a.configPath = try value(name, inline)
            case "--db": a.dbPath = try value(name, inline)
            case "--gpsd":
                let v = try value(name, inline)
                do {
                    a.gpsd = try GPSDAddress(parsing: v, option: "--gpsd")
                } catch {
                    throw UsageError(error.message)
                }
            case "--at":
                let v = try value(name, inline)
                guard let c = Coordinate(parsing: v) else {
                    throw UsageError("fixcast: --at: \"\(v)\" is not LAT,LON with latitude in [-90, 90] and longitude in [-180, 180] (for example --at 52.52,13.405).")
                }
                a.at = c
            case "--place":
                let v = try value(name, inline)
                guard !v.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("fixcast: --place needs a place name.") }
                a.place = v
            case "--units":
                let v = try value(name, inline)
                guard let u = UnitSystem(rawValue: v) else { throw UsageError("fixcast: --units: \"\(v)\" is not metric or imperial.") }
                a.units = u
            case "--lang":
                let v = try value(name, inline)
                guard let l = Language(rawValue: v) else { throw UsageError("fixcast: --lang: \"\(v)\" is not en, ru or zh.") }
                a.lang = l
            case "--days":
                let v = try value(name, inline)
                guard let d = Int(v), (1...16).contains(d) else { throw UsageError("fixcast: --days: \"\(v)\" is not a number of days from 1 to 16.") }
                a.days = d
            case "--limit":
                let v = try value(name, inline)
                guard let l = Int(v), (1...100).contains(l) else { throw UsageError("fixcast: --limit: \"\(v)\" is not a number from 1 to 100.") }
                a.limit = l
            case "--format":
                let v = try value(name, inline)
                guard ["gpx", "csv", "geojson"].contains(v) else { throw UsageError("fixcast: --format: \"\(v)\" is not gpx, csv or geojson.") }
                a.format = v
            case "--since", "--until":
                let v = try value(name, inline)
                guard let d = ExportTimeRange.parse(v, isUpperBound: name == "--until") else {
                    throw UsageError("fixcast: \(name): \"\(v)\" is not a date (YYYY-MM-DD) or an ISO 8601 time (2026-01-30T12:00:00Z).")
                }
                if name == "--since" { a.since = d } else { a.until = d }
            case "-o", "--output": a.output = try value(name, inline)
            default:
                throw UsageError("fixcast: unknown option \(name); see fixcast --help.")
            }
            i += 1
        }
        if let first = positionals.first {
            if first == "help" {
                a.help = true
                if positionals.count > 1 {
                    guard let c = CommandName(rawValue: positionals[1]) else {
                        throw UsageError("fixcast: no command named \"\(positionals[1])\"; the commands are run, now, forecast, search, export, status, mqtt.")
                    }
                    a.command = c
                }
                return a
            }
            guard let c = CommandName(rawValue: first) else {
                throw UsageError("fixcast: no command named \"\(first)\"; the commands are run, now, forecast, search, export, status, mqtt.")
            }
            a.command = c
            let rest = positionals.dropFirst()
            if c == .search {
                if !rest.isEmpty { a.query = rest.joined(separator: " ") }
            } else if c == .mqtt, let action = rest.first {
                guard action == "test", rest.count == 1 else {
                    throw UsageError("fixcast mqtt: unexpected argument \"\(rest.joined(separator: " "))\"; the only action is test (fixcast mqtt test).")
                }
                a.mqttAction = action
            } else if let extra = rest.first {
                throw UsageError("fixcast \(c.rawValue): unexpected argument \"\(extra)\"; see fixcast \(c.rawValue) --help.")
            }
        }
        if a.help || a.version { return a }
        try a.validate()
        return a
    }

    func validate() throws(UsageError) {
        guard let command else { return }
        if at != nil && place != nil { throw UsageError("fixcast: --at and --place both give a position; use one.") }
        let name = "fixcast \(command.rawValue)"
        if days != nil && command != .forecast { throw UsageError("\(name): --days is an option of fixcast forecast.") }
        if limit != nil && command != .search { throw UsageError("\(name): --limit is an option of fixcast search.") }
        if command != .export && (format != nil || since != nil || until != nil || output != nil) {
            throw UsageError("\(name): --format, --since, --until and -o are options of fixcast export.")
        }
        switch command {
        case .search:
            guard let q = query, !q.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("fixcast search: give a place name to look for, e.g. fixcast search \"new york\".")
            }
        case .export:
            guard format != nil else { throw UsageError("fixcast export: --format gpx|csv|geojson is required.") }
            if let since, let until, since > until { throw UsageError("fixcast export: --since is after --until.") }
        case .mqtt:
            guard mqttAction != nil else { throw UsageError("fixcast mqtt: give an action: fixcast mqtt test.") }
        default: break
        }
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
