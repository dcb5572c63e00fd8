import FixcastCore
import Foundation
import Synchronization
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

@Suite(.scratch) struct TrackWriterTests {
    @Test func pointsAndTheLastKnownPositionAreWrittenOnTheStoresThread() async throws {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath())
        let issues = Mutex<[ReadingIssue?]>([])
        let writer = TrackWriter(store: store, report: { issue in issues.withLock { $0.append(issue) } })
        for k in 0..<25 { writer.record(StoreTestData.fix(at: Double(k))) }
        writer.saveLastKnown(Position(fix: StoreTestData.fix(at: 24)))
        #expect(writer.finish(timeoutS: 10) == nil, "everything kept is in the store")
        #expect(try await store.trackPointCount() == 25)
        #expect(try await store.lastKnownPosition()?.coordinate == StoreTestData.fix(at: 24).coordinate)
        #expect(writer.pendingCount == 0)
        // Nothing failed, so nothing was reported.
        #expect(issues.withLock { $0 }.isEmpty)
    }

    @Test func refusedPointsAreKeptAndTheProblemIsReportedOnce() async throws {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        let issues = Mutex<[ReadingIssue?]>([])
        let writer = TrackWriter(store: readOnly, report: { issue in issues.withLock { $0.append(issue) } })
        for k in 0..<6 { writer.record(StoreTestData.fix(at: Double(k))) }
        // The stop's last write tries them once more, and says they are lost.
        let lost = writer.finish(timeoutS: 10)
        #expect(lost?.component == .storage)
        #expect(lost?.message.contains("read-only") == true, "\(String(describing: lost))")
        // Kept for the next write, nothing dropped; one report for six refusals.
        #expect(writer.pendingCount == 6)
        let reported = issues.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first??.component == .storage)
    }
}
