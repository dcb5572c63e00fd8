import FixcastCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one `fixcast run` recording into a store: an advisory `flock` on a file beside it
/// (`STORE.run-lock`, holding the holder's process id), taken at start and held for the run's life.
///
/// Two agents on one store with one gpsd write every track point twice, and trips and reports then
/// count the distance twice (issue 23), so the second `run` is refused, naming the first. Only `run`
/// takes it: `now`, `trips`, `export`, `report` and `status` work beside a running agent, as SQLite's
/// own locking lets them. The kernel drops the lock when the process ends, however it ends, so a
/// killed agent never leaves a stale lock; the file itself stays (an empty lock file is harmless).
public final class StoreRunLock: Sendable {
    private let storePath: String
    /// The locked lock file's descriptor; -1 when none could be made (`retake`).
    private let fd: Mutex<Int32>

    /// The lock file beside the store.
    static let lockSuffix = ".run-lock"
    var lockPath: String { Self.lockPath(storePath) }

    /// The lock file of the store at `storePath`: beside the file it names, a symlink followed, so that
    /// `--db link.sqlite` and `--db real.sqlite` take one lock (each had its own, and two runs recorded
    /// into one store).
    static func lockPath(_ storePath: String) -> String {
        guard let resolved = realpath(storePath, nil) else { return storePath + lockSuffix }
        defer { free(resolved) }
        return String(cString: resolved) + lockSuffix
    }

    private init(storePath: String, fd: Int32) {
        self.storePath = storePath
        self.fd = Mutex(fd)
    }

    deinit {
        let held = fd.withLock { $0 }
        if held >= 0 { close(held) }
    }

    /// Takes the lock for the store at `storePath`. Throws `StorageError.heldByRun` when another
    /// process holds it; returns nil when no lock file can be made beside the store (a read-only
    /// folder: then nothing can record into that store either, and the run says so as it writes) or
    /// the file system keeps no locks (ENOLCK). Throws `runLock` naming the lock file when it is
    /// there but cannot be opened (one root left, a symlink): running without it was silent, and a
    /// second run on the store was not refused. One made by root beside another user's store is
    /// given to that user.
    public static func acquire(storePath: String) throws(StorageError) -> StoreRunLock? {
        guard let fd = try locked(storePath) else { return nil }
        return StoreRunLock(storePath: storePath, fd: fd)
    }

    /// Takes the lock again, on the lock file now beside the store: the store was deleted or replaced
    /// while `run` recorded (`SQLiteStore.followPath`), its lock file went with it, and a second `run`
    /// on the new store would not be refused. Throws `heldByRun` when one already holds it. When the
    /// lock file stayed (only the store was moved or deleted), the lock held is still the one beside
    /// the store and nothing is done: a second open of it would be refused by this run's own lock.
    public func retake() throws(StorageError) {
        let held = fd.withLock { $0 }
        if held >= 0, let identity = FileIdentity.of(descriptor: held), identity == FileIdentity.of(lockPath) {
            return
        }
        guard let new = try Self.locked(storePath) else { return }
        let old = fd.withLock { current in
            defer { current = new }
            return current
        }
        if old >= 0 { close(old) }
    }

    /// A descriptor of the store's lock file, locked and holding this process's id; nil when no lock
    /// file can be made.
    private static func locked(_ storePath: String) throws(StorageError) -> Int32? {
        let path = lockPath(storePath)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let err = errno
            let folder = FileSystemPaths.split(path).folder
            // Nothing can be made in the folder: nothing can record into the store there either.
            if err == EROFS || (err == EACCES && access(folder, W_OK) != 0) { return nil }
            let why =
                switch err {
                case ELOOP: "it is a symbolic link"
                case EACCES, EPERM: "it belongs to another user, as one left by sudo fixcast run does"
                default: String(cString: strerror(err))
                }
            throw StorageError.runLock(path: path, detail: why)
        }
        // Made by root (`sudo fixcast run`) beside another user's store: given to the store's owner,
        // as SQLite gives its -wal and -shm, or the service could not open it at its next start.
        var store = stat()
        if geteuid() == 0, stat(storePath, &store) == 0, store.st_uid != 0 {
            _ = fchown(fd, store.st_uid, store.st_gid)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let err = errno
            let holder = err == EWOULDBLOCK ? holderPID(fd) : nil
            close(fd)
            if err == EWOULDBLOCK { throw StorageError.heldByRun(path: storePath, pid: holder) }
            return nil
        }
        var text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, &text, text.count, 0)
        return fd
    }

    /// The process id the holder wrote, when the file holds one.
    private static func holderPID(_ fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[0..<n].filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
        guard let pid = Int(text), pid > 0 else { return nil }
        return pid
    }
}
