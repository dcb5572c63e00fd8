import FixcastText

/// One config file as read from disk (the reading itself is the adapter's: `ConfigFile`).
public struct ConfigFileText: Sendable, Hashable {
    public var path: String
    public var text: String
    /// The file's mode lets the group or others read it (mode & 0o044).
    public var readableByOthers: Bool

    public init(path: String, text: String, readableByOthers: Bool) {
        self.path = path
        self.text = text
        self.readableByOthers = readableByOthers
    }
}

/// The settings from a file and the environment, with warnings to print on stderr.
public struct LoadedConfig: Sendable, Hashable {
    public var settings: Settings
    /// The file the settings came from, nil when none was found.
    public var filePath: String?
    /// Things a person should fix that do not stop fixcast (e.g. an API key readable by others).
    public var warnings: [String]
}

/// Turns a config file's text and the environment into `Settings`: defaults, then the file, then
/// `FIXCAST_<SECTION>_<KEY>` variables (CONTRACT.md; command-line options come after, in the CLI).
///
/// Strict on purpose: an unknown section or key, a wrong type or a bad value is an error naming
/// the file, line and key, because a misspelt `wether` silently ignored is a setting that
/// silently does nothing.
public enum ConfigLoader {
    public static func load(
        file: ConfigFileText?, environment: [String: String], defaults: Settings = Settings()
    ) throws(ConfigError) -> LoadedConfig {
        var settings = defaults
        var warnings: [String] = []
        if let file {
            try apply(file: file, home: environment["HOME"], to: &settings)
            if file.readableByOthers, !settings.weather.apiKey.isEmpty {
                warnings.append(
                    "config: \(file.path) holds an API key and other users can read it; run chmod 600 \(file.path) (for the service's /etc/fixcast/config.toml: chown root:fixcast and chmod 640), or set FIXCAST_WEATHER_API_KEY instead (the service reads it from /etc/fixcast/secrets)."
                )
            }
            if file.readableByOthers, !settings.mqtt.password.isEmpty {
                warnings.append(
                    "config: \(file.path) holds the MQTT password and other users can read it; run chmod 600 \(file.path) (for the service's /etc/fixcast/config.toml: chown root:fixcast and chmod 640), or set FIXCAST_MQTT_PASSWORD instead (the service reads it from /etc/fixcast/secrets)."
                )
            }
        }
        try applyEnvironment(environment, to: &settings, warnings: &warnings)
        return LoadedConfig(settings: settings, filePath: file?.path, warnings: warnings)
    }

    static func apply(file: ConfigFileText, home: String?, to settings: inout Settings) throws(ConfigError) {
        let doc: TOMLDocument
        do {
            doc = try TOMLSubset.parse(file.text)
        } catch {
            var reason = error.reason
            if let section = error.section, let key = error.key, ConfigSchema.isSecret(section: section, key: key) {
                // The reason may quote the value ("k3y is not a value"): a secret is never shown.
                reason =
                    "the value of \"\(key)\" could not be read (not shown: it is a secret); write it in double quotes on one line, \(key) = \"…\""
            }
            throw .syntax(.file(path: file.path, line: error.line), reason: reason)
        }
        for section in doc.sections where !ConfigSchema.sections.contains(section.name) {
            throw .unknownSection(.file(path: file.path, line: section.line), section: section.name)
        }
        for entry in doc.entries {
            let origin = ConfigOrigin.file(path: file.path, line: entry.line)
            guard let key = ConfigSchema.key(section: entry.section, name: entry.key) else {
                throw .unknownKey(origin, section: entry.section, key: entry.key)
            }
            var value = entry.value
            if case .string(let path) = value, ConfigPath.keys.contains("\(key.section).\(key.name)") {
                value = .string(ConfigPath.resolved(path, configFile: file.path, home: home))
            }
            try set(key, value, found: entry.value.typeName, origin: origin, settings: &settings)
        }
    }

    /// A `FIXCAST_<SECTION>_<KEY>` with a known section and an unknown key is an error, as an unknown
    /// key in the file is; one whose section is unknown (`FIXCAST_PLACE_PROVIDER`) is warned about
    /// (`warnings`), not refused: the name is shared with variables that are not settings (the alert
    /// command's `FIXCAST_ALERT_EVENT`, `ConfigSchema.otherVariables`).
    static func applyEnvironment(
        _ environment: [String: String], to settings: inout Settings, warnings: inout [String]
    ) throws(ConfigError) {
        // Sorted, so that with two bad variables the same one is reported every time.
        for (variable, text) in environment.sorted(by: { $0.key < $1.key }) where variable.hasPrefix("FIXCAST_") {
            guard
                let section = ConfigSchema.sections.first(where: { variable.hasPrefix("FIXCAST_\($0.uppercased())_") })
            else {
                if !ConfigSchema.otherVariables.contains(variable) { warnings.append(notASetting(variable)) }
                continue
            }
            let origin = ConfigOrigin.environment(variable: variable)
            guard let key = ConfigSchema.keys.first(where: { $0.environmentVariable == variable }) else {
                let name = String(variable.dropFirst("FIXCAST_\(section)_".count)).lowercased()
                throw .unknownKey(origin, section: section, key: name)
            }
            // How the value is quoted in an error: never for a secret, capped and escaped otherwise.
            let shown =
                ConfigSchema.isSecret(section: key.section, key: key.name)
                ? "a value (not shown: it is a secret)" : "\"\(TerminalText.echo(text))\""
            let value: TOMLValue
            switch key.kind {
            case .string:
                value = .string(text)
            case .integer:
                guard let i = TOMLNumber.integer(text) else {
                    throw .wrongType(
                        origin, section: key.section, key: key.name, expected: key.kind.expected, found: shown)
                }
                value = .integer(i)
            case .number:
                if let i = TOMLNumber.integer(text) {
                    value = .integer(i)
                } else if let d = TOMLNumber.float(text) {
                    value = .float(d)
                } else {
                    throw .wrongType(
                        origin, section: key.section, key: key.name, expected: key.kind.expected, found: shown)
                }
            case .boolean:
                guard text == "true" || text == "false" else {
                    throw .wrongType(
                        origin, section: key.section, key: key.name, expected: key.kind.expected, found: shown)
                }
                value = .boolean(text == "true")
            }
            try set(key, value, found: shown, origin: origin, settings: &settings)
        }
    }

