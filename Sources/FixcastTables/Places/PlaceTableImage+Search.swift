/// Nearest-place questions answered by walking the image's implicit k-d tree in place (the tree
/// `KDTreeIndex`'s build produced, through the same walk, `KDTreeStorage`): a lookup reads only the
/// ~20–60 nodes on its path, so only their pages of a mapped file become resident.
extension PlaceTableImage: KDTreeStorage {
    /// The tree node at `position`: its unit vector computed from the stored E4 latitude and longitude
    /// (the same Doubles the build used, so the same answers), its row and its split axis.
    @inline(__always) package func node(_ position: Int) -> KDTreeNode {
        let o = position * Self.nodeSize
        let lat = Int32(bitPattern: tree.u32(o))
        let lon = Int32(bitPattern: tree.u32(o + 4))
        let w = tree.u32(o + 8)
        return KDTreeNode(
            point: KDTree.unitVector(lat: Double(lat) / 10_000, lon: Double(lon) / 10_000),
            id: Int32(bitPattern: w & Self.rowMask), axis: Int(w >> 30))
    }

    /// The row nearest to (`lat`, `lon`) and its central angle in radians (times the Earth's radius, the
    /// great-circle distance); nil for an empty table.
    package func nearest(lat: Double, lon: Double) -> (row: Int, radians: Double)? {
        nearestNode(to: KDTree.unitVector(lat: lat, lon: lon))
            .map { (Int($0.id), KDTree.centralAngle(chordSquared: $0.squared)) }
    }

    /// Every row within the central angle `radians` of (`lat`, `lon`), in no particular order.
    package func within(lat: Double, lon: Double, radians: Double) -> [Int] {
        guard radians >= 0 else { return [] }
        return nodes(within: KDTree.chordSquaredLimit(radians: radians), of: KDTree.unitVector(lat: lat, lon: lon))
    }

    /// The same as `nearest` by looking at every node (the tests' and the benchmark's reference).
    package func nearestByScan(lat: Double, lon: Double) -> (row: Int, radians: Double)? {
        nearestNodeByScan(to: KDTree.unitVector(lat: lat, lon: lon))
            .map { (Int($0.id), KDTree.centralAngle(chordSquared: $0.squared)) }
    }
}
