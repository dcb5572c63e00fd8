import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// Everything a command needs to start: the arguments and the settings after the config file,
/// the environment and the command line have been layered (each overrides the one before).
public struct CommandContext: Sendable {
    public let arguments: Arguments
    public let settings: Settings
    public let environment: [String: String]
    /// Where the settings came from (nil: defaults and environment only).
    public let configPath: String?
    /// Non-fatal notes for stderr (e.g. a config file with an API key readable by others).
    public let warnings: [String]

    public init(arguments: Arguments, environment: [String: String]) throws(ConfigError) {
        let loaded = try ConfigFile.load(explicitPath: arguments.configPath, environment: environment)
        var s = loaded.settings
        if let g = arguments.gpsd {
            s.gps.host = g.host
            s.gps.port = g.port
        }
        if let db = arguments.dbPath { s.storage.path = db }
        if let u = arguments.units { s.display.units = u }
        if let l = arguments.lang { s.display.lang = l }
        if let r = arguments.route {
            s.ahead.route = r
            s.ahead.routeOrigin = nil
        }
        if let h = arguments.hours { s.ahead.hours = h }
        s.storage.path = SQLiteStore.resolvedPath(configured: s.storage.path, environment: environment)
        self.arguments = arguments
        self.settings = s
        self.environment = environment
        self.configPath = loaded.filePath
        self.warnings = loaded.warnings
    }

    public var language: Language { settings.display.lang }
    public var displayOptions: DisplayOptions { DisplayOptions(settings: settings) }
    public var units: UnitSystem { settings.display.units }
    /// The gpsd to use; the config loader has validated host and port, so the fallback is never taken.
    public var gpsd: GPSDAddress { (try? GPSDAddress(host: settings.gps.host, port: settings.gps.port)) ?? .local }
}
