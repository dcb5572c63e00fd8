import FixcastCore
import FoundationEssentials

/// Tells a fixcast store from another program's SQLite file, by SQLite's `application_id` header field.
///
/// Without this, `--db` pointing at some other application's database would get fixcast's tables
/// added to it and readings written into it. A new file is claimed (its `application_id` set) when
/// fixcast creates its schema. A file with another id is refused. A file with no id is claimed
/// only when it is empty, or when it is a fixcast store written before stores were claimed (a schema
/// version and a `readings` table). This is a header field, not a migration, so the migrations
/// list stays as it is.
enum StoreOwnership {
    /// "FixC" in ASCII: SQLite's header field for the application that owns the file.
    static let applicationID: Int64 = 0x4669_7843

    enum State: Equatable {
        /// Ours already.
        case fixcast
        /// New, or a fixcast store from before the id: ours to claim.
        case unclaimed
    }

    /// Whose file `db` is; throws `StorageError.foreign` when it belongs to another program.
    static func check(_ db: SQLiteConnection) throws(StorageError) -> State {
        let id = try db.scalarInt("PRAGMA application_id") ?? 0
        if id == applicationID { return .fixcast }
        if id != 0 { throw StorageError.foreign(path: db.path) }
        let tables =
            try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            ?? 0
        if tables == 0 { return .unclaimed }
        let version = try db.scalarInt("PRAGMA user_version") ?? 0
        let hasReadings =
            try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'readings'") ?? 0
        if version > 0, hasReadings > 0 { return .unclaimed }
        throw StorageError.foreign(path: db.path)
    }

    /// Marks the file as fixcast's.
    static func claim(_ db: SQLiteConnection) throws(StorageError) {
        try db.execute("PRAGMA application_id = \(applicationID)")
    }
}
