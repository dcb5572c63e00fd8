import FixcastAdapters
import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// All of `fixcast line`'s store access: the last reading, through the store opened read-only, so it
/// never takes a write lock from `run` (WAL lets a reader read while a writer commits), and without
/// `quick_check`'s read of every page (`SQLiteStore.forGlance`): a bar asks every few seconds. A store that
/// does not exist yet is "no reading", not an error; one that cannot be read, or whose path this user
/// cannot look at, is.
///
/// The open store is the file that was at `path` when it was opened: one deleted since (a person who
/// starts afresh) is no reading, and one put in its place is opened anew, so `--watch` never goes on
/// reading a file that is gone.
actor LineReadingSource {
    let path: String
    private var store: SQLiteStore?
    /// The file `store` opened.
    private var opened: FileIdentity?

    init(path: String) {
        self.path = path
    }

    /// The newest stored reading, nil when none is stored (or there is no store yet), carrying the
    /// newest stored ahead forecast when that is newer than its own (`fixcast ahead`'s, stored without
    /// a reading; `Reading.withNewerAhead`).
    func lastReading() async throws(StorageError) -> Reading? {
        let identity: FileIdentity?
        switch FileIdentity.lookup(path) {
        case .file(let file): identity = file
        case .absent: identity = nil
        case .unreachable(let code):
            // Not "no reading yet": a bar would say "no fix" for ever about a path this user cannot
            // read (the package's /var/lib/fixcast is 0700), or where no store can be (a file where a
            // folder should be).
            let reason = String(cString: strerror(code))
            if code == EACCES { throw .unreadable(path: path, detail: reason) }
            throw .cannotOpen(path: path, detail: reason)
        }
        if let opened, identity != opened {
            store = nil
            self.opened = nil
        }
        if store == nil {
            guard let identity else { return nil }
            opened = identity
            do {
                store = try SQLiteStore.forGlance(path: path)
            } catch .readOnly {
                // A store `run` or `now` is creating this moment has no schema yet, and a read-only
                // connection cannot bring it up to date: nothing is stored yet. Opened again next time.
                return nil
            } catch .missing {
                // An empty file (`touch`, or a store a writer has just created): no store yet.
                return nil
            }
        }
        guard let store else { return nil }
        // A connection to the main file alone (`readsMainFileAlone`) would never see what a writer that
        // starts later commits to its -wal: opened again for each look.
        if store.readsMainFileAlone {
            self.store = nil
            opened = nil
        }
        guard let reading = try await store.lastReading() else { return nil }
        return try await reading.withNewerAhead(store.lastAheadForecast())
    }
}
