import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `fixcast line` opens the store without `quick_check` (a status bar asks every few seconds; the check
/// reads the whole file): a damaged page it does not read leaves its line alone, one it reads is still
/// "is damaged", exit 1, as for every other command.
@Suite(.serialized, .scratch) struct LineStoreGlanceTests {
    @Test func aDamagedPageLineDoesNotReadLeavesItsLineAndOneItReadsIsDamaged() throws {
        let home = AcceptanceHome("line-glance")
        defer { home.remove() }
        let db = try StoreJudgementTests.fixcastStore(home)
        _ = try StoreTestData.sqlite3(
            db,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO track_points (time, lat, lon, mode) SELECT 1700000000 + i, 50 + i * 0.0001, 10, '3d' FROM n;"
        )
        let before = try home.run(["line", "--format", "%l"], env: Acceptance.env(nil))
        #expect(before.status == 0 && !before.stdout.isEmpty, "\(before.stderr)")

        try StoreTestData.zeroPage(
            db,
            "SELECT pageno FROM dbstat WHERE name = 'track_points' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 5"
        )
        #expect(try StoreTestData.sqlite3(db, "PRAGMA quick_check") != "ok")
        let trips = try home.run(["trips"], env: Acceptance.env(nil))
        #expect(trips.status == 1 && trips.stderr.contains("is damaged"), "\(trips.stderr)")
        let glance = try home.run(["line", "--format", "%l"], env: Acceptance.env(nil))
        #expect(glance.status == 0, "\(glance.stderr)")
        #expect(glance.stdout == before.stdout)

        // The page holding the last reading: line reads it, and says the store is damaged.
        try StoreTestData.zeroPage(db, "SELECT max(pageno) FROM dbstat WHERE name = 'readings'")
        let damaged = try home.run(["line", "--format", "%l"], env: Acceptance.env(nil))
        #expect(damaged.status == 1, "\(damaged.stdout)")
        #expect(damaged.stderr.contains("is damaged"), "\(damaged.stderr)")
        #expect(Acceptance.stderrLines(damaged).count == 1, "\(damaged.stderr)")
    }
}
