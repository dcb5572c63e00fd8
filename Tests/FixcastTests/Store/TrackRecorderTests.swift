import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp

@Suite struct TrackRecorderTests {
    @Test func aCommitWritesEveryFixInOneGo() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let recorder = TrackRecorder(store: store)
        try await recorder.commit((0..<25).map { StoreTestData.fix(at: Double($0)) })
        #expect(await recorder.pendingCount == 0)
        #expect(try await store.trackPointCount() == 25)
        // The next batch adds to the track.
        try await recorder.commit([StoreTestData.fix(at: 100)])
        #expect(try await store.trackPointCount() == 26)
    }

    @Test func aRefusedCommitKeepsTheFixesAndReportsTheError() async throws {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        let recorder = TrackRecorder(store: readOnly)
        let first = (0..<5).map { StoreTestData.fix(at: Double($0)) }
        await #expect(throws: StorageError.readOnly(path: path)) { try await recorder.commit(first) }
        #expect(await recorder.pendingCount == 5)
        #expect(await recorder.lastError == .readOnly(path: path))
        // Kept fixes go with the next commit, still refused here: nothing is dropped.
        await #expect(throws: StorageError.readOnly(path: path)) {
            try await recorder.commit([StoreTestData.fix(at: 10)])
        }
        #expect(await recorder.pendingCount == 6)
    }
}
