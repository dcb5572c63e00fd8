import FixcastCore
import FixcastText

#if canImport(Glibc)
    import Glibc
#endif

/// Finds and reads the config file (ConfigLookup's order) and hands its text to the pure
/// `ConfigLoader`. The only part of configuration that touches the disk.
public enum ConfigFile {
    /// A config longer than this is not a config file (and not worth holding in memory).
    static let maxBytes = 1 << 20

    /// Settings from the first config file found (or none) and the environment; warnings go to stderr.
    public static func load(explicitPath: String?, environment: [String: String]) throws(ConfigError) -> LoadedConfig {
        for candidate in ConfigLookup.candidates(explicitPath: explicitPath, environment: environment) {
            switch read(candidate.path) {
            case .missing where !candidate.required:
                continue
            case .missing:
                throw ConfigError.unreadable(
                    path: candidate.path, detail: "no such file",
                    hint: "check the path given by \(candidate.origin), or copy \(ConfigError.example) there")
            case .failed(let detail):
                // A path the person gave is theirs to fix; one found in a usual place can also be passed over.
                throw ConfigError.unreadable(
                    path: candidate.path, detail: detail,
                    hint: candidate.required
                        ? "make it readable by this user" : "make it readable by this user, or pass --config PATH")
            case .tooLarge:
                throw ConfigError.unreadable(
                    path: candidate.path, detail: "larger than \(ByteSize.phrase(Self.maxBytes))",
                    hint: candidate.required
                        ? "a config file is a few kB of TOML (as \(ConfigError.example)); check the path given by \(candidate.origin)"
                        : "a config file is a few kB of TOML (as \(ConfigError.example)); move this one aside, or pass --config PATH"
                )
            case .notRegular:
                // $XDG_CONFIG_HOME, ~/.config and /etc are folders: what is wrong is the entry inside them.
                throw ConfigError.unreadable(
                    path: candidate.path, detail: "not a regular file",
                    hint: candidate.required
                        ? "point \(candidate.origin) at a config file, not a FIFO, device or folder"
                        : "replace it with a config file (as \(ConfigError.example)) or remove it, or pass --config PATH"
                )
            case .invalidUTF8(let line):
                throw ConfigError.syntax(
                    .file(path: candidate.path, line: line),
                    reason: "this line is not valid UTF-8 text (save the file as UTF-8)")
            case .text(let file):
                return try ConfigLoader.load(file: file, environment: environment)
            }
        }
        return try ConfigLoader.load(file: nil, environment: environment)
    }

    enum ReadResult {
        case missing
        case failed(String)
        /// Over `maxBytes`: not a config file (a wrong path, or a log written over it).
        case tooLarge
        /// A FIFO, device, socket or folder: never read (a FIFO would block until a writer came).
        case notRegular
        case invalidUTF8(line: Int)
        case text(ConfigFileText)
    }

    static func read(_ path: String) -> ReadResult {
        // Refuse a FIFO or device before opening it (opening a FIFO blocks until a writer comes);
        // O_NONBLOCK and fstat close the race of the path changing between the two.
        var before = stat()
        if stat(path, &before) == 0, (before.st_mode & S_IFMT) != S_IFREG {
            // `--config /dev/null` is the usual way to say "no config file, only the defaults" (as git's
            // GIT_CONFIG_GLOBAL=/dev/null): the null device reads as an empty file. Any other device is refused.
            if isNullDevice(before) { return .text(ConfigFileText(path: path, text: "", readableByOthers: false)) }
            return .notRegular
        }
        let fd = Syscall.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            return errno == ENOENT ? .missing : .failed(String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failed(String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .notRegular }
        guard Int(st.st_size) <= maxBytes else { return .tooLarge }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return .failed(String(cString: strerror(errno)))
            }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maxBytes { return .tooLarge }
        }
        let readableByOthers = Self.readableByOthers(mode: st.st_mode, owner: st.st_uid, group: st.st_gid)
        switch ConfigFileBytes.text(bytes) {
        case .failure(let bad):
            return .invalidUTF8(line: bad.line)
        case .success(let text):
            return .text(ConfigFileText(path: path, text: text, readableByOthers: readableByOthers))
        }
    }

    /// Whether a file of this mode, owner and group can be read by users other than the one reading it:
    /// anyone may (o+r), or its group may and that group is not this process's, except that a file root
    /// owns and gives to a group is an administrator's choice (`root:fixcast 0640`, how the service's
    /// user is let read /etc/fixcast/config.toml without the world).
    static func readableByOthers(mode: mode_t, owner: uid_t, group: gid_t, ownGroup: gid_t = getegid()) -> Bool {
        if mode & 0o004 != 0 { return true }
        return mode & 0o040 != 0 && group != ownGroup && owner != 0
    }

    /// The character device `/dev/null` is (compared by device number, so a link to it or a second node of
    /// it counts, and a file or other device named so does not).
    static func isNullDevice(_ st: stat) -> Bool {
        var null = stat()
        guard (st.st_mode & S_IFMT) == S_IFCHR, stat("/dev/null", &null) == 0, (null.st_mode & S_IFMT) == S_IFCHR
        else { return false }
        return st.st_rdev == null.st_rdev
    }
}
