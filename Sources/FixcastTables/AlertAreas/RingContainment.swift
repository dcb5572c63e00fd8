/// Where a point lies against one polygon ring, in exact integer arithmetic on the table's fixed-point
/// coordinates (1e-6 degrees): a point on an edge or a vertex is `.boundary`, which counts as inside the
/// area (a warning's border belongs to the warning). Even-odd crossing rule with a ray towards +x.
public enum RingContainment: Sendable, Equatable {
    case outside, inside, boundary

    /// `ring` holds `count` vertices as little-endian (i32 x, i32 y) pairs, the closing vertex not repeated.
    /// Exact for coordinates on the Earth (|x| ≤ 540e6 with unwrapping, |y| ≤ 90e6: every product stays
    /// below 2^58); the arithmetic wraps instead of trapping, so a hostile table gives a wrong answer,
    /// never a crash.
    public static func locate(x: Int64, y: Int64, ring: UnsafeRawBufferPointer, count: Int) -> RingContainment {
        guard count >= 1, ring.count >= count * 8 else { return .outside }
        var inside = false
        var ax = Int64(Int32(bitPattern: ring.u32((count - 1) * 8)))
        var ay = Int64(Int32(bitPattern: ring.u32((count - 1) * 8 + 4)))
        for i in 0..<count {
            let bx = Int64(Int32(bitPattern: ring.u32(i * 8)))
            let by = Int64(Int32(bitPattern: ring.u32(i * 8 + 4)))
            let cross = ((bx &- ax) &* (y &- ay)) &- ((x &- ax) &* (by &- ay))
            if cross == 0, min(ax, bx) <= x, x <= max(ax, bx), min(ay, by) <= y, y <= max(ay, by) {
                return .boundary
            }
            if (ay > y) != (by > y) {
                // The edge straddles the ray's line; it crosses the ray when the point is left of the edge
                // as seen going upwards.
                if by > ay ? cross > 0 : cross < 0 { inside.toggle() }
            }
            ax = bx
            ay = by
        }
        return inside ? .inside : .outside
    }
}
