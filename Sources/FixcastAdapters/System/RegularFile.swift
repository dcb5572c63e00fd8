import FixcastText

#if canImport(Glibc)
    import Glibc
#endif

/// Whether a file a setting names (`mqtt.ca_file`) may be handed to a library that opens it by path.
///
/// A library opening a FIFO blocks until a writer comes (the agent would hang at start), and one
/// that cannot open a missing file may fail in ways its caller cannot name; so the file is looked at
/// first: stat(2) before anything opens it, then open(2) with O_NONBLOCK (a FIFO opens at once) and
/// fstat(2) on what was opened, which closes the race of the path changing between the two.
public enum RegularFile {
    /// nil when `path` is a regular file this process can open for reading; else why not, as a
    /// phrase to follow the path ("does not exist", "is a FIFO, not a regular file").
    public static func problem(_ path: String) -> String? {
        var before = stat()
        if stat(path, &before) == 0, let kind = notRegular(before.st_mode) { return "is \(kind), not a regular file" }
        let fd = Syscall.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let e = errno
            return e == ENOENT ? "does not exist" : "cannot be opened (\(String(cString: strerror(e))))"
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
        if let kind = notRegular(st.st_mode) { return "is \(kind), not a regular file" }
        return nil
    }

    /// The whole of the regular file at `path`, at most `maxBytes`; else why not, as a phrase to
    /// follow the path (as `problem`, or "is larger than 8 MiB"). A FIFO or device is never read.
    public static func bytes(_ path: String, maxBytes: Int) -> Result<[UInt8], RegularFileProblem> {
        if let problem = problem(path) { return .failure(RegularFileProblem(phrase: problem)) }
        let fd = Syscall.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            return .failure(RegularFileProblem(phrase: "cannot be opened (\(String(cString: strerror(errno))))"))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            return .failure(RegularFileProblem(phrase: "is not a regular file"))
        }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(RegularFileProblem(phrase: "cannot be read (\(String(cString: strerror(errno))))"))
            }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maxBytes {
                return .failure(RegularFileProblem(phrase: "is larger than \(ByteSize.phrase(maxBytes))"))
            }
        }
        return .success(out)
    }

    private static func notRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a folder"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "something else"
        }
    }
}

/// Why a file could not be read, as a phrase to follow its path ("does not exist").
public struct RegularFileProblem: Error, Sendable, Equatable {
    public let phrase: String
}
