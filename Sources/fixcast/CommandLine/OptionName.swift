/// Every option of the command line. Parsing records which were given; each command's options type
/// says which it accepts (`CommandOptions.accepted`), and `--help` lists exactly those, so parsing,
/// checking and help read one table and cannot drift apart.
enum OptionName: String, CaseIterable, Sendable, Hashable {
    case config, gpsd, at, place, db, units, lang, json, offline, force
    case days, limit, format, since, until, output, trip
    case waybar, i3blocks, watch
    case route, hours

    /// How the option is written in messages and help.
    var flag: String {
        switch self {
        case .output: return "-o"
        default: return "--" + rawValue
        }
    }

    /// The option a command-line word names (`--days`, `-o`, `--output`); nil for help, version and
    /// unknown words.
    init?(flag: String) {
        switch flag {
        case "-o", "--output": self = .output
        case _ where flag.hasPrefix("--"):
            guard let option = OptionName(rawValue: String(flag.dropFirst(2))), option != .output else { return nil }
            self = option
        default: return nil
        }
    }

    /// What every command accepts: where the settings and the store are, and how text is shown.
    static let common: [OptionName] = [.config, .db, .units, .lang]

    /// The help lines of the options whose meaning is the same in every command that takes them
    /// (command-specific ones, such as --days, are described in that command's own help).
    var sharedHelp: String? {
        switch self {
        case .config:
            return """
                  --config PATH        Read settings from PATH (default: $FIXCAST_CONFIG, then
                                       $XDG_CONFIG_HOME/fixcast/config.toml (~/.config/...), then
                                       /etc/fixcast/config.toml).
                """
        case .gpsd: return "  --gpsd HOST[:PORT]   The gpsd to follow (default 127.0.0.1:2947)."
        case .at: return "  --at LAT,LON         Use this position instead of gpsd (e.g. --at 52.52,13.405)."
        case .place: return "  --place NAME         Use the best match for NAME as the position."
        case .db:
            return """
                  --db PATH            The SQLite store (default: storage.path, else
                                       $XDG_DATA_HOME/fixcast/fixcast.sqlite (~/.local/share/...)).
                """
        case .units:
            return """
                  --units metric|imperial
                                       Units of the human display (JSON is always metric).
                """
        case .lang: return "  --lang en|ru|zh      Language of the display (weather descriptions, screen words)."
        case .json: return "  --json               Print JSON instead of text."
        case .offline: return "  --offline            No network: offline place names and stored weather only."
        case .force:
            return "  --force              Fetch weather past the 10-minute cache (never more than once a minute)."
        case .route:
            return """
                  --route FILE.gpx     Weather ahead along this GPX route (its rte, else its trk;
                                       default ahead.route).
                """
        case .days, .limit, .format, .since, .until, .output, .trip, .waybar, .i3blocks, .watch, .hours: return nil
        }
    }
}
