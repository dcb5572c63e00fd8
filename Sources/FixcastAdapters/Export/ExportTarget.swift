internal import CSystem
import FixcastCore
import FixcastText

#if canImport(Glibc)
    import Glibc
#endif

/// What `export -o PATH` writes to, decided from what is at the path before anything is written.
///
/// A path is not always a file the export owns: `/dev/stdout`, a FIFO a script reads from, a
/// terminal device, a symlink into another folder. Replacing those with a regular file (what a plain
/// "write a temp file and rename it" does) silently breaks the device or the link and reports
/// success. So: a non-regular file is written through in place; a regular file, or a new path, is
/// replaced atomically (temp file in the same folder, fsync, rename), so a failed export leaves the
/// old file or no file; a symlink is followed and its target is what is written or replaced.
enum ExportTarget: Equatable {
    /// An existing FIFO, character device or socket: opened and written in place, never replaced.
    case writeThrough(path: String)
    /// A regular file or a new path: `path` is where the finished file is renamed to (a symlink's
    /// target, when `-o` named a link).
    case replace(path: String)

    /// How to write to `path`; a directory (or a path that cannot be inspected) is an error.
    static func resolve(_ path: String) throws(ExportError) -> ExportTarget {
        // `-o /dev/stdout` (or /dev/fd/1, /proc/self/fd/1) with stdout closed at start: the /dev/null put
        // there (`Console.claimStandardStreams`) would take the export and it would pass for written,
        // where `-o -` says it was lost.
        if namesADescriptor(path), Console.stdoutWasClosedAtStart, let named = FileIdentity.of(path),
            named == FileIdentity.of(descriptor: 1)
        {
            throw ExportError.writeFailed(target: "standard output", detail: String(cString: strerror(EBADF)))
        }
        var st = stat()
        if stat(path, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG where namesADescriptor(path):
                // /dev/stdout, /dev/fd/3, /proc/self/fd/1 redirected to a file: the descriptor
                // is what the caller means; renaming over its file would leave the caller's
                // descriptor on an unlinked inode. (A file of its own under /dev, such as
                // /dev/shm/trip.gpx, is replaced like any other.)
                return .writeThrough(path: path)
            case S_IFREG:
                return .replace(path: try finalPath(path))
            case S_IFDIR:
                throw ExportError.cannotCreate(path: path, detail: "it is a folder")
            default:
                return .writeThrough(path: path)
            }
        }
        let statErrno = errno
        guard statErrno == ENOENT else {
            throw ExportError.cannotCreate(path: path, detail: String(cString: strerror(statErrno)))
        }
        // Nothing there, or a symlink whose target does not exist yet: create the target.
        return .replace(path: try finalPath(path))
    }

    /// Whether `path` names one of the process's open descriptors rather than a file: `/dev/stdin`,
    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, or `/proc/self/fd/N` (also `thread-self` or a
    /// process id).
    /// Spelt any way the kernel reads the same (`/dev//stdout`, `/dev/./fd/1`); a task's own
    /// `/proc/PID/task/TID/fd/N` too.
    static func namesADescriptor(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        let parts = path.split(separator: "/").filter { $0 != "." }
        func isNumber(_ s: Substring) -> Bool { !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } }
        func isProcess(_ s: Substring) -> Bool { s == "self" || s == "thread-self" || isNumber(s) }
        switch parts.count {
        case 2:  // dev, stdin | stdout | stderr
            return parts[0] == "dev" && ["stdin", "stdout", "stderr"].contains(parts[1])
        case 3:  // dev, fd, N
            return parts[0] == "dev" && parts[1] == "fd" && isNumber(parts[2])
        case 4:  // proc, self | thread-self | PID, fd, N
            return parts[0] == "proc" && isProcess(parts[1]) && parts[2] == "fd" && isNumber(parts[3])
        case 6:  // proc, self | PID, task, TID, fd, N
            return parts[0] == "proc" && isProcess(parts[1]) && parts[2] == "task" && isNumber(parts[3])
                && parts[4] == "fd" && isNumber(parts[5])
        default:
            return false
        }
    }

    /// `path`, or for a symlink (a chain of them) the file it points to, so that renaming over it
    /// replaces the target and the link stays a link.
    static func finalPath(_ path: String) throws(ExportError) -> String {
        var current = path
        for _ in 0..<40 {  // Linux's own limit on symlinks followed in one lookup
            var lst = stat()
            guard lstat(current, &lst) == 0, (lst.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { throw ExportError.cannotCreate(path: path, detail: String(cString: strerror(errno))) }
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : FileSystemPaths.split(current).folder + "/" + target
        }
        throw ExportError.cannotCreate(path: path, detail: "too many levels of symbolic links")
    }
}

