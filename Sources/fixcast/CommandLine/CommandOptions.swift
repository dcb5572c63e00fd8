import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FixcastText
import FoundationEssentials

/// A command's own options, built from what the command line said. Each command has one, naming the
/// options it accepts: any other option given to it is a usage error (exit 2) that names the option,
/// never silently ignored (`search --at 1,2` once was).
protocol CommandOptions: Sendable {
    /// The options this command takes besides `OptionName.common` and `--help`.
    static var accepted: [OptionName] { get }
    /// False for a command that reads no config, store or service (`completions`): the common options
    /// (`--config`, `--db`, `--units`, …) mean nothing to it and are refused like any other.
    static var takesCommonOptions: Bool { get }
    init(_ arguments: Arguments) throws(UsageError)
}

extension CommandOptions {
    static var takesCommonOptions: Bool { true }
}

extension CommandName {
    /// The options type of the command, for checking and for `--help`.
    var options: any CommandOptions.Type {
        switch self {
        case .run: return RunOptions.self
        case .now: return NowOptions.self
        case .forecast: return ForecastOptions.self
        case .search: return SearchOptions.self
        case .export: return ExportOptions.self
        case .status: return StatusOptions.self
        case .alerts: return AlertsOptions.self
        case .ahead: return AheadOptions.self
        case .trips: return TripsOptions.self
        case .report: return ReportOptions.self
        case .mqtt: return MQTTOptions.self
        case .line: return LineOptions.self
        case .completions: return CompletionsOptions.self
        }
    }

    /// Every option this command accepts, in the order help lists them.
    var acceptedOptions: [OptionName] {
        let own = options.accepted
        let common = options.takesCommonOptions ? OptionName.common : []
        return OptionName.allCases.filter { own.contains($0) || common.contains($0) }
    }
}

/// Where a reading's position comes from: gpsd (the default), `--at`, or `--place`.
enum PositionChoice: Sendable, Equatable {
    case gpsd
    case at(Coordinate)
    case place(String)

    init(_ a: Arguments) throws(UsageError) {
        switch (a.at, a.place) {
        case (let c?, nil): self = .at(c)
        case (nil, let name?): self = .place(name)
        case (nil, nil): self = .gpsd
        case (.some, .some): throw UsageError("fixcast: --at and --place both give a position; use one.")
        }
    }

    var isFixed: Bool { self != .gpsd }
}

struct RunOptions: CommandOptions {
    static let accepted: [OptionName] = [.gpsd, .at, .place, .json, .offline, .route]
    var position: PositionChoice
    var json: Bool
    var offline: Bool
    /// `--route`: the GPX route weather ahead follows (nil: `ahead.route`).
    var route: String?

    init(_ a: Arguments) throws(UsageError) {
        position = try PositionChoice(a)
        json = a.json
        offline = a.offline
        route = a.route
    }
}

struct NowOptions: CommandOptions {
    static let accepted: [OptionName] = [.gpsd, .at, .place, .json, .offline, .force]
    var position: PositionChoice
    var json: Bool
    var offline: Bool
    var force: Bool

    init(_ a: Arguments) throws(UsageError) {
        position = try PositionChoice(a)
        json = a.json
        offline = a.offline
        force = a.force
    }
}

struct ForecastOptions: CommandOptions {
    static let accepted: [OptionName] = [.gpsd, .at, .place, .json, .offline, .force, .days]
    /// Days shown when `--days` is not given: a week, what a person plans with.
    static let defaultDays = 7
    var position: PositionChoice
    var json: Bool
    var offline: Bool
    var force: Bool
    var days: Int

    init(_ a: Arguments) throws(UsageError) {
        position = try PositionChoice(a)
        json = a.json
        offline = a.offline
        force = a.force
        days = a.days ?? Self.defaultDays
    }
}

struct SearchOptions: CommandOptions {
    static let accepted: [OptionName] = [.json, .offline, .limit]
    static let defaultLimit = 10
    var query: String
    var json: Bool
    var offline: Bool
    var limit: Int

