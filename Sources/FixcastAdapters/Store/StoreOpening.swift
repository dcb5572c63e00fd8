internal import CSQLite
import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Decides whether a file may be used as the store, before a byte of it is written, and opens it
/// for a writing command (`run`, `now`) or a reading one (`trips`, `report`, `export`, `status`).
///
/// One judgement for every command (issues 23 and 24): the path is looked at first (missing,
/// unreadable, not a file), then the file is read — whose it is (`StoreOwnership`), its schema version,
/// and `PRAGMA quick_check` — and only a file found to be a sound fixcast store (or a new one) is
/// switched to WAL and migrated. So another program's database, random bytes or a truncated file is
/// refused and left exactly as it was, and a damaged store is refused by `now` as by `export`.
///
/// A reading command never creates a store and never writes one: it opens with SQLITE_OPEN_READONLY,
/// so a store on read-only media or owned by the service user can still be read and exported. A
/// WAL-mode store in a folder this process cannot write has no -shm file to share and cannot get one;
/// it is then opened `immutable=1` when nothing can be writing into a -wal beside it: on read-only
/// media, or with no writes in a -wal there (a -wal this user cannot read on a writable file system is
/// refused as unreadable: the service may be recording into it, and the main file alone is old).
///
/// `fixcast line` alone opens without `quick_check` (`everyPage: false`): a status bar asks every few
/// seconds, and the check reads the whole file each time (~37 MB and ~30 ms of CPU for a year of
/// readings, bench/README.md). It is still judged by header, owner and schema, writes nothing, and a
/// damaged page it does read fails that read (SQLite checks every page it reads) with "is damaged".
enum StoreOpening {
    /// Opens `path` for reading and writing, creating it (and its folder) when missing.
    static func openForWriting(_ path: String) throws(StorageError) -> SQLiteConnection {
        try checkPath(path, creating: true)
        let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
        configure(db)
        try judge(db)
        // SQLite falls back to reading when it may not write (a read-only file system, a file of
        // another user's): a writer that can store nothing says so at once, not at every reading
        // (`run` stops at start, as for a store that cannot be opened at all).
        if db.isReadOnly { throw .readOnly(path: path) }
        // journal_mode answers with the mode it ended up in; a filesystem without shared
        // memory keeps "delete", which is still crash-safe, just slower.
        _ = try db.scalarText("PRAGMA journal_mode=WAL")
        try db.execute("PRAGMA synchronous=NORMAL")
        // A -wal grown large (a migration of a big store: 52 MB) is cut back to this after each
        // checkpoint instead of keeping its size for the life of `run`; 4 MiB is the default
        // autocheckpoint's 1,000 pages, what a -wal holds in the normal course.
        _ = try db.scalarInt("PRAGMA journal_size_limit=\(Self.walSizeLimitBytes)")
        try db.execute("PRAGMA foreign_keys=ON")
        try SQLiteStore.migrate(db)
        return db
    }

    /// Opens an existing store at `path` for reading only; never creates or changes a file.
    /// `everyPage: false` leaves out `quick_check` (see the type's comment: `fixcast line` only).
    static func openForReading(_ path: String, everyPage: Bool = true) throws(StorageError) -> SQLiteConnection {
        try checkPath(path, creating: false)
        var db = try SQLiteConnection(path: path, mode: .readOnly)
        configure(db)
        do {
            try judge(db, everyPage: everyPage)
        } catch let error where Self.lacksSharedMemory(error) && !folderIsWritable(path) {
            // A WAL store on read-only media: see the type's comment. Not while a -wal stands beside it
            // on a file system that can be written: a writer (the service) may be recording into it,
            // and the main file alone is old. That -wal (or its -shm) is not readable by this user.
            if walHoldsWrites(path), !fileSystemIsReadOnly(path) {
                throw .unreadable(
                    path: path + "-wal",
                    detail:
                        "it holds the store's newest writes, and it or the -shm beside it is not readable by this user")
            }
            db = try SQLiteConnection(path: path, mode: .immutable)
            configure(db)
            try judge(db, everyPage: everyPage)
        }
        let version = try schemaVersion(db)
        // An empty database (a 0-byte file, as `touch` or `mktemp` leaves) holds no store yet: a
        // reader says so as for a missing file, not "an older schema" (a writer claims the file).
        if version == 0, try db.scalarInt("SELECT count(*) FROM sqlite_master") == 0 {
            throw StorageError.missing(path: path)
        }
        if version < StoreSchema.currentVersion {
            throw StorageError.needsUpgrade(path: path, version: version, current: StoreSchema.currentVersion)
        }
        return db
    }

    static let walSizeLimitBytes = 4 * 1024 * 1024

    private static func configure(_ db: SQLiteConnection) {
        db.setBusyTimeout(milliseconds: SQLiteStore.busyTimeoutMs)
        db.setDefensive()
    }

    /// The store's schema version (`PRAGMA user_version`, 0 for a new file), when it is one this fixcast
    /// can read or bring up to date: a newer one is refused, and a negative one (the header field is a
    /// signed 32-bit number no fixcast writes below 0; a flipped bit) is damage, not a version to migrate
    /// from (`migrations[-1]` trapped).
    static func schemaVersion(_ db: SQLiteConnection) throws(StorageError) -> Int {
        let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        if version > StoreSchema.currentVersion { throw StorageError.newerSchema(path: db.path, version: version) }
        if version < 0 {
            throw StorageError.corrupt(path: db.path, detail: "its schema version \(version) is not one fixcast writes")
        }
        return version
    }

