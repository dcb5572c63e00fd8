import Testing

@testable import fixcast

/// `search`'s population column and `status`'s store size: digits grouped by thousands, for any Int.
struct SearchTableTests {
    @Test(arguments: [
        (0, "0"), (999, "999"), (1000, "1,000"), (3_644_826, "3,644,826"), (-1234, "-1,234"),
        (Int.max, "9,223,372,036,854,775,807"), (Int.min, "-9,223,372,036,854,775,808"),
    ])
    func digitsAreGroupedByThousands(_ n: Int, _ text: String) {
        #expect(SearchTable.groupThousands(n) == text)
    }
}
