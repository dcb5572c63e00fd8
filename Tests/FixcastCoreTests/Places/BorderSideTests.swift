import FixcastCore
import Foundation
import Testing

@testable import FixcastCore

/// `BorderSide`: which of the places around a position lies on its side of the border lines.
struct BorderSideTests {
    static func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(lat: lat, lon: lon)! }

    /// A border running north–south along 10.0° E, with a kink.
    static let border = [[c(47, 10.0), c(47.5, 10.0), c(47.6, 10.05), c(48, 10.0)]]

    @Test func theFirstPlaceWhoseWayCrossesNoBorderWins() {
        let here = Self.c(47.3, 9.99)  // 0.76 km west of the border
        let across = Self.c(47.3, 10.01)  // nearest, across it
        let thisSide = Self.c(47.3, 9.95)
        #expect(BorderSide.firstOnThisSide(of: here, candidates: [across, thisSide], borders: Self.border) == 1)
        // Nothing to cross: the nearest.
        #expect(BorderSide.firstOnThisSide(of: here, candidates: [across, thisSide], borders: []) == 0)
        // Every way crosses: nil (the caller keeps the nearest).
        #expect(BorderSide.firstOnThisSide(of: here, candidates: [across], borders: Self.border) == nil)
    }

    @Test func theKinkIsFollowed() {
        // East of 10.0° but west of the kink at 47.6° N: on the west side.
        let here = Self.c(47.6, 10.03)
        let west = Self.c(47.6, 9.98)
        let east = Self.c(47.6, 10.08)
        #expect(BorderSide.firstOnThisSide(of: here, candidates: [west, east], borders: Self.border) == 0)
        #expect(BorderSide.firstOnThisSide(of: here, candidates: [east, west], borders: Self.border) == 1)
    }

    @Test func touchingABorderLineCountsAsCrossing() {
        #expect(BorderSide.intersects((0, 0), (2, 0), (2, -1), (2, 1)))  // ends on the line
        #expect(BorderSide.intersects((0, 0), (2, 0), (1, 0), (1, 5)))  // the line starts on the way
        #expect(BorderSide.intersects((0, 0), (2, 0), (1, 0), (3, 0)))  // along it
        #expect(!BorderSide.intersects((0, 0), (2, 0), (3, -1), (3, 1)))
        #expect(!BorderSide.intersects((0, 0), (2, 0), (0, 1), (2, 1)))  // parallel
    }

    @Test func longitudesAreTakenTheShortWayRound() {
        // A line along 180°: a place at 179.99° W is across it from 179.99° E; one at 179.98° E is not.
        let line = [[Self.c(-1, 180), Self.c(1, 180)]]
        let here = Self.c(0, 179.99)
        #expect(BorderSide.firstOnThisSide(of: here, candidates: [Self.c(0, -179.99)], borders: line) == nil)
        #expect(BorderSide.firstOnThisSide(of: here, candidates: [Self.c(0, 179.98)], borders: line) == 0)
    }
}
