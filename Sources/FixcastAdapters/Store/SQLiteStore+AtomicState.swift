import FixcastCore
import FoundationEssentials

extension SQLiteStore: AtomicStateStore {
    /// One `BEGIN IMMEDIATE` transaction: the write lock is taken before the read, so another process's
    /// update waits (up to the busy timeout) and then sees this one's value.
    public func updateState<T: Sendable>(
        _ key: String, _ change: @Sendable (String?) -> (value: String?, result: T)
    ) throws(StorageError) -> T {
        try db.transaction { () throws(StorageError) in
            let (value, result) = change(try state(key))
            try setState(key, value)
            return result
        }
    }
}