    /// Reads (never writes) whether the open file is a sound fixcast store, or one to claim.
    static func judge(_ db: SQLiteConnection, everyPage: Bool = true) throws(StorageError) {
        _ = try StoreOwnership.check(db)
        _ = try schemaVersion(db)
        guard everyPage else { return }
        // quick_check: every page and index entry in the file is readable and well-formed (it skips
        // only integrity_check's cross-checks of indexes against tables), so a store that a full
        // read would find damaged is found damaged here, by every command alike.
        let verdict = try db.scalarText("PRAGMA quick_check") ?? "ok"
        if verdict != "ok" {
            throw StorageError.corrupt(path: db.path, detail: quickCheckSummary(verdict))
        }
    }

    /// `quick_check`'s report ("*** in database main ***", then one line a problem, such as "Page 27:
    /// btreeInitPage() returns error code 11") as a short phrase for the one-sentence error: the one
    /// problem when there is one short line, else how many problems SQLite found. Never a line cut
    /// mid-word: SQLite's internals mean nothing to the reader beyond "damaged".
    static func quickCheckSummary(_ verdict: String) -> String {
        let problems = verdict.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("***") }
        if problems.count == 1, let only = problems.first, only.count <= 100 {
            return "SQLite's check says: \(only)"
        }
        return problems.count == 1
            ? "SQLite's check found a problem" : "SQLite's check found \(problems.count) problems"
    }

    /// What the path itself says before SQLite is asked: not a file, missing, or not readable.
    static func checkPath(_ path: String, creating: Bool) throws(StorageError) {
        // A folder, a device or a FIFO is never a store: SQLite would fail late and obscurely, or (a
        // device such as /dev/null) seem to work while keeping nothing and leave a -wal file beside it.
        if let kind = FileSystemPaths.nonRegularKind(path) {
            throw StorageError.cannotOpen(path: path, detail: "it is \(kind), not a database file")
        }
        var st = stat()
        if stat(path, &st) == 0 {
            if access(path, R_OK) != 0 {
                throw StorageError.unreadable(path: path, detail: String(cString: strerror(errno)))
            }
            if let problem = headerProblem(path, size: Int64(st.st_size)) {
                throw StorageError.corrupt(path: path, detail: problem)
            }
            return
        }
        let err = errno
        switch err {
        case ENOENT:
            guard creating else { throw StorageError.missing(path: path) }
            try FileSystemPaths.createParentDirectories(of: path)
            // Made 0600 before SQLite opens it (the -wal and -shm take its mode): the store is a history
            // of where the machine has been, and left to the umask it was readable by every user.
            let fd = Syscall.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        case EACCES:
            throw StorageError.unreadable(path: path, detail: unsearchableFolder(of: path))
        default:
            throw StorageError.cannotOpen(path: path, detail: String(cString: strerror(err)))
        }
    }

    /// What the file's first 100 bytes (SQLite's header) say is wrong, before SQLite opens it: not an
    /// SQLite file, or shorter than the header's own page count (a truncated copy). Judged here because
    /// SQLite would otherwise open a WAL-mode file's -wal and -shm beside it first, even to refuse it.
    static func headerProblem(_ path: String, size: Int64) -> String? {
        guard size > 0 else { return nil }  // an empty file is an empty database: a new store
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }  // SQLite will say why
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        let n = read(fd, &header, 100)
        let magic = Array("SQLite format 3".utf8) + [0]
        guard n == 100, Array(header[0..<16]) == magic else { return "it is not an SQLite database" }
        func u32(_ at: Int) -> Int64 { header[at..<at + 4].reduce(0) { $0 << 8 | Int64($1) } }
        let rawPageSize = Int64(header[16]) << 8 | Int64(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pages = u32(28)
        // The header's page count is valid only when its change counter matches "version-valid-for";
        // with a -wal file beside it, committed pages may live there, so only a clean file is judged.
        let countIsValid = u32(24) == u32(92) && pages > 0
        if countIsValid, access(path + "-wal", F_OK) != 0, size < pages * pageSize {
            return "the file is shorter than its header says: a truncated copy"
        }
        return nil
    }

    /// "permission denied on the folder F": the first folder on the way to `path` this user cannot enter.
    private static func unsearchableFolder(of path: String) -> String {
        let blocked = FileSystemPaths.ancestors(of: path).last { access($0, X_OK) != 0 }
        return blocked.map { "permission denied on the folder \($0)" } ?? "permission denied"
    }

    /// The error SQLite gives a read-only reader of a WAL file whose -shm it can neither open nor create.
    private static func lacksSharedMemory(_ error: StorageError) -> Bool {
        switch error {
        case .cannotOpen, .readOnly: return true
        default: return false
        }
    }

    private static func folderIsWritable(_ path: String) -> Bool {
        access(FileSystemPaths.parent(of: path), W_OK) == 0
    }

    /// Whether a -wal beside `path` holds anything (an empty one, as a reader leaves, holds nothing).
    private static func walHoldsWrites(_ path: String) -> Bool {
        var info = stat()
        return stat(path + "-wal", &info) == 0 && info.st_size > 0
    }

    /// Whether `path` is on a file system mounted read-only, where nothing can be writing.
    private static func fileSystemIsReadOnly(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }
}
