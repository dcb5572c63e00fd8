import Testing

@testable import FixcastTables

struct RingContainmentTests {
    /// (x, y) vertices in 1e-6 degrees as the table stores them.
    func locate(_ x: Int64, _ y: Int64, in ring: [(Int32, Int32)]) -> RingContainment {
        let flat = ring.flatMap { [$0.0, $0.1] }.map { Int32(littleEndian: $0) }
        return flat.withUnsafeBytes { RingContainment.locate(x: x, y: y, ring: $0, count: ring.count) }
    }

    let square: [(Int32, Int32)] = [(0, 0), (10, 0), (10, 10), (0, 10)]
    /// A "U": its notch (x 4...6, y 3...10) is outside.
    let u: [(Int32, Int32)] = [(0, 0), (10, 0), (10, 10), (6, 10), (6, 3), (4, 3), (4, 10), (0, 10)]

    @Test func insideAndOutsideASquare() {
        #expect(locate(5, 5, in: square) == .inside)
        #expect(locate(11, 5, in: square) == .outside)
        #expect(locate(-1, 5, in: square) == .outside)
        #expect(locate(5, 11, in: square) == .outside)
        #expect(locate(5, -1, in: square) == .outside)
    }

    @Test func anEdgeAndAVertexAreTheBoundary() {
        #expect(locate(10, 5, in: square) == .boundary)
        #expect(locate(5, 0, in: square) == .boundary)
        #expect(locate(0, 7, in: square) == .boundary)
        #expect(locate(10, 10, in: square) == .boundary)
        #expect(locate(0, 0, in: square) == .boundary)
        // On an edge's line but past its end: outside.
        #expect(locate(12, 0, in: square) == .outside)
        #expect(locate(10, 12, in: square) == .outside)
    }

    @Test func aConcaveRing() {
        #expect(locate(5, 5, in: u) == .outside)
        #expect(locate(2, 5, in: u) == .inside)
        #expect(locate(8, 9, in: u) == .inside)
        #expect(locate(5, 2, in: u) == .inside)
        #expect(locate(5, 3, in: u) == .boundary)
        #expect(locate(6, 8, in: u) == .boundary)
        // A ray through the notch's vertices' height (y 10 and y 3) counts each crossing once.
        #expect(locate(-5, 3, in: u) == .outside)
        #expect(locate(-5, 10, in: u) == .outside)
        #expect(locate(1, 3, in: u) == .inside)
    }

    @Test func theRingMayRunEitherWay() {
        let clockwise = Array(u.reversed())
        for (x, y): (Int64, Int64) in [(5, 5), (2, 5), (8, 9), (5, 3), (-5, 3), (1, 3)] {
            #expect(locate(x, y, in: clockwise) == locate(x, y, in: u))
        }
    }

    @Test func aRingTooShortForItsCountIsOutside() {
        let flat: [Int32] = [0, 0, 10, 0]
        let result = flat.withUnsafeBytes { RingContainment.locate(x: 1, y: 0, ring: $0, count: 3) }
        #expect(result == .outside)
    }
}
