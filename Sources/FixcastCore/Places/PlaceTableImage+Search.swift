/// Nearest-place questions answered by walking the image's implicit k-d tree in place (the same tree and
/// the same unit-vector distances as `NearestPlaceIndex`, whose build produced it): a lookup reads only the
/// ~20–60 nodes on its path, so only their pages of a mapped file become resident.
extension PlaceTableImage {
    @inline(__always) private func vector(_ position: Int) -> (Double, Double, Double) {
        let e4 = nodeE4(position)
        return NearestPlaceIndex.unitVector(lat: Double(e4.lat) / 10_000, lon: Double(e4.lon) / 10_000)
    }

    /// The row nearest to (`lat`, `lon`) and its great-circle distance; nil for an empty table.
    func nearest(lat: Double, lon: Double) -> (row: Int, distanceKm: Double)? {
        guard count > 0 else { return nil }
        var best = NearestPlaceIndex.Best(squared: .infinity, id: Int32.max)
        search(NearestPlaceIndex.unitVector(lat: lat, lon: lon), lo: 0, hi: count, &best)
        guard best.id >= 0, Int(best.id) < count else { return nil }
        return (Int(best.id), NearestPlaceIndex.kilometres(chordSquared: best.squared))
    }

    /// Every row within `radiusKm` of (`lat`, `lon`), in no particular order.
    func within(lat: Double, lon: Double, radiusKm: Double) -> [Int] {
        guard count > 0, radiusKm >= 0 else { return [] }
        let limit = NearestPlaceIndex.chordSquaredLimit(radiusKm: radiusKm)
        var found: [Int] = []
        collect(NearestPlaceIndex.unitVector(lat: lat, lon: lon), limit, lo: 0, hi: count, &found)
        return found
    }

    /// The same as `nearest` by looking at every node (the tests' and the benchmark's reference).
    func nearestByScan(lat: Double, lon: Double) -> (row: Int, distanceKm: Double)? {
        guard count > 0 else { return nil }
        let q = NearestPlaceIndex.unitVector(lat: lat, lon: lon)
        var best = NearestPlaceIndex.Best(squared: .infinity, id: Int32.max)
        for position in 0..<count {
            best.offer(NearestPlaceIndex.chordSquared(vector(position), q), nodeRowAndAxis(position).row)
        }
        guard best.id >= 0, Int(best.id) < count else { return nil }
        return (Int(best.id), NearestPlaceIndex.kilometres(chordSquared: best.squared))
    }

    private func search(_ q: (Double, Double, Double), lo: Int, hi: Int, _ best: inout NearestPlaceIndex.Best) {
        guard hi > lo else { return }
        let mid = (lo + hi) / 2
        let p = vector(mid)
        let node = nodeRowAndAxis(mid)
        best.offer(NearestPlaceIndex.chordSquared(p, q), node.row)
        guard hi - lo > 1 else { return }
        let axis = node.axis
        let diff = NearestPlaceIndex.coordinate(q, axis: axis) - NearestPlaceIndex.coordinate(p, axis: axis)
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
        if NearestPlaceIndex.chordSquared(p, q) <= limit, node.row >= 0, Int(node.row) < count {
            found.append(Int(node.row))
        }
        guard hi - lo > 1 else { return }
        let axis = node.axis
        let diff = NearestPlaceIndex.coordinate(q, axis: axis) - NearestPlaceIndex.coordinate(p, axis: axis)
        if diff < 0 || diff * diff <= limit { collect(q, limit, lo: lo, hi: mid, &found) }
        if diff >= 0 || diff * diff <= limit { collect(q, limit, lo: mid + 1, hi: hi, &found) }
    }
}
