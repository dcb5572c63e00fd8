import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `SQLiteStore.updateState` on a real file, through two connections as two processes would use it.
@Suite(.scratch)
struct AtomicStateStoreTests {
    @Test func updateSeesTheOldValueAndStoresTheNewOne() async throws {
        let dir = TestPaths.temporaryDirectory("atomic-state")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("s.sqlite").path)
        let first = try await store.updateState("k") { old in ("a", old) }
        #expect(first == nil)
        let second = try await store.updateState("k") { old in ("b", old) }
        #expect(second == "a")
        #expect(try await store.state("k") == "b")
        let removed = try await store.updateState("k") { old in (nil, old) }
        #expect(removed == "b")
        #expect(try await store.state("k") == nil)
    }

    @Test func twoConnectionsIncrementingConcurrentlyLoseNoUpdate() async throws {
        let dir = TestPaths.temporaryDirectory("atomic-state-two")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        let a = try SQLiteStore(path: path)
        let b = try SQLiteStore(path: path)
        let rounds = 200
        func increment(_ store: SQLiteStore) async throws {
            for _ in 0..<rounds {
                _ = try await store.updateState("counter") { old in
                    (String((old.flatMap { Int($0) } ?? 0) + 1), ())
                }
            }
        }
        async let doneA: Void = increment(a)
        async let doneB: Void = increment(b)
        _ = try await (doneA, doneB)
        #expect(try await a.state("counter") == String(2 * rounds))
    }

    @Test func aReadOnlyStoreRefusesTheUpdate() async throws {
        let dir = TestPaths.temporaryDirectory("atomic-state-ro")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        _ = try SQLiteStore(path: path)
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        await #expect(throws: StorageError.self) {
            _ = try await readOnly.updateState("k") { _ in ("x", ()) }
        }
    }
}
