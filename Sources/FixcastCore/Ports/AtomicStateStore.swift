/// A `state` value read and replaced under one write lock, so that processes sharing the store take
/// turns (the shared Nominatim slot: two `fixcast now` runs must not both see the slot as free).
public protocol AtomicStateStore: Sendable {
    /// Calls `change` with the value of `key` (nil = unset) and stores what it returns as the new value
    /// (nil removes it), with no other writer in between; returns `change`'s result.
    func updateState<T: Sendable>(
        _ key: String, _ change: @Sendable (String?) -> (value: String?, result: T)
    ) async throws(StorageError) -> T
}