    init(_ a: Arguments) throws(UsageError) {
        guard let q = a.query, !q.allSatisfy(\.isWhitespace) else {
            throw UsageError("fixcast search: give a place name to look for, e.g. fixcast search \"new york\".")
        }
        query = q
        json = a.json
        offline = a.offline
        limit = a.limit ?? Self.defaultLimit
    }
}

struct ExportOptions: CommandOptions {
    static let accepted: [OptionName] = [.format, .since, .until, .output]
    var format: ExportFormat
    var since: Date?
    var until: Date?
    var output: String?

    init(_ a: Arguments) throws(UsageError) {
        guard let name = a.format else { throw UsageError("fixcast export: --format gpx|csv|geojson is required.") }
        guard let format = ExportFormat(rawValue: name) else {
            throw UsageError("fixcast: --format: \"\(TerminalText.echo(name))\" is not gpx, csv or geojson.")
        }
        if let since = a.since, let until = a.until, since > until {
            throw UsageError("fixcast export: --since is after --until.")
        }
        self.format = format
        since = a.since
        until = a.until
        output = a.output
    }
}

struct StatusOptions: CommandOptions {
    static let accepted: [OptionName] = [.gpsd, .json]
    var json: Bool

    init(_ a: Arguments) throws(UsageError) {
        json = a.json
    }
}

struct AlertsOptions: CommandOptions {
    static let accepted: [OptionName] = [.gpsd, .at, .place, .json, .offline]
    var position: PositionChoice
    var json: Bool
    var offline: Bool

    init(_ a: Arguments) throws(UsageError) {
        position = try PositionChoice(a)
        json = a.json
        offline = a.offline
    }
}

/// `fixcast ahead`: where from (gpsd, or `--at`/`--place` with a route), which route and how far.
struct AheadOptions: CommandOptions {
    static let accepted: [OptionName] = [.gpsd, .at, .place, .json, .offline, .force, .route, .hours]
    var position: PositionChoice
    var json: Bool
    var offline: Bool
    var force: Bool

    init(_ a: Arguments) throws(UsageError) {
        position = try PositionChoice(a)
        json = a.json
        offline = a.offline
        force = a.force
    }
}

struct TripsOptions: CommandOptions {
    static let accepted: [OptionName] = [.json]
    var json: Bool

    init(_ a: Arguments) throws(UsageError) {
        json = a.json
    }
}

struct ReportOptions: CommandOptions {
    static let accepted: [OptionName] = [.trip, .since, .until, .output]
    var trip: TripChoice?
    var since: Date?
    var until: Date?
    var output: String?

    init(_ a: Arguments) throws(UsageError) {
        if let since = a.since, let until = a.until, since > until {
            throw UsageError("fixcast report: --since is after --until.")
        }
        if let output = a.output, output != "-", ReportFormat(path: output) == nil {
            throw UsageError(
                "fixcast report: -o \"\(TerminalText.echo(output))\" must end in .svg or .html (or be - for standard output)."
            )
        }
        trip = a.trip
        since = a.since
        until = a.until
        output = a.output
    }
}

/// `fixcast mqtt test`: the broker comes from the settings; the only action is `test`.
struct MQTTOptions: CommandOptions {
    static let accepted: [OptionName] = []

    init(_ a: Arguments) throws(UsageError) {
        guard a.mqttAction != nil else { throw UsageError("fixcast mqtt: give an action: fixcast mqtt test.") }
    }
}

/// `fixcast line`: the template (`--format`, wttr.in's codes), the bar it prints for, and `--watch`.
struct LineOptions: CommandOptions {
    static let accepted: [OptionName] = [.format, .waybar, .i3blocks, .watch]
    var format: String
    var output: StatusLineOutput
    var watch: Bool

    init(_ a: Arguments) throws(UsageError) {
        if a.waybar && a.i3blocks {
            throw UsageError("fixcast line: --waybar and --i3blocks each choose the output; use one.")
        }
        if let f = a.format, f.isEmpty {
            throw UsageError("fixcast line: --format needs a template, e.g. --format \"%l %c %t\".")
        }
        format = a.format ?? StatusLine.defaultFormat
        output = a.waybar ? .waybar : a.i3blocks ? .i3blocks : .plain
        watch = a.watch
    }
}
