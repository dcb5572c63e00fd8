import Testing

@testable import FixcastCore

/// The one [0, 360) rule (`CompassDegrees`), which bearings, courses and wind directions share.
@Suite struct CompassDegreesTests {
    @Test(arguments: [
        (720.0, 0.0), (-90, 270), (360, 0), (359.5, 359.5), (-720, 0), (1080.5, 0.5), (-0.0, 0), (-10, 350),
        (-1e-20, 0), (.nan, 0), (.infinity, 0),
    ])
    func anglesAreFolded(_ given: Double, _ expected: Double) {
        let folded = CompassDegrees.folded(given)
        #expect(folded == expected)
        #expect(folded >= 0 && folded < 360)
    }
}
