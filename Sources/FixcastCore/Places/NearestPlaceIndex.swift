#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the nearest of a fixed set of points on the sphere: a balanced k-d tree over 3D unit vectors.
///
/// Why unit vectors: the straight-line (chord) distance between two points on the sphere grows with the
/// great-circle distance, so the nearest by chord is the nearest by great circle — and there is no
/// longitude seam at ±180° and no pole to special-case, which a latitude/longitude grid would need.
/// The tree is stored implicitly (node = median of its range), so building it is a few in-place
/// partitions and it costs no pointers.
public struct NearestPlaceIndex: Sendable {
    /// x, y, z of each point in tree order.
    private let xyz: [Double]
    /// The caller's index of the point at each tree position.
    let ids: [Int32]
    /// The split axis (0, 1, 2) of the node at each tree position.
    let axes: [UInt8]

    public var count: Int { ids.count }

    /// Builds the index over points given in degrees; `lat.count` must equal `lon.count` (extra values of
    /// the longer array are ignored). Answers are indices into these arrays.
    public init(lat: [Double], lon: [Double]) {
        let n = min(lat.count, lon.count)
        var points = [Double](repeating: 0, count: 3 * n)
        for i in 0..<n {
            let v = NearestPlaceIndex.unitVector(lat: lat[i], lon: lon[i])
            points[3 * i] = v.0
            points[3 * i + 1] = v.1
            points[3 * i + 2] = v.2
        }
        var order = [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = Int32(i) }
            count = n
        }
        var axes = [UInt8](repeating: 0, count: n)
        points.withUnsafeBufferPointer { p in
            order.withUnsafeMutableBufferPointer { o in
                axes.withUnsafeMutableBufferPointer { a in
                    NearestPlaceIndex.build(points: p, order: o, axes: a, lo: 0, hi: n)
                }
            }
        }
        var treeXYZ = [Double](repeating: 0, count: 3 * n)
        for (position, id) in order.enumerated() {
            let i = Int(id)
            treeXYZ[3 * position] = points[3 * i]
            treeXYZ[3 * position + 1] = points[3 * i + 1]
            treeXYZ[3 * position + 2] = points[3 * i + 2]
        }
        self.xyz = treeXYZ
        self.ids = order
        self.axes = axes
    }

    /// The index of the point nearest to (`lat`, `lon`) in degrees, and its great-circle distance in km;
    /// nil only for an empty index. Among points at exactly the same distance the lowest index wins, so
    /// the answer does not depend on how the tree happened to split.
    public func nearest(lat: Double, lon: Double) -> (index: Int, distanceKm: Double)? {
        guard !ids.isEmpty else { return nil }
        let q = NearestPlaceIndex.unitVector(lat: lat, lon: lon)
        var best = Best(squared: .infinity, id: Int32.max)
        xyz.withUnsafeBufferPointer { p in
            ids.withUnsafeBufferPointer { ids in
                axes.withUnsafeBufferPointer { axes in
                    NearestPlaceIndex.search(
                        query: q, points: p, ids: ids, axes: axes, lo: 0, hi: ids.count, best: &best)
                }
            }
        }
        return (Int(best.id), NearestPlaceIndex.kilometres(chordSquared: best.squared))
    }

    /// The indices of every point within `radiusKm` (great circle) of (`lat`, `lon`), in no particular order.
    public func within(lat: Double, lon: Double, radiusKm: Double) -> [Int] {
        guard !ids.isEmpty, radiusKm >= 0 else { return [] }
        let q = NearestPlaceIndex.unitVector(lat: lat, lon: lon)
        let limit = NearestPlaceIndex.chordSquaredLimit(radiusKm: radiusKm)
        var found: [Int] = []
        xyz.withUnsafeBufferPointer { p in
            ids.withUnsafeBufferPointer { ids in
                axes.withUnsafeBufferPointer { axes in
                    NearestPlaceIndex.collect(
                        query: q, limit: limit, points: p, ids: ids, axes: axes, lo: 0, hi: ids.count, into: &found)
                }
            }
        }
        return found
    }

    /// The same answer by looking at every point; the reference the tree is tested and benchmarked against.
    public func nearestByScan(lat: Double, lon: Double) -> (index: Int, distanceKm: Double)? {
        guard !ids.isEmpty else { return nil }
        let q = NearestPlaceIndex.unitVector(lat: lat, lon: lon)
        var best = Best(squared: .infinity, id: Int32.max)
        for position in 0..<ids.count {
            best.offer(NearestPlaceIndex.squaredDistance(q, xyz, position), ids[position])
        }
        return (Int(best.id), NearestPlaceIndex.kilometres(chordSquared: best.squared))
    }

    // MARK: - Internals

    // The geometry both tree walks use (this in-memory tree and `PlaceTableImage`'s mapped one),
    // defined once so the two cannot drift apart in what "nearest" or "within" means.

    /// The nearest candidate so far; on a tie the lower id wins, so tree and scan give the same answer.
    struct Best {
        var squared: Double
        var id: Int32

        @inline(__always) mutating func offer(_ d: Double, _ candidate: Int32) {
            if d < squared || (d == squared && candidate < id) {
                squared = d
                id = candidate
            }
        }
    }

    /// The squared chord between two unit vectors (it orders points as the great-circle distance does).
    @inline(__always)
    static func chordSquared(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        let dx = a.0 - b.0
        let dy = a.1 - b.1
        let dz = a.2 - b.2
        return dx * dx + dy * dy + dz * dz
    }

    /// The largest squared chord within `radiusKm` (great circle), with a hair of slack so that a point
    /// exactly on the circle is not lost to rounding.
    static func chordSquaredLimit(radiusKm: Double) -> Double {
        let angle = min(Double.pi, radiusKm / GreatCircle.earthRadiusKm)
        let chord = 2 * sin(angle / 2)
        return chord * chord * (1 + 1e-12) + 1e-15
    }

    /// A vector's coordinate along a k-d split axis (0: x, 1: y, 2: z).
    @inline(__always) static func coordinate(_ v: (Double, Double, Double), axis: Int) -> Double {
        axis == 0 ? v.0 : axis == 1 ? v.1 : v.2
    }

    static func unitVector(lat: Double, lon: Double) -> (Double, Double, Double) {
        let rad = Double.pi / 180
        let cl = cos(lat * rad)
        return (cl * cos(lon * rad), cl * sin(lon * rad), sin(lat * rad))
    }

    /// Chord length c on the unit sphere ↔ central angle 2·asin(c/2).
    static func kilometres(chordSquared: Double) -> Double {
        2 * asin(min(1, sqrt(chordSquared) / 2)) * GreatCircle.earthRadiusKm
    }

    @inline(__always)
    private static func squaredDistance(_ q: (Double, Double, Double), _ p: [Double], _ i: Int) -> Double {
        chordSquared((p[3 * i], p[3 * i + 1], p[3 * i + 2]), q)
    }

    private static func build(
        points: UnsafeBufferPointer<Double>, order: UnsafeMutableBufferPointer<Int32>,
        axes: UnsafeMutableBufferPointer<UInt8>, lo: Int, hi: Int
    ) {
        guard hi - lo > 1 else { return }
        // Split along the axis where the points spread most: the tree then stays useful on a sphere,
        // where a fixed x/y/z rotation would cut thin slivers.
        var minV = (Double.infinity, Double.infinity, Double.infinity)
        var maxV = (-Double.infinity, -Double.infinity, -Double.infinity)
        for k in lo..<hi {
            let b = 3 * Int(order[k])
            minV = (min(minV.0, points[b]), min(minV.1, points[b + 1]), min(minV.2, points[b + 2]))
            maxV = (max(maxV.0, points[b]), max(maxV.1, points[b + 1]), max(maxV.2, points[b + 2]))
        }
        let spread = (maxV.0 - minV.0, maxV.1 - minV.1, maxV.2 - minV.2)
        let axis = spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : (spread.1 >= spread.2 ? 1 : 2)
        let mid = (lo + hi) / 2
        select(points: points, order: order, axis: axis, lo: lo, hi: hi, k: mid)
        axes[mid] = UInt8(axis)
        build(points: points, order: order, axes: axes, lo: lo, hi: mid)
        build(points: points, order: order, axes: axes, lo: mid + 1, hi: hi)
    }

    /// Quickselect (Hoare partition, median-of-three pivot): afterwards order[k] holds the point that
    /// would be there if [lo, hi) were sorted along `axis`, smaller-or-equal ones before, larger-or-equal after.
    private static func select(
        points: UnsafeBufferPointer<Double>, order: UnsafeMutableBufferPointer<Int32>, axis: Int,
        lo: Int, hi: Int, k: Int
    ) {
        @inline(__always) func key(_ i: Int) -> Double { points[3 * Int(order[i]) + axis] }
        var lo = lo
        var hi = hi - 1
        while hi > lo {
            let m = lo + (hi - lo) / 2
            if key(m) < key(lo) { order.swapAt(m, lo) }
            if key(hi) < key(lo) { order.swapAt(hi, lo) }
            if key(hi) < key(m) { order.swapAt(hi, m) }
            let pivot = key(m)
            var i = lo
            var j = hi
            while i <= j {
                while key(i) < pivot { i += 1 }
                while key(j) > pivot { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                hi = j
            } else if k >= i {
                lo = i
            } else {
                return
            }
        }
    }

    private static func search(
        query q: (Double, Double, Double), points: UnsafeBufferPointer<Double>, ids: UnsafeBufferPointer<Int32>,
        axes: UnsafeBufferPointer<UInt8>, lo: Int, hi: Int, best: inout Best
    ) {
        guard hi > lo else { return }
        let mid = (lo + hi) / 2
        let b = 3 * mid
        best.offer(chordSquared((points[b], points[b + 1], points[b + 2]), q), ids[mid])
        guard hi - lo > 1 else { return }
        let axis = Int(axes[mid])
        let diff = coordinate(q, axis: axis) - points[b + axis]
        let (near, far) = diff < 0 ? ((lo, mid), (mid + 1, hi)) : ((mid + 1, hi), (lo, mid))
        search(query: q, points: points, ids: ids, axes: axes, lo: near.0, hi: near.1, best: &best)
        // `<=`, not `<`: a point exactly as far as the best so far may still win the lowest-index tie-break.
        if diff * diff <= best.squared {
            search(query: q, points: points, ids: ids, axes: axes, lo: far.0, hi: far.1, best: &best)
        }
    }

    private static func collect(
        query q: (Double, Double, Double), limit: Double, points: UnsafeBufferPointer<Double>,
        ids: UnsafeBufferPointer<Int32>, axes: UnsafeBufferPointer<UInt8>, lo: Int, hi: Int, into found: inout [Int]
    ) {
        guard hi > lo else { return }
        let mid = (lo + hi) / 2
        let b = 3 * mid
        if chordSquared((points[b], points[b + 1], points[b + 2]), q) <= limit { found.append(Int(ids[mid])) }
        guard hi - lo > 1 else { return }
        let axis = Int(axes[mid])
        let diff = coordinate(q, axis: axis) - points[b + axis]
        if diff < 0 || diff * diff <= limit {
            collect(query: q, limit: limit, points: points, ids: ids, axes: axes, lo: lo, hi: mid, into: &found)
        }
        if diff >= 0 || diff * diff <= limit {
            collect(query: q, limit: limit, points: points, ids: ids, axes: axes, lo: mid + 1, hi: hi, into: &found)
        }
    }
}
