import Testing

@testable import FixcastAdapters

/// How `quick_check`'s report is said in the one-sentence "is damaged" error.
@Suite struct StoreOpeningTests {
    @Test func oneShortProblemIsQuoted() {
        let report = "*** in database main ***\nPage 27: btreeInitPage() returns error code 11"
        #expect(
            StoreOpening.quickCheckSummary(report)
                == "SQLite's check says: Page 27: btreeInitPage() returns error code 11")
    }

    @Test func manyProblemsAreCountedNotListed() {
        let lines = (1...40).map { "Page \($0): btreeInitPage() returns error code 11" }
        let summary = StoreOpening.quickCheckSummary((["*** in database main ***"] + lines).joined(separator: "\n"))
        #expect(summary == "SQLite's check found 40 problems")
    }

    @Test func oneLongProblemIsNotCut() {
        let long = "Tree 4 page 9 cell 0: " + String(repeating: "x", count: 200)
        #expect(StoreOpening.quickCheckSummary(long) == "SQLite's check found a problem")
    }
}
