/// A balanced k-d tree over 3D unit vectors of a fixed set of points on the sphere, built in memory.
///
/// The tree is stored implicitly (node = median of its range), so building it is a few in-place
/// partitions and it costs no pointers. Its build is what orders places.bin's tree (`PlaceTableImage.encode`);
/// its questions go through the same walk as the mapped table's (`KDTreeStorage`), so the two answer alike.
/// Answers are in the sphere's own terms (squared chords, central angles); the caller's Earth radius
/// turns them into kilometres (FixcastCore's `NearestPlaceIndex`).
package struct KDTreeIndex: Sendable {
    /// x, y, z of each point in tree order.
    private let xyz: [Double]
    /// The caller's index of the point at each tree position.
    package let ids: [Int32]
    /// The split axis (0, 1, 2) of the node at each tree position.
    package let axes: [UInt8]

    package var count: Int { ids.count }

    /// Builds the index over points given in degrees; `lat.count` must equal `lon.count` (extra values of
    /// the longer array are ignored). Answers are indices into these arrays.
    package init(lat: [Double], lon: [Double]) {
        let n = min(lat.count, lon.count)
        var points = [Double](repeating: 0, count: 3 * n)
        for i in 0..<n {
            let v = KDTree.unitVector(lat: lat[i], lon: lon[i])
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
                    KDTreeIndex.build(points: p, order: o, axes: a, lo: 0, hi: n)
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

    /// The point nearest to (`lat`, `lon`) in degrees: its index and squared chord; nil only for an empty
    /// index. Among points at exactly the same distance the lowest index wins, so the answer does not
    /// depend on how the tree happened to split.
    package func nearest(lat: Double, lon: Double) -> KDTree.Best? {
        let q = KDTree.unitVector(lat: lat, lon: lon)
        return withTree { $0.nearestNode(to: q) }
    }

    /// The indices of every point within the central angle `radians` of (`lat`, `lon`), in no particular
    /// order.
    package func within(lat: Double, lon: Double, radians: Double) -> [Int] {
        let q = KDTree.unitVector(lat: lat, lon: lon)
        let limit = KDTree.chordSquaredLimit(radians: radians)
        return withTree { $0.nodes(within: limit, of: q) }
    }

    /// The same answer as `nearest` by looking at every point; the reference the tree is tested and
    /// benchmarked against.
    package func nearestByScan(lat: Double, lon: Double) -> KDTree.Best? {
        let q = KDTree.unitVector(lat: lat, lon: lon)
        return withTree { $0.nearestNodeByScan(to: q) }
    }

    // MARK: - Internals

    /// The arrays as the k-d tree walk reads them (`KDTreeStorage`), valid inside `body`.
    package func withTree<R>(_ body: (KDTreeArrays) -> R) -> R {
        xyz.withUnsafeBufferPointer { p in
            ids.withUnsafeBufferPointer { ids in
                axes.withUnsafeBufferPointer { axes in body(KDTreeArrays(xyz: p, ids: ids, axes: axes)) }
            }
        }
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
}

/// `KDTreeIndex`'s tree as the walk reads it: x, y, z, id and split axis per tree position.
package struct KDTreeArrays: KDTreeStorage {
    let xyz: UnsafeBufferPointer<Double>
    let ids: UnsafeBufferPointer<Int32>
    let axes: UnsafeBufferPointer<UInt8>

    package var count: Int { ids.count }

    @inline(__always) package func node(_ position: Int) -> KDTreeNode {
        let b = 3 * position
        return KDTreeNode(point: (xyz[b], xyz[b + 1], xyz[b + 2]), id: ids[position], axis: Int(axes[position]))
    }
}
