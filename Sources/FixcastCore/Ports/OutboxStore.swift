import FoundationEssentials

/// One reading waiting in the outbox: its place in the queue and its JSON (with `id`).
public struct OutboxEntry: Sendable, Hashable {
    public var id: Int64
    /// The reading JSON as stored; nil when the reading row is gone (the entry is then just removed).
    public var payload: String?

    public init(id: Int64, payload: String?) {
        self.id = id
        self.payload = payload
    }
}

/// The MQTT outbox as the publisher needs it (CONTRACT.md "MQTT"): readings wait, in order, until the
/// broker acknowledges them, across restarts and kill -9; the SQLite store implements it.
public protocol OutboxStore: Sendable {
    /// Up to `limit` entries after `afterID`, oldest first.
    func outboxEntries(after afterID: Int64, limit: Int) async throws(StorageError) -> [OutboxEntry]
    /// Removes acknowledged entries (one transaction).
    func removeFromOutbox(_ ids: [Int64]) async throws(StorageError)
    /// How many readings wait for the broker.
    func outboxDepth() async throws(StorageError) -> Int
    /// The newest entry's id (0 when empty).
    func newestOutboxID() async throws(StorageError) -> Int64
    /// How many readings were dropped because the outbox was full, over the store's life.
    func outboxDropped() async throws(StorageError) -> Int
    /// Adds `handler`, called with the store's path each time the store's file was found deleted or
    /// replaced and a new one opened at the path: the outbox's ids start again there, so what was
    /// published (and what waits for an acknowledgement) by id no longer names the same readings.
    func onReplaced(_ handler: @escaping @Sendable (String) -> Void)
}
