import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The implausible-fix totals in a real SQLite file: added up across processes, and safe to grow
/// whatever a damaged store holds.
@Suite(.scratch) struct RejectedFixesStoreTests {
    static func path() -> String {
        TestPaths.temporaryDirectory("fixcast-rejected").appendingPathComponent("f.sqlite").path
    }

    @Test func totalsAddUpAcrossReopens() async throws {
        let path = Self.path()
        try await SQLiteStore(path: path).addRejectedFixes(RejectedFixCounts(nullIsland: 1, jump: 2))
        let reopened = try SQLiteStore(path: path)
        try await reopened.addRejectedFixes(RejectedFixCounts(jump: 1, time: 4))
        #expect(try await reopened.rejectedFixes() == RejectedFixCounts(nullIsland: 1, jump: 3, time: 4))
    }

    @Test func textThatIsNotFixcastsStartsAgain() async throws {
        let store = try SQLiteStore(path: Self.path())
        try await store.setState(RejectedFixCounts.key, #"{"jump":-7}"#)
        #expect(try await store.rejectedFixes() == RejectedFixCounts())
        try await store.addRejectedFixes(RejectedFixCounts(time: 2))
        #expect(try await store.rejectedFixes() == RejectedFixCounts(time: 2))
    }

    /// The rejected-fix totals as a damaged store may hold them: adding to `Int.max` trapped (`run` adds the fixes it drops).
    @Test func rejectedFixesAddedToADamagedTotalSaturate() async throws {
        let store = try SQLiteStore(path: Self.path())
        try await store.setState(RejectedFixCounts.key, #"{"jump":9223372036854775807,"time":1}"#)
        try await store.addRejectedFixes(RejectedFixCounts(jump: 3, time: 2))
        #expect(try await store.rejectedFixes() == RejectedFixCounts(jump: Int.max, time: 3))
        #expect(try await store.rejectedFixes().total == Int.max)
    }
}
