import Testing

@testable import FixcastCore

struct DecimalRoundingTests {
    @Test func toATenthHalvesAwayFromZero() {
        #expect(DecimalRounding.rounded(18.913416636332983, places: 1) == 18.9)
        #expect(DecimalRounding.rounded(15.940938349583291, places: 1) == 15.9)
        #expect(DecimalRounding.rounded(-0.05, places: 1) == -0.1)
        #expect(DecimalRounding.rounded(-3.04, places: 1) == -3.0)
    }

    @Test func otherPlaces() {
        #expect(DecimalRounding.rounded(52.123456789, places: 5) == 52.12346)
        #expect(DecimalRounding.rounded(2.5, places: 0) == 3)
        #expect(DecimalRounding.rounded(-2.5, places: 0) == -3)
    }

    @Test func aValueThatIsNotFiniteStaysAsItIs() {
        #expect(DecimalRounding.rounded(.infinity, places: 1) == .infinity)
        #expect(DecimalRounding.rounded(-.infinity, places: 1) == -.infinity)
        #expect(DecimalRounding.rounded(.nan, places: 1).isNaN)
    }
}
