internal import CMath

/// A point on the unit sphere: x, y, z.
package typealias UnitVector = (Double, Double, Double)

/// One node of an implicit k-d tree: its point, the caller's id for that point (a row of the place table,
/// an index into `NearestPlaceIndex`'s input), and the axis (0: x, 1: y, 2: z) its range was split along.
package struct KDTreeNode {
    package var point: UnitVector
    package var id: Int32
    package var axis: Int

    package init(point: UnitVector, id: Int32, axis: Int) {
        self.point = point
        self.id = id
        self.axis = axis
    }
}

/// Where an implicit k-d tree's nodes live. The tree is a permutation of the points: the node of a range
/// [lo, hi) of positions is at (lo + hi) / 2, the points before it are not further along its split axis,
/// the points after it not nearer. There is one walk (`nearestNode`, `nodes(within:of:)` below) and two
/// storages: `KDTreeIndex`'s arrays (the tree as it is built) and `PlaceTableImage`'s tree section
/// (the same tree written into places.bin, read in place). The walk is generic over the storage and the
/// compiler specialises it for each, so neither pays for the abstraction.
package protocol KDTreeStorage {
    /// The number of nodes (= points).
    var count: Int { get }
    /// The node at tree position `position` (0..<count).
    func node(_ position: Int) -> KDTreeNode
}

/// The geometry of the tree walk, defined once so that "nearest" and "within" mean the same for every
/// storage and for the brute-force reference.
///
/// Why unit vectors: the straight-line (chord) distance between two points on the sphere grows with the
/// great-circle distance, so the nearest by chord is the nearest by great circle — and there is no
/// longitude seam at ±180° and no pole to special-case, which a latitude/longitude grid would need.
package enum KDTree {
    /// The nearest candidate so far; on a tie the lower id wins, so the tree walk and a scan give the same
    /// answer whatever order they look at the points in.
    package struct Best {
        package var squared: Double
        package var id: Int32

        package static let none = Best(squared: .infinity, id: Int32.max)

        @inline(__always) package mutating func offer(_ d: Double, _ candidate: Int32) {
            if d < squared || (d == squared && candidate < id) {
                squared = d
                id = candidate
            }
        }
    }

    /// The squared chord between two unit vectors (it orders points as the great-circle distance does).
    @inline(__always)
    package static func chordSquared(_ a: UnitVector, _ b: UnitVector) -> Double {
        let dx = a.0 - b.0
        let dy = a.1 - b.1
        let dz = a.2 - b.2
        return dx * dx + dy * dy + dz * dz
    }

    /// The largest squared chord within the central angle `radians` (a great-circle distance divided by
    /// the sphere's radius: the caller's Earth radius stays the caller's), with a hair of slack so that a
    /// point exactly on the circle is not lost to rounding.
    package static func chordSquaredLimit(radians: Double) -> Double {
        let angle = min(Double.pi, radians)
        let chord = 2 * cmath_sin(angle / 2)
        return chord * chord * (1 + 1e-12) + 1e-15
    }

    /// A vector's coordinate along a k-d split axis (0: x, 1: y, 2: z).
    @inline(__always) package static func coordinate(_ v: UnitVector, axis: Int) -> Double {
        axis == 0 ? v.0 : axis == 1 ? v.1 : v.2
    }

    /// The unit vector of a latitude and longitude in degrees, by the C library's sin and cos (the CMath
    /// shim: the same answers, bit for bit, that built every places.bin, so the trees and their answers do
    /// not move).
    @inline(__always) package static func unitVector(lat: Double, lon: Double) -> UnitVector {
        let rad = Double.pi / 180
        let cl = cmath_cos(lat * rad)
        return (cl * cmath_cos(lon * rad), cl * cmath_sin(lon * rad), cmath_sin(lat * rad))
    }

    /// Chord length c on the unit sphere ↔ central angle 2·asin(c/2), in radians (times the Earth's radius
    /// it is the great-circle distance).
    package static func centralAngle(chordSquared: Double) -> Double {
        2 * cmath_asin(min(1, chordSquared.squareRoot() / 2))
    }
}

/// The one k-d tree walk.
extension KDTreeStorage {
    /// The node nearest to `q` (its id and squared chord) among those whose id is a row (below `count`: a
    /// damaged places.bin's other ids are passed over, so the nearest good row answers); nil for an empty
    /// tree or one without a good id.
    package func nearestNode(to q: UnitVector) -> KDTree.Best? {
        guard count > 0 else { return nil }
        var best = KDTree.Best.none
        search(q, lo: 0, hi: count, &best)
        return isRow(best.id) ? best : nil
    }

    /// Whether a node's id names one of the caller's `count` rows (a damaged places.bin may hold others;
    /// `Best.none`'s is none either).
    @inline(__always) func isRow(_ id: Int32) -> Bool { id >= 0 && Int(id) < count }

    /// The ids of every node whose squared chord to `q` is at most `limit`, in no particular order (ids not
    /// below `count`, from a damaged file, are left out).
    package func nodes(within limit: Double, of q: UnitVector) -> [Int] {
        var found: [Int] = []
        if count > 0 { collect(q, limit, lo: 0, hi: count, &found) }
        return found
    }

    /// The same answer as `nearestNode` by looking at every node: the reference the walk is tested and
    /// benchmarked against.
    package func nearestNodeByScan(to q: UnitVector) -> KDTree.Best? {
        guard count > 0 else { return nil }
        var best = KDTree.Best.none
        for position in 0..<count {
            let n = node(position)
            if isRow(n.id) { best.offer(KDTree.chordSquared(n.point, q), n.id) }
        }
        return isRow(best.id) ? best : nil
    }

    private func search(_ q: UnitVector, lo: Int, hi: Int, _ best: inout KDTree.Best) {
        guard hi > lo else { return }
        let mid = (lo + hi) / 2
        let n = node(mid)
        if isRow(n.id) { best.offer(KDTree.chordSquared(n.point, q), n.id) }
        guard hi - lo > 1 else { return }
        let diff = KDTree.coordinate(q, axis: n.axis) - KDTree.coordinate(n.point, axis: n.axis)
        if diff < 0 {
            search(q, lo: lo, hi: mid, &best)
            // `<=`, not `<`: a point exactly as far as the best so far may still win the lowest-id tie-break.
            if diff * diff <= best.squared { search(q, lo: mid + 1, hi: hi, &best) }
        } else {
            search(q, lo: mid + 1, hi: hi, &best)
            if diff * diff <= best.squared { search(q, lo: lo, hi: mid, &best) }
        }
    }

    private func collect(_ q: UnitVector, _ limit: Double, lo: Int, hi: Int, _ found: inout [Int]) {
        guard hi > lo else { return }
        let mid = (lo + hi) / 2
        let n = node(mid)
        if KDTree.chordSquared(n.point, q) <= limit, isRow(n.id) { found.append(Int(n.id)) }
        guard hi - lo > 1 else { return }
        let diff = KDTree.coordinate(q, axis: n.axis) - KDTree.coordinate(n.point, axis: n.axis)
        if diff < 0 || diff * diff <= limit { collect(q, limit, lo: lo, hi: mid, &found) }
        if diff >= 0 || diff * diff <= limit { collect(q, limit, lo: mid + 1, hi: hi, &found) }
    }
}
