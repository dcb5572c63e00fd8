#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Nearest-place questions answered by walking the image's implicit k-d tree in place (the same tree and
/// the same unit-vector distances as `NearestPlaceIndex`, whose build produced it): a lookup reads only the
/// ~20–60 nodes on its path, so only their pages of a mapped file become resident.
extension PlaceTableImage {
    private struct Best {
        var squared: Double
        var id: Int32

        @inline(__always) mutating func offer(_ d: Double, _ candidate: Int32) {
            if d < squared || (d == squared && candidate < id) {
                squared = d
                id = candidate
            }
        }
    }

    @inline(__always) private func vector(_ position: Int) -> (Double, Double, Double) {
        let e4 = nodeE4(position)
        return NearestPlaceIndex.unitVector(lat: Double(e4.lat) / 10_000, lon: Double(e4.lon) / 10_000)
    }

    /// The row nearest to (`lat`, `lon`) and its great-circle distance; nil for an empty table.
    func nearest(lat: Double, lon: Double) -> (row: Int, distanceKm: Double)? {
        guard count > 0 else { return nil }
        var best = Best(squared: .infinity, id: Int32.max)
        search(NearestPlaceIndex.unitVector(lat: lat, lon: lon), lo: 0, hi: count, &best)
        guard best.id >= 0, Int(best.id) < count else { return nil }
        return (Int(best.id), NearestPlaceIndex.kilometres(chordSquared: best.squared))
    }

    /// Every row within `radiusKm` of (`lat`, `lon`), in no particular order.
    func within(lat: Double, lon: Double, radiusKm: Double) -> [Int] {
        guard count > 0, radiusKm >= 0 else { return [] }
        let angle = min(Double.pi, radiusKm / GreatCircle.earthRadiusKm)
        let chord = 2 * sin(angle / 2)
        let limit = chord * chord * (1 + 1e-12) + 1e-15
        var found: [Int] = []
        collect(NearestPlaceIndex.unitVector(lat: lat, lon: lon), limit, lo: 0, hi: count, &found)
        return found
    }

    /// The same as `nearest` by looking at every node (the tests' and the benchmark's reference).
    func nearestByScan(lat: Double, lon: Double) -> (row: Int, distanceKm: Double)? {
        guard count > 0 else { return nil }
        let q = NearestPlaceIndex.unitVector(lat: lat, lon: lon)
        var best = Best(squared: .infinity, id: Int32.max)
        for position in 0..<count {
            let p = vector(position)
            let d = (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)
            best.offer(d, nodeRowAndAxis(position).row)
        }
        guard best.id >= 0, Int(best.id) < count else { return nil }
        return (Int(best.id), NearestPlaceIndex.kilometres(chordSquared: best.squared))
    }

    private func search(_ q: (Double, Double, Double), lo: Int, hi: Int, _ best: inout Best) {
        guard hi > lo else { return }
        let mid = (lo + hi) / 2
        let p = vector(mid)
        let node = nodeRowAndAxis(mid)
        let dx = p.0 - q.0
        let dy = p.1 - q.1
        let dz = p.2 - q.2
        best.offer(dx * dx + dy * dy + dz * dz, node.row)
        guard hi - lo > 1 else { return }
        let diff = node.axis == 0 ? q.0 - p.0 : node.axis == 1 ? q.1 - p.1 : q.2 - p.2
        if diff < 0 {
            search(q, lo: lo, hi: mid, &best)
            if diff * diff <= best.squared { search(q, lo: mid + 1, hi: hi, &best) }
        } else {
            search(q, lo: mid + 1, hi: hi, &best)
            if diff * diff <= best.squared { search(q, lo: lo, hi: mid, &best) }
        }
    }

    private func collect(_ q: (Double, Double, Double), _ limit: Double, lo: Int, hi: Int, _ found: inout [Int]) {
        guard hi > lo else { return }
        let mid = (lo + hi) / 2
        let p = vector(mid)
        let node = nodeRowAndAxis(mid)
        let dx = p.0 - q.0
        let dy = p.1 - q.1
        let dz = p.2 - q.2
        if dx * dx + dy * dy + dz * dz <= limit, node.row >= 0, Int(node.row) < count { found.append(Int(node.row)) }
        guard hi - lo > 1 else { return }
        let diff = node.axis == 0 ? q.0 - p.0 : node.axis == 1 ? q.1 - p.1 : q.2 - p.2
        if diff < 0 || diff * diff <= limit { collect(q, limit, lo: lo, hi: mid, &found) }
        if diff >= 0 || diff * diff <= limit { collect(q, limit, lo: mid + 1, hi: hi, &found) }
    }
}
