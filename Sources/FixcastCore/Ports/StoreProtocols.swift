import FoundationEssentials

// The store's ports: what the services need from the store, one small protocol each, so that every service states
// exactly what it reads and writes. The SQLite store conforms to all of them.

/// Storage failures, one sentence each (component: storage).
public enum StorageError: UserFacingError, Hashable {
    case cannotOpen(path: String, detail: String)
    case readOnly(path: String)
    case diskFull(path: String)
    case corrupt(path: String, detail: String)
    case newerSchema(path: String, version: Int)
    /// A valid SQLite file that is not a fixcast store (another program's `application_id`, or its tables).
    case foreign(path: String)
    case failed(path: String, detail: String)
    /// A reading command found no store at the path (reading commands never create one).
    case missing(path: String)
    /// The store, or a folder on its way, cannot be read by this user (`detail`: the system's reason).
    case unreadable(path: String, detail: String)
    /// A reading command found a store from an older fixcast (schema `version`, this fixcast writes
    /// `current`), which only a writing open can upgrade.
    case needsUpgrade(path: String, version: Int, current: Int)
    /// Another `fixcast run` (process `pid`, nil when it could not be told) records into the store.
    case heldByRun(path: String, pid: Int?)
    /// Another program kept the store locked longer than fixcast waits for it (`waitedS`; SQLITE_BUSY).
    case busy(path: String, waitedS: Int)
    /// The store's run lock file is there but cannot be used (`detail`: why, for after the path).
    case runLock(path: String, detail: String)

    public var component: Component { .storage }

    public var message: String {
        switch self {
        case .cannotOpen(let p, let d):
            return
                "storage: cannot open the database \(p) (\(d)); check that its folder exists and is writable, or pass --db PATH."
        case .readOnly(let p):
            return "storage: the database \(p) is read-only; readings are not being saved until it is writable."
        case .diskFull(let p):
            return "storage: the disk holding \(p) is full; free some space so readings can be saved."
        case .corrupt(let p, let d):
            return "storage: the database \(p) is damaged (\(d)); move it aside and fixcast will start a new one."
        case .newerSchema(let p, let v):
            return
                "storage: the database \(p) was written by a newer fixcast (schema \(v)); upgrade fixcast or pass --db PATH."
        case .foreign(let p):
            return
                "storage: \(p) is another program's SQLite database, not a fixcast store; pass --db PATH to a fixcast store or a new file."
        case .failed(let p, let d):
            return "storage: a database operation on \(p) failed (\(d))."
        case .missing(let p):
            return "storage: there is no store at \(p); check --db or storage.path, or record one with fixcast run."
        case .unreadable(let p, let d):
            return
                "storage: the database \(p) cannot be read (\(d)); run fixcast as the user who owns it, or give this user read access."
        case .needsUpgrade(let p, let v, let current):
            return
                "storage: the database \(p) has an older schema (\(v) of \(current)); run fixcast now once with write access to upgrade it."
        case .busy(let p, let waited):
            return
                "storage: another program kept the store \(p) locked for more than \(waited) s (sqlite3, a backup, a fixcast upgrading it); what was to be written now was not, so try again once it has finished."
        case .runLock(let p, let d):
            return
                "storage: the run lock \(p) cannot be used (\(d)); remove it (it holds only the id of the run that recorded) and start fixcast run again."
        case .heldByRun(let p, let pid):
            let who = pid.map { "process \($0)" } ?? "another process"
            return
                "storage: another fixcast run (\(who)) is already recording into \(p); stop it first, or pass --db PATH for a second store."
        }
    }
}

/// The last fix, kept across restarts: the fallback when no fix comes in time.
public protocol LastKnownPositionStore: Sendable {
    func lastKnownPosition() async throws(StorageError) -> Position?
    func saveLastKnownPosition(_ position: Position) async throws(StorageError)
}

/// Fetched weather, kept so that two `fixcast now` runs a minute apart make one request.
public protocol WeatherCacheStore: Sendable {
    /// The most recently fetched weather from `provider` fetched within `withinKm` of `coordinate`.
    func latestWeather(provider: WeatherProviderID, near coordinate: Coordinate, withinKm: Double)
        async throws(StorageError) -> WeatherReport?
    func saveWeather(_ report: WeatherReport) async throws(StorageError)
}

/// Place names, kept so that a stationary or slow receiver asks Nominatim once.
public protocol PlaceCacheStore: Sendable {
    /// The place named nearest to `coordinate` within `withinKm`, from `source`, in `language` (the
    /// language it was asked in: Nominatim names Köln "Cologne" in English; nil: any, for names that
    /// have no language asked, the bundled table's).
    func cachedPlace(near coordinate: Coordinate, withinKm: Double, source: PlaceSource, language: String?)
        async throws(StorageError) -> Place?
    func savePlace(_ place: Place, at coordinate: Coordinate, language: String?) async throws(StorageError)
    /// Whether Nominatim answered "no place here" (the sea, a desert) within `withinKm` of `coordinate`,
    /// in `language`, at `since` or later.
    func knowsNoPlace(near coordinate: Coordinate, withinKm: Double, language: String?, since: Date)
        async throws(StorageError) -> Bool
    /// Keeps Nominatim's "no place here" for `coordinate`.
    func saveNoPlace(at coordinate: Coordinate, language: String?) async throws(StorageError)
}

extension PlaceCacheStore {
    /// A name not asked in a language (the bundled table's).
    public func cachedPlace(near coordinate: Coordinate, withinKm: Double, source: PlaceSource)
        async throws(StorageError) -> Place?
    {
        try await cachedPlace(near: coordinate, withinKm: withinKm, source: source, language: nil)
    }

    public func savePlace(_ place: Place, at coordinate: Coordinate) async throws(StorageError) {
        try await savePlace(place, at: coordinate, language: nil)
    }
}

/// Small state that must survive a restart (e.g. an API's back-off deadline), as text by key.
public protocol StateStore: Sendable {
    func state(_ key: String) async throws(StorageError) -> String?
    func setState(_ key: String, _ value: String?) async throws(StorageError)
    /// Every key that begins with `prefix`, with the first `length` characters of its value: a family of
    /// keys and enough of each record to date it (`StateFamilyLimit`), without its body.
    func stateHeads(prefix: String, length: Int) async throws(StorageError) -> [String: String]
}
