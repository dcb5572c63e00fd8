import Testing

@testable import FixcastCore

/// Issue 11 item 9: `--at` takes decimal degrees only.
@Suite struct CoordinateDecimalDegreesTests {
    @Test(arguments: ["52.52,13.405", "-33.9,+18.4", "0,0", "50.9373,6.960620000000001", "90,-180", " 1.5 , 2 "])
    func decimalDegreesAccepted(_ text: String) {
        #expect(Coordinate(parsing: text) != nil)
    }

    @Test(arguments: ["0x10,0", "1e1,0", "nan,0", "inf,0", "0,-inf", ".5,1", "5.,1", "1,2,3", "١٢,3", "--1,2", "1_0,2"])
    func otherNumberFormsRefused(_ text: String) {
        #expect(Coordinate(parsing: text) == nil)
    }
}
