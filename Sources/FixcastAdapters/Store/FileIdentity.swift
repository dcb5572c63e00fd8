import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Which file a path names (its device and inode), so an open store can tell that the file at its path
/// is no longer the one it opened: deleted (a person starting afresh) or replaced (a backup put back).
public struct FileIdentity: Sendable, Hashable {
    public let device: UInt64
    public let inode: UInt64

    /// The file at `path` now (following symlinks); nil when there is none or it cannot be looked at
    /// (`lookup` tells the two apart).
    public static func of(_ path: String) -> FileIdentity? {
        guard case .file(let file) = lookup(path) else { return nil }
        return file
    }

    /// What is at a path: a file, nothing (no such file, or a folder on its way is missing), or a path
    /// that cannot be looked at (a folder on its way that this user may not enter, a file where a folder
    /// should be), with the system's reason.
    public enum Lookup: Sendable, Hashable {
        case file(FileIdentity)
        case absent
        case unreachable(errno: Int32)
    }

    /// The file at `path` now (following symlinks), telling "nothing there" from "cannot look".
    public static func lookup(_ path: String) -> Lookup {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT ? .absent : .unreachable(errno: code)
        }
        return .file(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// The file open on `fd`; nil when `fd` is not open.
    public static func of(descriptor fd: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// The store's file and its WAL's two beside it, as opened (`SQLiteStore.followPath`). A store opened
/// to write has read its schema, so in WAL mode both are there by then, and they stay while it is open.
struct StoreFiles {
    let main: FileIdentity?
    let wal: FileIdentity?
    let shm: FileIdentity?

    init(at path: String) {
        main = FileIdentity.of(path)
        wal = FileIdentity.of(path + "-wal")
        shm = FileIdentity.of(path + "-shm")
    }
}
