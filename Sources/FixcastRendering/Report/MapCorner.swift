import FoundationEssentials

/// Which corner of the map a box (the legend, the scale bar) takes: the one where it hides least of the
/// route, its start and end marks and its reading markers.
///
/// A fixed corner hides whatever the trip does there: a drive that ends in the lower left ended under
/// the legend. Each corner is scored by the length of route that runs under the box (segments clipped
/// to it, so a long straight stretch with both ends outside counts) plus a heavy weight for each mark
/// under it; the lowest score wins, and ties go to the order of preference, so a map whose corners are
/// all clear keeps the usual layout (legend bottom left, scale bar bottom right).
public enum MapCorner: Sendable, Hashable, CaseIterable {
    case bottomLeft, bottomRight, topLeft, topRight

    /// A mark under a box counts as this many pixels of route: hiding the end of a trip is worse than
    /// hiding a stretch of it.
    static let markWeight = 1_000.0
    /// Route this close to a box counts as under it (half the track's 7-pixel casing, and a little air).
    static let routeClearance = 5.0
    /// A mark this close to a box counts as under it (the start ring's radius and its stroke).
    static let markClearance = 9.0

    /// The box of `width` × `height` in this corner of `panel`, `margin` from its two edges.
    public func box(width: Double, height: Double, margin: Double, in panel: PlaneRect) -> PlaneRect {
        let left = panel.x + margin
        let right = panel.maxX - margin - width
        let top = panel.y + margin
        let bottom = panel.maxY - margin - height
        switch self {
        case .bottomLeft: return PlaneRect(x: left, y: bottom, width: width, height: height)
        case .bottomRight: return PlaneRect(x: right, y: bottom, width: width, height: height)
        case .topLeft: return PlaneRect(x: left, y: top, width: width, height: height)
        case .topRight: return PlaneRect(x: right, y: top, width: width, height: height)
        }
    }

    /// The corner, among `preference` (first the most wanted), whose box hides least of `route` (a
    /// polyline in pixels) and `marks`; nil when `preference` is empty.
    public static func least(
        _ preference: [MapCorner], box: (MapCorner) -> PlaneRect, route: [PlanePoint], marks: [PlanePoint]
    ) -> MapCorner? {
        var best: MapCorner?
        var bestCost = Double.infinity
        for corner in preference {
            let cost = hidden(under: box(corner), route: route, marks: marks)
            if cost < bestCost {
                best = corner
                bestCost = cost
            }
            if cost == 0 { break }  // nothing hidden: the most wanted clear corner
        }
        return best ?? preference.first
    }

    /// How much a box hides: pixels of route under it (with `routeClearance`) plus `markWeight` for
    /// each mark under it (with `markClearance`).
    static func hidden(under box: PlaneRect, route: [PlanePoint], marks: [PlanePoint]) -> Double {
        let near = box.grown(by: markClearance)
        var cost = 0.0
        for mark in marks where near.contains(mark) { cost += markWeight }
        cost += box.grown(by: routeClearance).routeLength(route)
        return cost
    }
}
