import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The few file-system facts the store needs, through POSIX calls (no FileManager).
enum FileSystemPaths {
    static func join(_ base: String, _ relative: String) -> String {
        base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    /// Whether `path` is a folder (following symlinks).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether anything is at `path` (following symlinks).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The folder holding `path`, as dirname(1) says it: "." for a bare name, "/" for the root and
    /// what is directly in it; trailing slashes are not a level. The parent of "/" and of "." is
    /// itself, so a walk up stops when the parent stops changing.
    static func parent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.last == "/" { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        var head = p[..<slash]
        while head.count > 1, head.last == "/" { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }

    /// A path's folder ("." for a bare name, "/" at the root) and last component, as written (no
    /// trailing slash taken off: for a file's path, where `parent(of:)` walks folders).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        return (folder, String(path[path.index(after: slash)...]))
    }

    /// The folders holding `path`, innermost first: its parent, that one's parent, and so on to "/"
    /// (or "." for a relative path), where the parent stops changing.
    static func ancestors(of path: String) -> [String] {
        var folders = [parent(of: path)]
        while let last = folders.last {
            let up = parent(of: last)
            if up == last { break }
            folders.append(up)
        }
        return folders
    }

    /// `mkdir -p` of the folder holding `path`, private to the user (0700): the store holds a
    /// history of where the machine has been.
    static func createParentDirectories(of path: String) throws(StorageError) {
        let dir = parent(of: path)
        guard dir != "." else { return }
        var built = dir.hasPrefix("/") ? "" : "."
        for component in dir.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                let detail = String(cString: strerror(errno))
                throw StorageError.cannotOpen(path: path, detail: "cannot create \(built): \(detail)")
            }
        }
    }

    /// What is at `path` when it is there but is not a regular file (following symlinks): "a folder",
    /// "a device", … ; nil for a regular file or nothing at all.
    static func nonRegularKind(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "something other than a file"
        }
    }

    static func fileSize(_ path: String) -> Int64 {
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        return Int64(st.st_size)
    }

    /// The home folder from the password database, for a process started without `$HOME`.
    static func passwdHome() -> String? {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        let home = String(cString: dir)
        return home.isEmpty ? nil : home
    }
}
