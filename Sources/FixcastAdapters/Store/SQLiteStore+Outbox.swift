import FixcastCore
import FoundationEssentials

/// The MQTT outbox (CONTRACT.md "MQTT"): readings wait here, in order, until the broker
/// acknowledges them, across restarts and kill -9 (a committed row survives either).
extension SQLiteStore: ReadingStore {
    /// The `state` key counting readings dropped because the outbox was full.
    static let outboxDroppedKey = "mqtt.outbox_dropped"

    /// Stores `reading` with its `id` (`<device>:<row>`) and, when `plan.outboxMax` is set, queues it
    /// in the outbox, all in one transaction: a reading is never stored without being queued or
    /// queued without being stored. Returns the reading with its `id`.
    ///
    /// Committed with `synchronous=FULL` (the WAL is on the disk before the commit returns), where the
    /// track's many small commits keep NORMAL: the id is published at once (MQTT, the JSON lines), and a
    /// power cut that rolled the row back gave its id to the next reading after boot, which a consumer
    /// dropping duplicates by `id` then threw away. A reading every few minutes makes the fsync cheap.
    public func storeReading(_ reading: Reading, plan: ReadingStorePlan) throws(StorageError) -> Reading {
        try followPath()
        try db.execute("PRAGMA synchronous=FULL")
        defer { try? db.execute("PRAGMA synchronous=NORMAL") }
        return try db.transaction { () throws(StorageError) -> Reading in
            let row = try insertReadingRow(reading)
            var stored = reading
            stored.id = DeviceID.readingID(device: plan.deviceID, row: row)
            let update = try db.prepare("UPDATE readings SET json = ?1 WHERE id = ?2")
            try update.bindAll([.text(stored.json(language: ReadingRow.storedLanguage).serialized()), .int(Int(row))])
            _ = try update.step()
            if let max = plan.outboxMax {
                let queue = try db.prepare("INSERT INTO outbox (reading_id) VALUES (?1)")
                try queue.bindAll([.int(Int(row))])
                _ = try queue.step()
                try trimOutbox(max: max)
            }
            return stored
        }
    }

    /// Drops the oldest entries past `max` and adds how many to the dropped counter.
    private func trimOutbox(max: Int) throws(StorageError) {
        let depth = Int(try db.scalarInt("SELECT count(*) FROM outbox") ?? 0)
        guard depth > max else { return }
        let excess = depth - max
        let drop = try db.prepare("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT ?1)")
        try drop.bindAll([.int(excess)])
        _ = try drop.step()
        try setState(Self.outboxDroppedKey, String(try outboxDropped().addingSaturated(excess)))
    }

    /// Up to `limit` entries after `afterID`, oldest first.
    public func outboxEntries(after afterID: Int64, limit: Int) throws(StorageError) -> [OutboxEntry] {
        let stmt = try db.prepare(
            "SELECT o.id, r.json FROM outbox o LEFT JOIN readings r ON r.id = o.reading_id WHERE o.id > ?1 ORDER BY o.id LIMIT ?2"
        )
        try stmt.bindAll([.int(Int(afterID)), .int(limit)])
        var out: [OutboxEntry] = []
        while try stmt.step() {
            out.append(OutboxEntry(id: stmt.int64(0), payload: stmt.text(1)))
        }
        return out
    }

    /// Removes acknowledged entries (one transaction).
    public func removeFromOutbox(_ ids: [Int64]) throws(StorageError) {
        guard !ids.isEmpty else { return }
        try db.transaction { () throws(StorageError) in
            let stmt = try db.prepare("DELETE FROM outbox WHERE id = ?1")
            for id in ids {
                try stmt.bindAll([.int(Int(id))])
                _ = try stmt.step()
                try stmt.reset()
            }
        }
    }

    /// How many readings wait for the broker.
    public func outboxDepth() throws(StorageError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM outbox") ?? 0)
    }

    /// The newest entry's id (0 when empty): the drain sends `state` and `owntracks` for it.
    public func newestOutboxID() throws(StorageError) -> Int64 {
        try db.scalarInt("SELECT coalesce(max(id), 0) FROM outbox") ?? 0
    }

    /// How many readings were dropped because the outbox was full, over the store's life.
    public func outboxDropped() throws(StorageError) -> Int {
        // Unreadable or negative text (not fixcast's: a damaged store) counts as none dropped.
        max(0, Int(try state(Self.outboxDroppedKey) ?? "0") ?? 0)
    }
}

extension SQLiteStore: OutboxStore {}
