#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds fixcast's bundled data files (share/fixcast/…) without `Bundle`, which lives in full Foundation
/// and would cost every run its memory (DESIGN.md "Footprint and deployment").
///
/// Search order, first readable file wins:
/// 1. `$FIXCAST_DATA_DIR/<file>` (a packager's or a test's override);
/// 2. next to the executable (from /proc/self/exe): `<exe dir>/share/fixcast`, `<exe dir>/../share/fixcast`,
///    then every further parent's `share/fixcast` — so `.build/debug/fixcast` in a checkout finds the
///    repository's share/ and `/opt/fixcast/bin/fixcast` finds `/opt/fixcast/share/fixcast`;
/// 3. `$XDG_DATA_DIRS/fixcast` (default `/usr/local/share:/usr/share`);
/// 4. `/usr/share/fixcast`.
public struct DataFiles: Sendable {
    public let environment: [String: String]
    /// The running executable's path; nil when it cannot be read.
    public let executablePath: String?

    public init(environment: [String: String], executablePath: String?) {
        self.environment = environment
        self.executablePath = executablePath
    }

    /// The running process: its environment and /proc/self/exe.
    public static func current() -> DataFiles {
        DataFiles(environment: ProcessEnvironment.current, executablePath: readExecutablePath())
    }

    /// Every directory looked in, in order (for a message that says where fixcast looked).
    public func candidateDirectories() -> [String] {
        var dirs: [String] = []
        if let dir = environment["FIXCAST_DATA_DIR"], !dir.isEmpty { dirs.append(dir) }
        if let exe = executablePath {
            for dir in FileSystemPaths.ancestors(of: exe) { dirs.append(FileSystemPaths.join(dir, "share/fixcast")) }
        }
        let xdg = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for base in xdg.split(separator: ":") where !base.isEmpty {
            dirs.append(FileSystemPaths.join(String(base), "fixcast"))
        }
        dirs.append("/usr/share/fixcast")
        var seen = Set<String>()
        return dirs.filter { seen.insert($0).inserted }
    }

    /// The full path of the first readable `name`, or nil.
    public func locate(_ name: String) -> String? {
        for dir in candidateDirectories() {
            let path = FileSystemPaths.join(dir, name)
            if access(path, R_OK) == 0, !FileSystemPaths.isFolder(path) { return path }
        }
        return nil
    }

    /// Reads a whole file; nil when it cannot be opened or read.
    public static func readBytes(_ path: String) -> [UInt8]? {
        let fd = Syscall.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var result = [UInt8](repeating: 0, count: size)
        var filled = 0
        let ok = result.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return size == 0 }
            while filled < size {
                let n = Syscall.read(fd, base + filled, size - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if n == 0 { break }
                filled += n
            }
            return true
        }
        guard ok else { return nil }
        return filled == size ? result : Array(result.prefix(filled))
    }

    // MARK: - Internals

    private static func readExecutablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
