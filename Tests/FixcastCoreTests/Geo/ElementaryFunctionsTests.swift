import Foundation
import Testing

@testable import FixcastCore

/// Core's sin/cos/asin reach libm by symbol (no `import Glibc`); they must be the C library's functions,
/// bit for bit, or the k-d tree in places.bin (ordered by unit vectors made with them) would no longer
/// match the vectors a lookup computes.
struct ElementaryFunctionsTests {
    @Test func sameBitsAsTheCLibrary() {
        var g = SystemRandomNumberGenerator()
        let values =
            [0, -0.0, 1, -1, .pi / 2, .pi, -.pi, 1e-300, 0.5, -0.5, 0.9999999999]
            + (0..<2000).map { _ in Double.random(in: -4...4, using: &g) }
        for x in values {
            #expect(Elementary.sin(x).bitPattern == sin(x).bitPattern)
            #expect(Elementary.cos(x).bitPattern == cos(x).bitPattern)
            #expect(Elementary.sqrt(abs(x)).bitPattern == sqrt(abs(x)).bitPattern)
            if abs(x) <= 1 { #expect(Elementary.asin(x).bitPattern == asin(x).bitPattern) }
        }
        #expect(Elementary.asin(2).isNaN)
        #expect(Elementary.sin(.infinity).isNaN)
    }

    @Test func knownValues() throws {
        #expect(Elementary.sin(0) == 0)
        #expect(Elementary.cos(0) == 1)
        #expect(abs(Elementary.sin(.pi / 6) - 0.5) < 1e-15)
        #expect(abs(Elementary.asin(1) - .pi / 2) < 1e-15)
        // Berlin–Köln, about 477 km, through the haversine that uses them.
        let berlin = try #require(Coordinate(lat: 52.52, lon: 13.405))
        let koeln = try #require(Coordinate(lat: 50.9375, lon: 6.9603))
        #expect(abs(GreatCircle.distanceKm(berlin, koeln) - 477) < 2)
    }
}
