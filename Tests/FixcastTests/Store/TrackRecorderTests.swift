import FixcastCore
import Foundation
import Testing

@testable import Fixcast

@Suite struct TrackRecorderTests {
    @Test func flushCommitsEverythingPendingInOneGo() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let recorder = TrackRecorder(store: store, commitInterval: .seconds(3600))
        for i in 0..<25 { await recorder.record(StoreTestData.fix(at: Double(i))) }
        #expect(await recorder.pendingCount == 25)
        #expect(try await store.trackPointCount() == 0)  // nothing before the batch is due
        try await recorder.flush()
        #expect(await recorder.pendingCount == 0)
        #expect(try await store.trackPointCount() == 25)
    }

    /// Without a flush, the batch commits by itself once its interval is up. (Waits for the
    /// outcome, bounded generously; it asserts what was committed, not when.)
    @Test func aBatchCommitsOnItsOwn() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let recorder = TrackRecorder(store: store, commitInterval: .milliseconds(50))
        for i in 0..<10 { await recorder.record(StoreTestData.fix(at: Double(i))) }
        var count = 0
        for _ in 0..<400 where count < 10 {
            try await Task.sleep(for: .milliseconds(25))
            count = try await store.trackPointCount()
        }
        #expect(count == 10)
        #expect(await recorder.pendingCount == 0)
        // Later fixes open a new batch.
        await recorder.record(StoreTestData.fix(at: 100))
        for _ in 0..<400 where count < 11 {
            try await Task.sleep(for: .milliseconds(25))
            count = try await store.trackPointCount()
        }
        #expect(count == 11)
    }

    @Test func aRefusedCommitKeepsTheFixesAndReportsTheError() async throws {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        let recorder = TrackRecorder(store: readOnly, commitInterval: .seconds(3600))
        for i in 0..<5 { await recorder.record(StoreTestData.fix(at: Double(i))) }
        await #expect(throws: StorageError.readOnly(path: path)) { try await recorder.flush() }
        #expect(await recorder.pendingCount == 5)
        #expect(await recorder.lastError == .readOnly(path: path))
    }

    @Test func theErrorHandlerHearsAScheduledCommitFail() async throws {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        let heard = Heard()
        let recorder = TrackRecorder(store: readOnly, commitInterval: .milliseconds(20)) { heard.add($0) }
        await recorder.record(StoreTestData.fix(at: 0))
        for _ in 0..<400 where heard.errors.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
        #expect(heard.errors.first == .readOnly(path: path))
        #expect(await recorder.pendingCount == 1)
    }
}

private final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [StorageError] = []
    func add(_ e: StorageError) { lock.withLock { list.append(e) } }
    var errors: [StorageError] { lock.withLock { list } }
}
