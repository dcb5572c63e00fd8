/// Where a path written in a config file points: a file is read by a service whose working directory is
/// `/`, by a person in any folder, so a relative path means the config file's own folder (as `include`
/// does in many tools), and `~` or `~/…` means the home folder (a shell would expand it, TOML does not).
/// An absolute path, and a path from the environment or the command line (whose shell has expanded `~`
/// and whose relative paths mean the working directory), are taken as written.
public enum ConfigPath {
    /// The keys whose values are paths (`section.name`).
    public static let keys: Set<String> = ["storage.path", "mqtt.ca_file", "ahead.route"]

    /// `path` as written in the config file `configFile`; `home` is `$HOME` (nil or empty: `~` is left
    /// as written, and the file is then not found under that name, which its error says).
    public static func resolved(_ path: String, configFile: String, home: String?) -> String {
        guard !path.isEmpty, !path.hasPrefix("/") else { return path }
        if path == "~" || path.hasPrefix("~/") {
            guard let home, !home.isEmpty else { return path }
            let rest = path.dropFirst(path == "~" ? 1 : 2)
            let base = home.hasSuffix("/") ? String(home.dropLast()) : home
            return rest.isEmpty ? base : base + "/" + rest
        }
        // A config file named without a folder is in the working directory, where the path already points.
        guard let slash = configFile.lastIndex(of: "/") else { return path }
        let folder = configFile[..<slash]
        return (folder.isEmpty ? "" : String(folder)) + "/" + path
    }
}
