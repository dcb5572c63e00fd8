/// How a reading is stored: under which device id its `id` is made, and whether it also waits
/// in the outbox for the broker (`outboxMax` set: MQTT is enabled).
public struct ReadingStorePlan: Sendable, Hashable {
    public var deviceID: String
    /// nil: MQTT off, nothing is queued. Else the most readings that may wait (older ones are dropped).
    public var outboxMax: Int?

    public init(deviceID: String, outboxMax: Int?) {
        self.deviceID = deviceID
        self.outboxMax = outboxMax
    }
}

/// Where finished readings are kept: what `ReadingMaker` needs of the store, so the reading
/// services depend on this port and not on the SQLite store that implements it.
public protocol ReadingStore: Sendable {
    /// Stores `reading` with its `id` made under `plan.deviceID` and, when `plan.outboxMax` is set,
    /// queues it for the broker, in one transaction; returns the reading with its `id`.
    func storeReading(_ reading: Reading, plan: ReadingStorePlan) async throws(StorageError) -> Reading
    /// Stores `reading` without an id; returns its row.
    func insertReading(_ reading: Reading) async throws(StorageError) -> Int64
}
