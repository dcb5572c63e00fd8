import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The MQTT outbox in a real SQLite file: queued with the reading, in order, capped with a count of
/// what was dropped, surviving a reopen.
@Suite(.scratch) struct OutboxStoreTests {
    static func path() -> String {
        TestPaths.temporaryDirectory("fixcast-outbox").appendingPathComponent("f.sqlite").path
    }

    @Test func aStoredReadingGetsItsIDAndWaitsInOrder() async throws {
        let path = Self.path()
        let store = try SQLiteStore(path: path)
        let plan = ReadingStorePlan(deviceID: "pi-van", outboxMax: 10)
        var ids: [String] = []
        for i in 0..<3 {
            ids.append(try #require(try await store.storeReading(StoreTestData.reading(at: Double(i)), plan: plan).id))
        }
        #expect(ids == ["pi-van:1", "pi-van:2", "pi-van:3"])
        // The stored JSON carries the id, so `status` and the outbox show the same one.
        #expect(try await store.lastReading()?.id == "pi-van:3")
        let entries = try await store.outboxEntries(after: 0, limit: 10)
        #expect(entries.map(\.id) == [1, 2, 3])
        let payload = try #require(entries.first?.payload)
        #expect(payload.hasPrefix("{\"id\":\"pi-van:1\","))
        #expect(try await store.outboxEntries(after: 2, limit: 10).map(\.id) == [3])
        try await store.removeFromOutbox([1, 3])
        #expect(try await store.outboxEntries(after: 0, limit: 10).map(\.id) == [2])

        // Across a reopen (a restart, or a kill -9: committed is committed).
        let reopened = try SQLiteStore(path: path)
        #expect(try await reopened.outboxDepth() == 1)
        #expect(try await reopened.schemaVersion() == StoreSchema.currentVersion)
    }

    @Test func mqttOffStoresWithAnIDAndQueuesNothing() async throws {
        let store = try SQLiteStore(path: Self.path())
        let r = try await store.storeReading(
            StoreTestData.reading(), plan: ReadingStorePlan(deviceID: "van", outboxMax: nil))
        #expect(r.id == "van:1")
        #expect(try await store.outboxDepth() == 0)
    }

    @Test func pastOutboxMaxTheOldestAreDroppedAndCounted() async throws {
        let store = try SQLiteStore(path: Self.path())
        let plan = ReadingStorePlan(deviceID: "van", outboxMax: 3)
        for i in 0..<5 { _ = try await store.storeReading(StoreTestData.reading(at: Double(i)), plan: plan) }
        #expect(try await store.outboxDepth() == 3)
        #expect(try await store.outboxDropped() == 2)
        let waiting = try await store.outboxEntries(after: 0, limit: 10)
        #expect(
            waiting.compactMap(\.payload).map {
                $0.contains("\"van:3\"") || $0.contains("\"van:4\"") || $0.contains("\"van:5\"")
            } == [true, true, true])
        // Every reading is still stored: only the queue is capped.
        #expect(try await store.readingCount() == 5)
    }

    /// The dropped count as a damaged store may hold it: `Int.max` stays there instead of trapping when
    /// more are dropped; text that is not a count of fixcast's (negative, not a number) reads 0.
    @Test(arguments: [("9223372036854775807", Int.max, Int.max), ("-5", 0, 2), ("many", 0, 2)])
    func aDamagedDroppedCountNeitherTrapsNorGoesNegative(stored: String, reads: Int, afterTwoMore: Int)
        async throws
    {
        let store = try SQLiteStore(path: Self.path())
        try await store.setState(SQLiteStore.outboxDroppedKey, stored)
        #expect(try await store.outboxDropped() == reads)
        let plan = ReadingStorePlan(deviceID: "van", outboxMax: 1)
        for i in 0..<3 { _ = try await store.storeReading(StoreTestData.reading(at: Double(i)), plan: plan) }
        #expect(try await store.outboxDropped() == afterTwoMore)
        #expect(try await store.readingCount() == 3)
    }
}

extension OutboxStoreTests {
    /// Once everything waiting was sent and removed, a new entry still sorts after every id handed out
    /// (the publisher reads "after the last id it sent"; a reused id would be skipped).
    @Test func idsAreNeverReusedAfterTheOutboxEmpties() async throws {
        let store = try SQLiteStore(path: Self.path())
        let plan = ReadingStorePlan(deviceID: "van", outboxMax: 10)
        for i in 0..<2 { _ = try await store.storeReading(StoreTestData.reading(at: Double(i)), plan: plan) }
        try await store.removeFromOutbox([1, 2])
        #expect(try await store.outboxDepth() == 0)
        _ = try await store.storeReading(StoreTestData.reading(at: 5), plan: plan)
        #expect(try await store.outboxEntries(after: 2, limit: 10).map(\.id) == [3])
    }
}
