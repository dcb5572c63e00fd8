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
}
