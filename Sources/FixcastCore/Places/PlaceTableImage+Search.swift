/// Nearest-place questions answered by walking the image's implicit k-d tree in place (the tree
/// `NearestPlaceIndex`'s build produced, through the same walk, `KDTreeStorage`): a lookup reads only the
/// ~20–60 nodes on its path, so only their pages of a mapped file become resident.
extension PlaceTableImage: KDTreeStorage {
    /// The tree node at `position`: its unit vector computed from the stored E4 latitude and longitude
    /// (the same Doubles the build used, so the same answers), its row and its split axis.
    @inline(__always) func node(_ position: Int) -> KDTreeNode {
        let o = position * Self.nodeSize
        let lat = Int32(bitPattern: tree.u32(o))
        let lon = Int32(bitPattern: tree.u32(o + 4))
        let w = tree.u32(o + 8)
        return KDTreeNode(
            point: KDTree.unitVector(lat: Double(lat) / 10_000, lon: Double(lon) / 10_000),
            id: Int32(bitPattern: w & Self.rowMask), axis: Int(w >> 30))
    }

    /// The row nearest to (`lat`, `lon`) and its great-circle distance; nil for an empty table.
    func nearest(lat: Double, lon: Double) -> (row: Int, distanceKm: Double)? {
        nearestNode(to: KDTree.unitVector(lat: lat, lon: lon))
            .map { (Int($0.id), KDTree.kilometres(chordSquared: $0.squared)) }
    }

    /// Every row within `radiusKm` of (`lat`, `lon`), in no particular order.
    func within(lat: Double, lon: Double, radiusKm: Double) -> [Int] {
        guard radiusKm >= 0 else { return [] }
        return nodes(within: KDTree.chordSquaredLimit(radiusKm: radiusKm), of: KDTree.unitVector(lat: lat, lon: lon))
    }

    /// The same as `nearest` by looking at every node (the tests' and the benchmark's reference).
    func nearestByScan(lat: Double, lon: Double) -> (row: Int, distanceKm: Double)? {
        nearestNodeByScan(to: KDTree.unitVector(lat: lat, lon: lon))
            .map { (Int($0.id), KDTree.kilometres(chordSquared: $0.squared)) }
    }
}
