internal import CSQLite
import FixcastCore
import FoundationEssentials
import Synchronization

/// One open SQLite connection: every call goes through `check`, which turns sqlite's result code
/// and message into a `StorageError`.
///
/// Not thread-safe (opened with SQLITE_OPEN_NOMUTEX), so not `Sendable`: it lives inside the
/// `SQLiteStore` actor, and the compiler keeps it there (the habit of SwiftPM's `Basics/SQLite`).
final class SQLiteConnection {
    let path: String
    /// How it was opened: `.immutable` reads the main file alone (`StoreOpening`).
    let mode: OpenMode
    private let db: OpaquePointer
    /// Statements compiled once and kept for the connection's life (see `kept`).
    private var keptStatements: [String: OpaquePointer] = [:]
    /// Closed early (`close`): every later call fails with a `StorageError`, none touches the handle.
    private var closed = false

    /// How a connection opens its file.
    enum OpenMode {
        /// Read and write, creating the file when it is missing.
        case readWriteCreate
        /// Read only (SQLITE_OPEN_READONLY): never creates, never writes the database.
        case readOnly
        /// Read only with `immutable=1`: SQLite takes no lock and looks for no -wal or -shm, for a
        /// WAL-mode file on read-only media (nothing can be writing to it there).
        case immutable
    }

    /// Opens the database file at `path` as `mode` says.
    /// Connections opened to write and not closed yet, in this process: the end of the process waits
    /// for a close that another thread is in the middle of (`SQLiteStore.closeWritersForExit`).
    static let openWriters = Atomic<Int>(0)

    init(path: String, mode: OpenMode) throws(StorageError) {
        self.path = path
        self.mode = mode
        var handle: OpaquePointer?
        let rc: Int32
        switch mode {
        case .readWriteCreate: rc = csqlite_open(path, 0, &handle)
        case .readOnly: rc = csqlite_open(path, 1, &handle)
        case .immutable: rc = csqlite_open_immutable(Self.immutableURI(path), &handle)
        }
        guard rc == SQLITE_OK, let handle else {
            let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteConnection.error(code: rc, detail: detail, path: path, opening: true)
        }
        db = handle
        if mode == .readWriteCreate { Self.openWriters.add(1, ordering: .relaxed) }
    }

    /// `file:` URI of `path` with `immutable=1`; `%`, `?` and `#` escaped, as SQLite's URI rules need.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for c in path.unicodeScalars {
            switch c {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(c)
            }
        }
        // "file:///abs/path" keeps an absolute path that starts with "//" from being read as a host.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?immutable=1"
    }

    deinit { close() }

    /// Closes the connection now (the store's file was deleted or replaced: `SQLiteStore.followPath`,
    /// which then removes the -wal and -shm SQLite leaves at the path when the file was moved away).
    func close() {
        guard !closed else { return }
        closed = true
        for stmt in keptStatements.values { sqlite3_finalize(stmt) }
        keptStatements = [:]
        // close_v2 defers the close until every statement is finalized, so a leaked statement
        // cannot keep the file half-closed.
        sqlite3_close_v2(db)
        if mode == .readWriteCreate { Self.openWriters.subtract(1, ordering: .releasing) }
    }

    /// Throws when the connection was closed early.
    private func checkOpen() throws(StorageError) {
        if closed { throw StorageError.failed(path: path, detail: "the connection to the store was closed") }
    }

    /// How long a statement waits for another connection's lock before SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(db, milliseconds) }

    /// Refuses the few statements that could corrupt the file on purpose (SQLITE_DBCONFIG_DEFENSIVE).
    func setDefensive() { _ = csqlite_set_defensive(db, 1) }

    /// Whether the connection can only read (a read-only open, or a file sqlite could not open for writing).
    var isReadOnly: Bool { closed || sqlite3_db_readonly(db, "main") == 1 }

    /// Turns a result code into a `StorageError`; SQLITE_OK, SQLITE_ROW and SQLITE_DONE pass.
    @discardableResult
    func check(_ rc: Int32) throws(StorageError) -> Int32 {
        if rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE { return rc }
        throw SQLiteConnection.error(code: rc, detail: String(cString: sqlite3_errmsg(db)), path: path, opening: false)
    }

    static func error(code rc: Int32, detail: String, path: String, opening: Bool) -> StorageError {
        switch rc & 0xFF {  // the primary code of an extended result code
        case SQLITE_FULL: return .diskFull(path: path)
        case SQLITE_BUSY: return .busy(path: path, waitedS: Int(SQLiteStore.busyTimeoutMs / 1000))
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(path: path, detail: detail)
        case SQLITE_CANTOPEN: return .cannotOpen(path: path, detail: detail)
        case SQLITE_PERM, SQLITE_AUTH: return opening ? .cannotOpen(path: path, detail: detail) : .readOnly(path: path)
        default: return opening ? .cannotOpen(path: path, detail: detail) : .failed(path: path, detail: detail)
        }
    }

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws(StorageError) {
        try checkOpen()
        try check(sqlite3_exec(db, sql, nil, nil, nil))
    }

    func prepare(_ sql: String) throws(StorageError) -> SQLiteStatement {
        try checkOpen()
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v2(db, sql, -1, &stmt, nil))
        guard let stmt else { throw StorageError.failed(path: path, detail: "empty statement: \(sql)") }
        return SQLiteStatement(stmt, connection: self)
    }

    /// `sql` compiled on first use and kept, for the statements the agent runs every few seconds for
    /// hours (the track's writes and their BEGIN/COMMIT): compiling them again each time was a large
    /// share of a write's CPU at 1 Hz. The statement comes back reset when the returned value goes.
    func kept(_ sql: String) throws(StorageError) -> SQLiteStatement {
        try checkOpen()
        if let stmt = keptStatements[sql] { return SQLiteStatement(stmt, connection: self, kept: true) }
        var stmt: OpaquePointer?
        try check(sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil))
        guard let stmt else { throw StorageError.failed(path: path, detail: "empty statement: \(sql)") }
        keptStatements[sql] = stmt
        return SQLiteStatement(stmt, connection: self, kept: true)
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        _ = try kept("BEGIN IMMEDIATE").step()
        do {
            let value = try body()
            _ = try kept("COMMIT").step()
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The first column of the first row, as an integer (for PRAGMAs and counts).
    func scalarInt(_ sql: String) throws(StorageError) -> Int64? {
        let stmt = try prepare(sql)
        guard try stmt.step() else { return nil }
        return stmt.int64(0)
    }

    func scalarText(_ sql: String) throws(StorageError) -> String? {
        let stmt = try prepare(sql)
        guard try stmt.step() else { return nil }
        return stmt.text(0)
    }
}

