internal import CSQLite
import Dispatch
import FixcastCore
import FixcastText
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// fixcast's one database file: readings, the thinned track, the last known position, the
/// weather and place caches, and small state (CONTRACT.md "Store and exports").
///
/// WAL with `synchronous=NORMAL`: a commit is a single append to the WAL, so a kill -9 at any
/// moment keeps every committed row and leaves a file that passes `PRAGMA integrity_check`
/// (only a power cut can lose the last commits, which an SD card on a Pi would pay dearly to
/// prevent with FULL). A 5 s busy timeout lets `fixcast now` write while `fixcast run` does.
///
/// Its isolated code runs on a thread of its own (`ThreadExecutor`), never on Swift's cooperative
/// pool: a commit blocks in write(2) and fsync(2), and the pool has only one thread per core.
public actor SQLiteStore {
    public nonisolated let path: String
    /// The open connection; replaced when the file at `path` is (`followPath`).
    var db: SQLiteConnection
    let clock: any WallClock
    /// The files a store opened to write holds open; nil for a reading one (`followPath`).
    private var openedFiles: StoreFiles?
    private nonisolated let replacedHandlers = Mutex<[@Sendable (String) -> Void]>([])
    private nonisolated let executor = ThreadExecutor(name: "fixcast-sqlite")

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `work` on the store's thread without a task, for callers that are not async (the agent's
    /// event loop hands over track points this way). Work runs in the order it was handed over.
    public nonisolated func perform(_ work: @escaping @Sendable (isolated SQLiteStore) -> Void) {
        executor.execute { self.assumeIsolated { work($0) } }
    }

    deinit {
        executor.shutdown()
    }

    /// How long a writer waits for another process's lock before giving up.
    static let busyTimeoutMs: Int32 = 5_000

    /// Opens (creating it and its folder when missing) the store at `path` and brings its schema
    /// up to date, for a command that writes (`run`, `now`).
    public init(path: String) throws(StorageError) {
        try self.init(path: path, readOnly: false, clock: SystemClock())
    }

    /// `readOnly` opens an existing store without the right to write (SQLITE_OPEN_READONLY; every
    /// write then fails with `StorageError.readOnly`), for the reading commands: it never creates a
    /// store (`StorageError.missing`) and never changes the file. `clock` stamps cache rows.
    /// Either way the file is judged before anything is written (`StoreOpening`).
    public init(path: String, readOnly: Bool, clock: any WallClock = SystemClock()) throws(StorageError) {
        self.path = path
        self.clock = clock
        let connection = try readOnly ? StoreOpening.openForReading(path) : StoreOpening.openForWriting(path)
        readsMainFileAlone = connection.mode == .immutable
        db = connection
        openedFiles = readOnly ? nil : StoreFiles(at: path)
        if !readOnly {
            Self.writers.withLock { list in
                list.removeAll { $0.store == nil }
                list.append(OpenWriter(store: self))
            }
        }
    }

    /// A store this process opened to write, until it is gone.
    private struct OpenWriter: @unchecked Sendable {  // a weak reference, read only under `writers`' lock
        weak var store: SQLiteStore?
    }
    private static let writers = Mutex<[OpenWriter]>([])

    /// Closes every store this process opened to write, each on its own thread, and waits for them
    /// (at most `seconds` each): for the end of the process, which `_exit`s (`exitProcess`) and so
    /// would leave a connection open when its store was still referenced. SQLite's last close copies
    /// the -wal into the file and deletes it and the -shm, so the store is one file again (a copy of
    /// it holds every reading) and no side file outlives the command with the mode it was made with.
    /// `now` left its -wal one time in two, `run` stopped by SIGTERM one time in two.
    public static func closeWritersForExit(waitingAtMost seconds: Double = 2) {
        let open = writers.withLock { list in
            defer { list.removeAll() }
            return list.compactMap(\.store)
        }
        for store in open {
            let done = DispatchSemaphore(value: 0)
            store.perform { isolated in
                isolated.db.close()
                done.signal()
            }
            _ = done.wait(timeout: DispatchTime.now() + seconds)
        }
        // A store released just before (its last reference dropped on another thread) closes its
        // connection as it goes: waited for too, or `_exit` would cut that close short.
        let deadline = Syscall.monotonicSeconds() + seconds
        while SQLiteConnection.openWriters.load(ordering: .acquiring) > 0, Syscall.monotonicSeconds() < deadline {
            usleep(1_000)
        }
    }

    /// Opens the store at `path` for a reading command (`trips`, `report`, `export`, `status`).
    public static func forReading(path: String) throws(StorageError) -> SQLiteStore {
        try SQLiteStore(path: path, readOnly: true)
    }

    /// Opens the store at `path` read-only for a status bar's glance (`fixcast line`, every few
    /// seconds): judged as for `forReading` but without reading every page (`StoreOpening`).
    public static func forGlance(path: String) throws(StorageError) -> SQLiteStore {
        try SQLiteStore(path: path, connection: StoreOpening.openForReading(path, everyPage: false))
    }

    private init(path: String, connection: SQLiteConnection) {
        self.path = path
        self.clock = SystemClock()
        readsMainFileAlone = connection.mode == .immutable
        db = connection
    }

    /// Opened `immutable` (a WAL store in a folder this user cannot write, with no -wal beside it at the
    /// open): what a writer commits later goes to a -wal this connection never reads, so a reader that
    /// stays (`line --watch`) opens the store again for each look.
    public nonisolated let readsMainFileAlone: Bool

    /// Adds `handler`, called (on the store's thread) with the store's path each time `followPath`
    /// opened a new file: `run` says so once on stderr, and takes its run lock again.
    public nonisolated func onReplaced(_ handler: @escaping @Sendable (String) -> Void) {
        replacedHandlers.withLock { $0.append(handler) }
    }

    /// Keeps the store the file at `path`. A store opened to write holds its file open, and a person
    /// may delete it (to start afresh, `rm -rf ~/.local/share/fixcast`) or put another in its place
    /// while `run` records: SQLite would go on writing into the deleted file, which nobody can open
    /// again, and `run` would report every reading stored. So before the writes that hold what was
    /// recorded (a reading, the track), the file at `path` is compared with the one opened; when it
    /// differs, the connection is closed, and the file now at `path` opened, made anew (with its
    /// folder) when missing. SQLite leaves the old file's -wal and -shm at the path when its file was
    /// moved away, and a new file there would replay the old pages from them: those two go first, when
    /// they are still the ones the old connection had (a -wal put there with a restored file stays).
    /// When the opening fails, this write fails with the reason, and each later write tries again.
    /// Caches and state written between go to the old file: they are only caches.
    func followPath() throws(StorageError) {
        guard let opened = openedFiles, FileIdentity.of(path) != opened.main else { return }
        db.close()
        for (suffix, identity) in [("-wal", opened.wal), ("-shm", opened.shm)] {
            if let identity, FileIdentity.of(path + suffix) == identity { unlink(path + suffix) }
        }
        db = try StoreOpening.openForWriting(path)
        openedFiles = StoreFiles(at: path)
        for handler in replacedHandlers.withLock({ $0 }) { handler(path) }
    }

    /// `$XDG_DATA_HOME/fixcast/fixcast.sqlite`, else `~/.local/share/fixcast/fixcast.sqlite`.
    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return FileSystemPaths.join(xdg, "fixcast/fixcast.sqlite")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileSystemPaths.passwdHome()
        guard let home else { return "fixcast.sqlite" }
        return FileSystemPaths.join(home, ".local/share/fixcast/fixcast.sqlite")
    }

    /// The store path to open: `configured` (`--db`, else `storage.path`) with a leading `~/`
    /// expanded, or `defaultPath` when it is empty.
    public static func resolvedPath(configured: String, environment: [String: String]) -> String {
        if configured.isEmpty { return defaultPath(environment: environment) }
        if configured.hasPrefix("~/"),
            let home = environment["HOME"].flatMap({ $0.isEmpty ? nil : $0 }) ?? FileSystemPaths.passwdHome()
        {
            return FileSystemPaths.join(home, String(configured.dropFirst(2)))
        }
        return configured
    }

    static func migrate(_ db: SQLiteConnection) throws(StorageError) {
        let known = StoreSchema.currentVersion
        let version = try StoreOpening.schemaVersion(db)
        let owner = try StoreOwnership.check(db)
        if version == known {
            if owner == .unclaimed, !db.isReadOnly { try StoreOwnership.claim(db) }
            return
        }
        try db.transaction { () throws(StorageError) in
            // Read again under the write lock: another process may have migrated meanwhile.
            let current = try StoreOpening.schemaVersion(db)
            if try StoreOwnership.check(db) == .unclaimed { try StoreOwnership.claim(db) }
            for step in current..<known {
                try db.execute(StoreSchema.migrations[step])
                try db.execute("PRAGMA user_version = \(step + 1)")
            }
        }
    }

    /// The schema version of the file (`PRAGMA user_version`).
    public func schemaVersion() throws(StorageError) -> Int {
        Int(try db.scalarInt("PRAGMA user_version") ?? 0)
    }

    /// `PRAGMA integrity_check` said "ok".
    public func integrityCheck() throws(StorageError) -> Bool {
        try db.scalarText("PRAGMA integrity_check") == "ok"
    }

    /// The size on disk of the database and its WAL.
    public nonisolated func fileSizeBytes() -> Int64 {
        FileSystemPaths.fileSize(path) + FileSystemPaths.fileSize(path + "-wal")
    }

    // MARK: Readings

    /// Stores a reading, and the ahead forecast it carries, in one transaction; returns its row id.
    @discardableResult
    public func insertReading(_ reading: Reading) throws(StorageError) -> Int64 {
        try followPath()
        return try db.transaction { () throws(StorageError) -> Int64 in try insertReadingRow(reading) }
    }

    /// The reading's row and its ahead forecast (`linkAhead`), in the caller's transaction.
    func insertReadingRow(_ reading: Reading) throws(StorageError) -> Int64 {
        let stmt = try db.prepare(ReadingRow.insertSQL)
        try stmt.bindAll(ReadingRow.values(of: reading))
        _ = try stmt.step()
        let row = db.lastInsertRowID
        if let ahead = reading.ahead { try linkAhead(ahead, toReading: row) }
        return row
    }

    /// What a reading is read back from: its JSON (column 0), then its ahead forecast's row and mark.
    static let readingColumns = "json, ahead_id, ahead_stale"

    /// The reading stored last, or nil when none is stored. By its row, not its time: a reading stamped
    /// by a clock that ran ahead (a Pi without a real-time clock, set right later) hid every newer one.
    public func lastReading() throws(StorageError) -> Reading? {
        let stmt = try db.prepare("SELECT \(Self.readingColumns) FROM readings ORDER BY id DESC LIMIT 1")
        guard try stmt.step() else { return nil }
        return try readingRow(stmt)
    }

    public func readingCount() throws(StorageError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM readings") ?? 0)
    }

    /// A reading's time for an export's range and order: its trip time (`readingTripTime`: the fix's
    /// time, so a replayed log's readings export with the log's trip), or its own time where it has
    /// none (a position given by hand is in no trip, but is still exported). A reading without a usable
    /// fix time is dated by the fixes around it instead (`forEachReading(since:until:dating:_:)`).
    static let readingExportTime = "coalesce(\(readingTripTime), time)"

    /// The reading in the current row of a `readingColumns` query, with its stored ahead forecast.
    func readingRow(_ stmt: SQLiteStatement) throws(StorageError) -> Reading {
        try withStoredAhead(decodeReading(stmt.text(0)), stmt, aheadColumn: 1)
    }

    private func decodeReading(_ text: String?) throws(StorageError) -> Reading {
        guard let text, let json = try? JSONValue.parse(text), let reading = Reading(json: json) else {
            throw StorageError.corrupt(path: path, detail: "a stored reading is not readable JSON")
        }
        return reading
    }

    // MARK: Track

    /// Appends fixes to the track and, when given, saves the last-known position, in one transaction
    /// (all or none; one commit: the agent hands both over together every few seconds).
    public func appendTrackPoints(_ fixes: [Fix], lastKnown: Position? = nil) throws(StorageError) {
        try followPath()
        guard !fixes.isEmpty || lastKnown != nil else { return }
        try db.transaction { () throws(StorageError) in
            if let lastKnown { try saveLastKnownPosition(lastKnown) }
            guard !fixes.isEmpty else { return }
            let stmt = try db.kept(
                "INSERT INTO track_points (time, lat, lon, alt_m, speed_mps, track_deg, mode, fix_time) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
            )
            for fix in fixes {
                try stmt.bindAll([
                    .of(fix.receivedAt), .double(fix.coordinate.lat), .double(fix.coordinate.lon), .of(fix.altitudeM),
                    .of(fix.speedMps), .of(fix.trackDeg), .text(fix.mode.rawValue), .of(fix.time),
                ])
                _ = try stmt.step()
                try stmt.reset()
            }
        }
    }

    public func trackPointCount() throws(StorageError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM track_points") ?? 0)
    }

    /// Which time of a track point a range is taken in.
    public enum TrackPointTime: Sendable {
        /// As `trips`, `report` and the exports date a point (`forEachTrackPoint(since:until:dating:_:)`:
        /// the receiver's time, or the dated fixes' around it, else the receive time), so a replayed log
        /// keeps the log's times.
        case track
        /// When fixcast received it: "the last 20 minutes" of the wall clock (weather ahead).
        case received
    }

    /// Calls `body` with each track point whose time (`by`) is in [since, until], in that order,
    /// one row at a time. The point comes back as the `Fix` it was stored from (the error estimates
    /// and satellite count are not kept in the track). `.track` dates the points with the default trip gap.
    public func forEachTrackPoint(
        since: Date?, until: Date?, by time: TrackPointTime = .track, _ body: (Fix) throws -> Void
    ) throws {
        guard time == .received else {
            let undated = try undatedTripTimes(gapMinutes: TripSplitter.defaultGapMinutes)
            return try forEachTrackPoint(since: since, until: until, dating: undated) { try body($1) }
        }
        let (lo, hi) = Self.bounds(since, until)
        let stmt = try db.prepare(
            "SELECT \(Self.trackPointColumns) FROM track_points WHERE time BETWEEN ?1 AND ?2 ORDER BY time, id")
        try stmt.bind(1, lo)
        try stmt.bind(2, hi)
        while try stmt.step() {
            // A point received at no believable time (outside 1970–2200) is left out, not exported as one.
            guard stmt.date(0) != nil else { continue }
            guard let fix = Self.fix(stmt) else {
                throw StorageError.corrupt(path: path, detail: "a stored track point is out of range")
            }
            try body(fix)
        }
    }
}

extension SQLiteStore {
    /// Caps the file at `pages` pages (SQLite's `max_page_count`); a write past it fails as a
    /// full disk would (SQLITE_FULL). How tests reach `StorageError.diskFull` without filling a disk.
    func limitFileSize(pages: Int) throws(StorageError) {
        _ = try db.scalarInt("PRAGMA max_page_count = \(pages)")
    }

    /// Pages the file holds now.
    func pageCount() throws(StorageError) -> Int {
        Int(try db.scalarInt("PRAGMA page_count") ?? 0)
    }
}

extension SQLiteStore: AgentStore {}
