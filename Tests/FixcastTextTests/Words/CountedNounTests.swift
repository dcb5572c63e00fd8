import Testing

@testable import FixcastText

struct CountedNounTests {
    @Test func oneIsSingularAndEveryOtherCountPlural() {
        #expect(CountedNoun.phrase(1, "reading") == "1 reading")
        #expect(CountedNoun.phrase(0, "reading") == "0 readings")
        #expect(CountedNoun.phrase(2, "reading") == "2 readings")
        #expect(CountedNoun.phrase(-1, "reading") == "-1 readings")
    }

    @Test func anIrregularPluralIsUsedAsGiven() {
        #expect(CountedNoun.phrase(1, "implausible fix", plural: "implausible fixes") == "1 implausible fix")
        #expect(CountedNoun.phrase(3, "implausible fix", plural: "implausible fixes") == "3 implausible fixes")
    }

    @Test(arguments: [
        (1, "1 замер"), (21, "21 замер"), (101, "101 замер"), (2, "2 замера"), (4, "4 замера"), (23, "23 замера"),
        (0, "0 замеров"), (5, "5 замеров"), (11, "11 замеров"), (12, "12 замеров"), (14, "14 замеров"),
        (20, "20 замеров"), (111, "111 замеров"), (112, "112 замеров"),
    ])
    func russianTakesTheFormItsCountAsks(count: Int, expected: String) {
        #expect(CountedNoun.russian(count, one: "замер", few: "замера", many: "замеров") == expected)
    }
}