/// Writes an export to `target`: in place for a device or FIFO, atomically for a regular file.
func withExportTarget(_ target: ExportTarget, shownAs shown: String, _ body: (ExportSink) throws(ExportError) -> Void)
    throws(ExportError)
{
    switch target {
    case .writeThrough(let path):
        let fd = Syscall.open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ExportError.cannotCreate(path: shown, detail: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
            // A reopened /dev/stdout starts at offset 0: append, as the shell's `>` or `>>` meant.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND)
        }
        let sink = ExportSink(fd: fd, target: shown)
        try body(sink)
        try sink.flush()
    case .replace(let path):
        try replaceAtomically(path, shownAs: shown, body)
    }
}

private func replaceAtomically(
    _ path: String, shownAs shown: String, _ body: (ExportSink) throws(ExportError) -> Void
) throws(ExportError) {
    let dir = FileSystemPaths.split(path).folder
    let base = path.split(separator: "/").last.map(String.init) ?? "export"
    var template = Array((dir + "/." + base + ".fixcast-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buf -> Int32 in buf.baseAddress.map { mkstemp($0) } ?? -1 }
    guard fd >= 0 else { throw ExportError.cannotCreate(path: shown, detail: String(cString: strerror(errno))) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // An export interrupted by Ctrl-C, kill or a closed terminal leaves no hidden partial file (issue 24);
    // after the rename the name is gone and the unlink finds nothing.
    // Armed only when no other export of this process holds the one slot (0); forgotten only then.
    let armed = csystem_unlink_on_signal(temp) == 0
    defer { if armed { csystem_forget_unlink_on_signal() } }
    // The finished file keeps the mode of the one it replaces, or gets the usual 0666 & ~umask.
    var old = stat()
    let mode: mode_t
    if stat(path, &old) == 0 {
        mode = old.st_mode & 0o7777
    } else {
        let mask = umask(0o022)
        umask(mask)
        mode = 0o666 & ~mask
    }
    fchmod(fd, mode)
    do throws(ExportError) {
        let sink = ExportSink(fd: fd, target: shown)
        try body(sink)
        try sink.flush()
        // On disk before the rename, so a crash cannot leave a renamed but empty file.
        guard Syscall.fsync(fd) == 0 else {
            throw ExportError.writeFailed(target: shown, detail: String(cString: strerror(errno)))
        }
    } catch {
        close(fd)
        unlink(temp)
        throw error
    }
    guard close(fd) == 0 else {
        let detail = String(cString: strerror(errno))
        unlink(temp)
        throw ExportError.writeFailed(target: shown, detail: detail)
    }
    guard rename(temp, path) == 0 else {
        let detail = String(cString: strerror(errno))
        unlink(temp)
        throw ExportError.cannotCreate(path: shown, detail: detail)
    }
    let dirFD = Syscall.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if dirFD >= 0 {
        _ = fsync(dirFD)  // the rename itself durable; a folder that cannot be synced loses nothing written
        close(dirFD)
    }
}

/// `-o PATH` as given on the command line: `-` is standard output, an empty path is a usage error.
package enum OutputPath {
    /// nil for a usable path; otherwise the usage sentence (exit 2).
    package static func problem(_ text: String) -> String? {
        text.isEmpty ? "fixcast: -o needs a file name, or - for standard output." : nil
    }

    /// The usage sentence (exit 2) when `-o TEXT` names the store being read, or one of the files
    /// beside it (`-wal`, `-shm`, `-journal`), however spelt (a link, `./`): the finished export would
    /// be renamed over it, and every recorded reading lost. nil otherwise.
    ///
    /// By the file when it exists, else by its name in the same folder: `-wal` and `-journal` exist
    /// only while the store is written, and an export left as `STORE-journal` was taken by SQLite for
    /// a hot journal (every reading command then failed, and the next writer deleted the export).
    package static func overwritesStore(_ text: String?, storePath: String) -> String? {
        guard let text, text != "-" else { return nil }
        let target = FileIdentity.lookup(text)
        let (folderPath, name) = FileSystemPaths.split(text)
        let folder = FileIdentity.lookup(folderPath)
        let storeFolder = FileIdentity.lookup(FileSystemPaths.split(storePath).folder)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let beside = storePath + suffix
            let same: Bool
            if case .file(let t) = target, case .file(let file) = FileIdentity.lookup(beside) {
                same = t == file
            } else if case .absent = target, case .file(let a) = folder, case .file(let b) = storeFolder {
                same = a == b && name == FileSystemPaths.split(beside).name
            } else {
                same = false
            }
            if same {
                return
                    "fixcast: -o \(TerminalText.path(text)) is the store being read (\(TerminalText.path(beside))); name another file."
            }
        }
        return nil
    }

    /// Where `-o TEXT` (or no `-o`) sends the export.
    package static func destination(_ text: String?) -> ExportDestination {
        guard let text, text != "-" else { return .standardOutput }
        return .file(path: text)
    }
}
