import Foundation
import Testing

@testable import FixcastCore

/// The k-d tree must give exactly the answer of looking at every point with the haversine formula.
struct NearestPlaceIndexTests {
    /// Haversine over every point; ties go to the lowest index, as the index promises.
    static func bruteForce(_ lat: [Double], _ lon: [Double], _ q: Coordinate) -> (index: Int, km: Double) {
        var best = (index: -1, km: Double.infinity)
        for i in lat.indices {
            guard let p = Coordinate(lat: lat[i], lon: lon[i]) else { continue }
            let d = GreatCircle.distanceKm(q, p)
            if d < best.km { best = (i, d) }
        }
        return best
    }

    static func randomPoints<G: RandomNumberGenerator>(_ n: Int, using g: inout G) -> ([Double], [Double]) {
        var lat: [Double] = []
        var lon: [Double] = []
        for k in 0..<n {
            switch k % 4 {
            case 0:  // near the antimeridian
                lat.append(Double.random(in: -80...80, using: &g))
                lon.append(
                    Bool.random(using: &g)
                        ? Double.random(in: 175...180, using: &g) : Double.random(in: -180 ... -175, using: &g))
            case 1:  // near the poles
                lat.append(
                    Bool.random(using: &g)
                        ? Double.random(in: 85...90, using: &g) : Double.random(in: -90 ... -85, using: &g))
                lon.append(Double.random(in: -180...180, using: &g))
            default:  // anywhere, uniformly on the sphere
                lat.append(asin(Double.random(in: -1...1, using: &g)) * 180 / .pi)
                lon.append(Double.random(in: -180...180, using: &g))
            }
        }
        return (lat, lon)
    }

    @Test func agreesWithABruteForceScanOnRandomPoints() throws {
        var g = SystemRandomNumberGenerator()
        let (lat, lon) = Self.randomPoints(4000, using: &g)
        let index = NearestPlaceIndex(lat: lat, lon: lon)
        #expect(index.count == 4000)
        let (qLat, qLon) = Self.randomPoints(3000, using: &g)
        // Also exactly on the seam and the poles.
        let queries =
            zip(qLat, qLon).map { ($0, $1) } + [
                (0, 180), (0, -180), (90, 0), (-90, 0), (89.9999, 179.9999), (-89.9999, -179.9999),
            ]
        var disagreements = 0
        for (la, lo) in queries {
            let q = try #require(Coordinate(lat: la, lon: lo))
            let tree = try #require(index.nearest(lat: la, lon: lo))
            let scan = Self.bruteForce(lat, lon, q)
            // Same distance to 1 mm; the same point unless two points are equally far (then either is right).
            #expect(abs(tree.distanceKm - scan.km) < 1e-6)
            if tree.index != scan.index {
                let other = try #require(Coordinate(lat: lat[tree.index], lon: lon[tree.index]))
                #expect(abs(GreatCircle.distanceKm(q, other) - scan.km) < 1e-6)
                disagreements += 1
            }
        }
        #expect(disagreements <= 1)
    }

    @Test func aPointAcrossTheAntimeridianIsNearest() {
        // 179.9° and -179.9° are 22 km apart; 178° is much farther.
        let index = NearestPlaceIndex(lat: [0, 0], lon: [178, -179.9])
        #expect(index.nearest(lat: 0, lon: 179.9)?.index == 1)
        let tree = index.nearest(lat: 0, lon: 179.9)
        #expect(tree.map { abs($0.distanceKm - 22.24) < 0.1 } == true)
    }

    @Test func nearThePoleLongitudeMattersLittle() {
        // At 89.9°N, a point on the other side of the pole (lon + 180) is 22 km away; one at 88°N, same lon, 211 km.
        let index = NearestPlaceIndex(lat: [88, 89.9], lon: [10, -170])
        #expect(index.nearest(lat: 89.9, lon: 10)?.index == 1)
    }

    @Test func tiesGoToTheLowestIndex() {
        let index = NearestPlaceIndex(lat: [10, 10, 10], lon: [20, 20, 20])
        #expect(index.nearest(lat: 10, lon: 20)?.index == 0)
        #expect(index.nearestByScan(lat: 10, lon: 20)?.index == 0)
    }

    @Test func anEmptyIndexHasNoAnswer() {
        #expect(NearestPlaceIndex(lat: [], lon: []).nearest(lat: 0, lon: 0) == nil)
    }

    @Test func scanAndTreeAgree() throws {
        var g = SystemRandomNumberGenerator()
        let (lat, lon) = Self.randomPoints(3000, using: &g)
        let index = NearestPlaceIndex(lat: lat, lon: lon)
        for _ in 0..<500 {
            let la = Double.random(in: -90...90, using: &g)
            let lo = Double.random(in: -180...180, using: &g)
            let a = try #require(index.nearest(lat: la, lon: lo))
            let b = try #require(index.nearestByScan(lat: la, lon: lo))
            #expect(a.index == b.index)
            #expect(a.distanceKm == b.distanceKm)
        }
    }
}

struct NearestPlaceIndexRadiusTests {
    @Test func withinAgreesWithABruteForceScan() throws {
        var g = SystemRandomNumberGenerator()
        let (lat, lon) = NearestPlaceIndexTests.randomPoints(3000, using: &g)
        let index = NearestPlaceIndex(lat: lat, lon: lon)
        for k in 0..<300 {
            let la = k % 3 == 0 ? Double.random(in: 84...90, using: &g) : Double.random(in: -90...90, using: &g)
            let lo = k % 3 == 1 ? 179.95 : Double.random(in: -180...180, using: &g)
            let radius = Double.random(in: 1...800, using: &g)
            let q = try #require(Coordinate(lat: la, lon: lo))
            let expected = Set(
                lat.indices.filter { i in
                    Coordinate(lat: lat[i], lon: lon[i]).map { GreatCircle.distanceKm(q, $0) <= radius } ?? false
                })
            let found = Set(index.within(lat: la, lon: lo, radiusKm: radius))
            // Points within a micrometre of the circle may fall either way by rounding.
            let differing = expected.symmetricDifference(found).filter { i in
                let d = GreatCircle.distanceKm(q, Coordinate(lat: lat[i], lon: lon[i])!)
                return abs(d - radius) > 1e-6
            }
            #expect(differing.isEmpty)
        }
    }
}