    /// The warning for a `FIXCAST_` variable that names no section: what it is taken for, and the
    /// setting it most likely meant.
    static func notASetting(_ variable: String) -> String {
        let guess =
            NearestWord.to(variable, among: ConfigSchema.keys.map(\.environmentVariable))
            .map { " (did you mean \($0)?)" } ?? ""
        return
            "\(ConfigOrigin.environment(variable: TerminalText.echo(variable)).prefix) names no setting and is ignored"
            + "\(guess); a setting's variable is FIXCAST_<SECTION>_<KEY>, \(ConfigError.keysHint)."
    }

    private static func set(
        _ key: ConfigSchema.Key, _ value: TOMLValue, found: String, origin: ConfigOrigin, settings: inout Settings
    ) throws(ConfigError) {
        if ConfigSchema.isSecret(section: key.section, key: key.name) {
            try setSecret(key, value, origin: origin, settings: &settings)
            return
        }
        guard key.kind.accepts(value) else {
            throw .wrongType(origin, section: key.section, key: key.name, expected: key.kind.expected, found: found)
        }
        if let reason = key.apply(&settings, value) {
            throw .badValue(origin, section: key.section, key: key.name, reason: reason)
        }
        // The route file is read only when weather ahead starts: its problems then name this line.
        if key.section == "ahead", key.name == "route" {
            settings.ahead.routeOrigin = settings.ahead.route.isEmpty ? nil : origin
        }
    }
}

extension ConfigLoader {
    /// `set` for a secret key: the same checks, but an error names the key and the type only,
    /// and any text of the value in a reason is replaced, so the secret is never printed.
    fileprivate static func setSecret(
        _ key: ConfigSchema.Key, _ value: TOMLValue, origin: ConfigOrigin, settings: inout Settings
    ) throws(ConfigError) {
        guard key.kind.accepts(value) else {
            throw .wrongType(
                origin, section: key.section, key: key.name, expected: key.kind.expected,
                found: value.typeName + " (value not shown: it is a secret)")
        }
        if var reason = key.apply(&settings, value) {
            if case .string(let text) = value, !text.isEmpty { reason = reason.replacing(text, with: "…") }
            throw .badValue(
                origin, section: key.section, key: key.name, reason: reason + " (value not shown: it is a secret)")
        }
    }
}

/// Where a config file is looked for (CONTRACT.md), first found wins.
public struct ConfigCandidate: Sendable, Hashable {
    public var path: String
    /// Named by the user (`--config`, `$FIXCAST_CONFIG`): a missing file is an error, not a skip.
    public var required: Bool
    /// How it was named, for messages ("--config", "$FIXCAST_CONFIG").
    public var origin: String
}

public enum ConfigLookup {
    /// `--config PATH`, else `$FIXCAST_CONFIG`; else `$XDG_CONFIG_HOME/fixcast/config.toml` (or
    /// `~/.config/fixcast/config.toml`) then `/etc/fixcast/config.toml`.
    public static func candidates(explicitPath: String?, environment: [String: String]) -> [ConfigCandidate] {
        if let explicitPath { return [ConfigCandidate(path: explicitPath, required: true, origin: "--config")] }
        if let named = environment["FIXCAST_CONFIG"], !named.isEmpty {
            return [ConfigCandidate(path: named, required: true, origin: "$FIXCAST_CONFIG")]
        }
        var list: [ConfigCandidate] = []
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            list.append(
                ConfigCandidate(path: join(xdg, "fixcast/config.toml"), required: false, origin: "$XDG_CONFIG_HOME"))
        } else if let home = environment["HOME"], !home.isEmpty {
            list.append(
                ConfigCandidate(path: join(home, ".config/fixcast/config.toml"), required: false, origin: "~/.config"))
        }
        list.append(ConfigCandidate(path: "/etc/fixcast/config.toml", required: false, origin: "/etc"))
        return list
    }

    private static func join(_ base: String, _ rest: String) -> String {
        base.hasSuffix("/") ? base + rest : base + "/" + rest
    }
}
