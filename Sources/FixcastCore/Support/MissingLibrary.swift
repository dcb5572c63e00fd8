/// A C library fixcast opens at first use (libcurl, libgps, libmosquitto, libxml2: their shims `dlopen` them
/// so that commands which never use them start without them) that could not be loaded. It becomes
/// the middle of the using component's one sentence: what is missing and what to install.
public struct MissingLibrary: Sendable, Hashable {
    /// The soname that was opened ("libcurl.so.4").
    public var soname: String
    /// The loader's reason ("libcurl.so.4: cannot open shared object file: No such file or directory").
    public var detail: String

    public init(soname: String, detail: String) {
        self.soname = soname
        self.detail = detail
    }

    /// The Debian package that ships the soname, by Debian's library naming rule (policy 8.1): the
    /// name before `.so` and the version after it, with a `-` between when the name ends in a digit
    /// (libcurl.so.4 → libcurl4, libgps.so.28 → libgps28, libmosquitto.so.1 → libmosquitto1). Debian 13's
    /// 64-bit-time packages (libcurl4t64) provide the old name, so `apt install` finds them by it.
    public var package: String {
        if let named = Self.namedBeforePolicy[soname] { return named }
        let parts = soname.split(separator: ".so.", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return soname }
        let name = parts[0]
        let version = parts[1].split(separator: ".").first.map(String.init) ?? String(parts[1])
        return name.last?.isNumber == true ? "\(name)-\(version)" : "\(name)\(version)"
    }

    /// Packages named before the rule: libxml2.so.2 has been in `libxml2` since Debian began (the rule
    /// would say libxml2-2); its successor, libxml2.so.16, follows it (libxml2-16).
    static let namedBeforePolicy = ["libxml2.so.2": "libxml2"]

    /// For the middle of a sentence: "libcurl.so.4 cannot be loaded (…); install it with apt install libcurl4".
    public var clause: String {
        // dlerror starts with the name it was given ("libcurl.so.4: cannot open …"): said once is enough.
        let prefix = "\(soname): "
        let why = ErrorText.clause(detail.hasPrefix(prefix) ? String(detail.dropFirst(prefix.count)) : detail)
        let reason = why.isEmpty ? "" : " (\(why))"
        return "\(soname) cannot be loaded\(reason); install it with apt install \(package)"
    }
}