@available(*, unavailable)
extension SQLiteConnection: Sendable {}

/// A prepared statement, finalized when it goes away. Parameters are 1-based, columns 0-based (sqlite's own).
final class SQLiteStatement {
    private let stmt: OpaquePointer
    private let connection: SQLiteConnection
    /// One of the connection's kept statements (`SQLiteConnection.kept`): reset, not finalized, at the end.
    private let kept: Bool

    init(_ stmt: OpaquePointer, connection: SQLiteConnection, kept: Bool = false) {
        self.stmt = stmt
        self.connection = connection
        self.kept = kept
    }

    deinit {
        if kept {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
        } else {
            sqlite3_finalize(stmt)
        }
    }

    func bind(_ index: Int32, _ value: String?) throws(StorageError) {
        guard let value else { return try bindNull(index) }
        let utf8 = Array(value.utf8)
        let rc = utf8.withUnsafeBufferPointer { buf in
            buf.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                    csqlite_bind_text(stmt, index, $0, Int32(buf.count))
                }
            } ?? csqlite_bind_text(stmt, index, "", 0)
        }
        try connection.check(rc)
    }

    func bind(_ index: Int32, _ value: Double?) throws(StorageError) {
        guard let value, value.isFinite else { return try bindNull(index) }
        try connection.check(sqlite3_bind_double(stmt, index, value))
    }

    func bind(_ index: Int32, _ value: Int?) throws(StorageError) {
        guard let value else { return try bindNull(index) }
        try connection.check(sqlite3_bind_int64(stmt, index, Int64(value)))
    }

    func bind(_ index: Int32, _ value: Bool?) throws(StorageError) {
        try bind(index, value.map { $0 ? 1 : 0 } as Int?)
    }

    func bind(_ index: Int32, _ value: Date?) throws(StorageError) {
        try bind(index, value?.timeIntervalSince1970)
    }

    func bindNull(_ index: Int32) throws(StorageError) {
        try connection.check(sqlite3_bind_null(stmt, index))
    }

    /// Binds values to ?1, ?2, … in order.
    func bindAll(_ values: [SQLiteValue]) throws(StorageError) {
        for (i, v) in values.enumerated() {
            let index = Int32(i + 1)
            switch v {
            case .null: try bindNull(index)
            case .int(let x): try bind(index, x)
            case .double(let x): try bind(index, x)
            case .text(let x): try bind(index, x)
            }
        }
    }

    /// One step: true when a row is ready, false when the statement is done.
    func step() throws(StorageError) -> Bool {
        try connection.check(sqlite3_step(stmt)) == SQLITE_ROW
    }

    /// Makes the statement ready to run again with new parameters.
    func reset() throws(StorageError) {
        try connection.check(sqlite3_reset(stmt))
        try connection.check(sqlite3_clear_bindings(stmt))
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(stmt, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(stmt, column) }
    func int(_ column: Int32) -> Int? { isNull(column) ? nil : Int(sqlite3_column_int64(stmt, column)) }
    func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(stmt, column) }
    /// The column when it holds a number (INTEGER or REAL), else nil: text or a blob in a number's
    /// column (a hand-edited row) is no number, where `double` would read it as 0.
    func number(_ column: Int32) -> Double? {
        let type = sqlite3_column_type(stmt, column)
        return type == SQLITE_FLOAT || type == SQLITE_INTEGER ? sqlite3_column_double(stmt, column) : nil
    }
    /// The column as a time; nil when NULL or outside 1970–2200 (`PlausibleTime`): the store is data from
    /// outside too (an older version, another tool, a person with sqlite3), and 1e300 is no time.
    func date(_ column: Int32) -> Date? { double(column).flatMap(PlausibleTime.date) }

    func text(_ column: Int32) -> String? {
        guard !isNull(column), let p = sqlite3_column_text(stmt, column) else { return nil }
        let count = Int(sqlite3_column_bytes(stmt, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}

/// A value to bind, for statements built from a list of columns.
enum SQLiteValue {
    case null
    case int(Int)
    case double(Double)
    case text(String)

    static func of(_ v: Double?) -> SQLiteValue { v.flatMap { $0.isFinite ? .double($0) : nil } ?? .null }
    static func of(_ v: Int?) -> SQLiteValue { v.map { .int($0) } ?? .null }
    static func of(_ v: String?) -> SQLiteValue { v.map { .text($0) } ?? .null }
    static func of(_ v: Bool?) -> SQLiteValue { v.map { .int($0 ? 1 : 0) } ?? .null }
    static func of(_ v: Date?) -> SQLiteValue { of(v?.timeIntervalSince1970) }
}
