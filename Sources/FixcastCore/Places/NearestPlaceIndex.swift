import FixcastTables

/// Finds the nearest of a fixed set of points on the sphere, in kilometres: the FixcastTables leaf's
/// k-d tree over unit vectors (`KDTreeIndex`, the tree places.bin is ordered by), with the geodesy's
/// Earth radius (`GreatCircle.earthRadiusKm`) turning its central angles into distances.
///
/// Why unit vectors: the straight-line (chord) distance between two points on the sphere grows with the
/// great-circle distance, so the nearest by chord is the nearest by great circle — and there is no
/// longitude seam at ±180° and no pole to special-case, which a latitude/longitude grid would need.
public struct NearestPlaceIndex: Sendable {
    let tree: KDTreeIndex

    public var count: Int { tree.count }

    /// Builds the index over points given in degrees; `lat.count` must equal `lon.count` (extra values of
    /// the longer array are ignored). Answers are indices into these arrays.
    public init(lat: [Double], lon: [Double]) {
        tree = KDTreeIndex(lat: lat, lon: lon)
    }

    /// The index of the point nearest to (`lat`, `lon`) in degrees, and its great-circle distance in km;
    /// nil only for an empty index. Among points at exactly the same distance the lowest index wins, so
    /// the answer does not depend on how the tree happened to split.
    public func nearest(lat: Double, lon: Double) -> (index: Int, distanceKm: Double)? {
        tree.nearest(lat: lat, lon: lon).map(Self.answer)
    }

    /// The indices of every point within `radiusKm` (great circle) of (`lat`, `lon`), in no particular order.
    public func within(lat: Double, lon: Double, radiusKm: Double) -> [Int] {
        guard radiusKm >= 0 else { return [] }
        return tree.within(lat: lat, lon: lon, radians: radiusKm / GreatCircle.earthRadiusKm)
    }

    /// The same answer by looking at every point; the reference the tree is tested and benchmarked against.
    public func nearestByScan(lat: Double, lon: Double) -> (index: Int, distanceKm: Double)? {
        tree.nearestByScan(lat: lat, lon: lon).map(Self.answer)
    }

    /// The arrays as the k-d tree walk reads them (`KDTreeStorage`), valid inside `body`.
    func withTree<R>(_ body: (KDTreeArrays) -> R) -> R { tree.withTree(body) }

    /// A walk's winner as an index and kilometres.
    static func answer(_ best: KDTree.Best) -> (index: Int, distanceKm: Double) {
        (Int(best.id), KDTree.centralAngle(chordSquared: best.squared) * GreatCircle.earthRadiusKm)
    }
}
