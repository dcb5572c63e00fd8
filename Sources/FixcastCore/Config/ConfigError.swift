import FixcastText

/// Where a setting came from, as a person would look for it.
public enum ConfigOrigin: Sendable, Hashable {
    /// A line of a config file.
    case file(path: String, line: Int)
    /// A `FIXCAST_<SECTION>_<KEY>` environment variable.
    case environment(variable: String)
    /// A config file as a whole (it could not be read).
    case wholeFile(path: String)

    var prefix: String {
        switch self {
        case .file(let path, let line): return "config: \(path) line \(line)"
        case .environment(let variable): return "config: environment variable \(variable)"
        case .wholeFile(let path): return "config: \(path)"
        }
    }

    /// How a value read from here was set, for the end of a sentence: "set at PATH line N",
    /// "set by FIXCAST_AHEAD_ROUTE".
    public var setting: String {
        switch self {
        case .file(let path, let line): return "set at \(path) line \(line)"
        case .environment(let variable): return "set by \(variable)"
        case .wholeFile(let path): return "set in \(path)"
        }
    }
}

/// A configuration problem; the CLI prints the message and exits 2 (CONTRACT.md). Each message
/// names the file and line (or the environment variable) and the key.
public enum ConfigError: UserFacingError, Hashable {
    case syntax(ConfigOrigin, reason: String)
    case unknownSection(ConfigOrigin, section: String)
    case unknownKey(ConfigOrigin, section: String, key: String)
    case wrongType(ConfigOrigin, section: String, key: String, expected: String, found: String)
    case badValue(ConfigOrigin, section: String, key: String, reason: String)
    /// The named config file (`--config`, `$FIXCAST_CONFIG`) or a found one could not be read.
    case unreadable(path: String, detail: String, hint: String)

    public var component: Component { .config }

    /// The file, line and key a person should look at.
    public var origin: ConfigOrigin {
        switch self {
        case .syntax(let o, _), .unknownSection(let o, _), .unknownKey(let o, _, _), .wrongType(let o, _, _, _, _),
            .badValue(let o, _, _, _):
            return o
        case .unreadable(let path, _, _): return .wholeFile(path: path)
        }
    }

    /// Where the annotated example is: installed by the package, and in the source tree (where the
    /// installed one is made from). One name for every hint.
    public static let example = "/etc/fixcast/config.toml (config/fixcast.toml in the source)"
    static let keysHint = "every key is in \(example)"

    public var message: String {
        switch self {
        case .syntax(let o, let reason):
            return "\(o.prefix): \(reason); see \(Self.example) for the format."
        case .unknownSection(let o, let section):
            let guess = NearestWord.to(section, among: ConfigSchema.sections).map { " (did you mean [\($0)]?)" } ?? ""
            return
                "\(o.prefix): unknown section [\(section)]\(guess); the sections are \(ConfigSchema.sectionList); \(Self.keysHint)."
        case .unknownKey(let o, let section, let key):
            let names = ConfigSchema.keys.filter { $0.section == section }.map(\.name)
            guard !SecretShape.looksLikeSecret(key) else {
                return
                    "\(o.prefix): unknown key in [\(section)] (not shown: it looks like a secret pasted by mistake); \(Self.keysHint)."
            }
            let guess = NearestWord.to(key, among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
            return "\(o.prefix): unknown key \"\(key)\" in [\(section)]\(guess); \(Self.keysHint)."
        case .wrongType(let o, let section, let key, let expected, let found):
            return "\(o.prefix): \"\(key)\" in [\(section)] must be \(expected), not \(found); \(Self.keysHint)."
        case .badValue(let o, let section, let key, let reason):
            return "\(o.prefix): \"\(key)\" in [\(section)] \(reason)."
        case .unreadable(let path, let detail, let hint):
            return "config: cannot read \(path) (\(detail)); \(hint)."
        }
    }
}
