import FoundationEssentials

/// Douglas–Peucker line simplification: keeps the fewest points such that no dropped point is
/// farther than `tolerance` from the simplified line.
///
/// The report simplifies the projected track to about a pixel: a 100,000-point drive then draws
/// with a few thousand points and the SVG stays well under 1 MB without a visible change.
/// Iterative with an explicit stack (a recursion would be 100,000 frames deep on a straight road).
public enum DouglasPeucker {
    /// Indices of the points kept, ascending; the first and last are always kept.
    public static func simplify(_ points: [PlanePoint], tolerance: Double) -> [Int] {
        let n = points.count
        guard n > 2 else { return Array(0..<n) }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        let tol2 = tolerance * tolerance
        var stack: [(Int, Int)] = [(0, n - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            var worst = -1.0
            var worstIndex = first
            let a = points[first]
            let b = points[last]
            for i in (first + 1)..<last {
                let d = distanceSquared(points[i], a, b)
                if d > worst {
                    worst = d
                    worstIndex = i
                }
            }
            if worst > tol2 {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        var out: [Int] = []
        for i in 0..<n where keep[i] { out.append(i) }
        return out
    }

    /// As `simplify`, but every index in `keeping` stays too: the line is simplified within each
    /// stretch between two kept indices on its own. The report keeps each reading's point and each
    /// point where the track's colour changes, which a straight road would otherwise lose.
    public static func simplify(_ points: [PlanePoint], tolerance: Double, keeping: [Int]) -> [Int] {
        let n = points.count
        guard n > 2 else { return Array(0..<n) }
        var anchors = Set(keeping.filter { $0 > 0 && $0 < n - 1 })
        anchors.insert(0)
        anchors.insert(n - 1)
        let sorted = anchors.sorted()
        var out: [Int] = [0]
        for k in 1..<sorted.count {
            let a = sorted[k - 1]
            let b = sorted[k]
            for i in simplify(Array(points[a...b]), tolerance: tolerance).dropFirst() { out.append(a + i) }
        }
        return out
    }

    /// Squared distance from `p` to the segment a–b.
    public static func distanceSquared(_ p: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = 0.0
        if len2 > 0 { t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) }
        let qx = a.x + t * dx - p.x
        let qy = a.y + t * dy - p.y
        return qx * qx + qy * qy
    }
}
