import FoundationEssentials

extension PlaneRect {
    /// How much of `route` (a polyline in pixels) runs inside this rectangle: each segment clipped to it,
    /// so a long straight stretch with both ends outside counts. A lone point inside counts as one pixel.
    /// What a box on the map hides of the track: the legend's and scale bar's corner (`MapCorner`) and a
    /// reading's label (`LabelPlacer`) are each put where this is least.
    func routeLength(_ route: [PlanePoint]) -> Double {
        if route.count == 1, let only = route.first { return contains(only) ? 1 : 0 }
        var length = 0.0
        for i in route.indices.dropFirst() {
            length += clippedLength(from: route[i - 1], to: route[i])
        }
        return length
    }

    /// The length of the segment from `a` to `b` inside this rectangle (Liang–Barsky clipping).
    func clippedLength(from a: PlanePoint, to b: PlanePoint) -> Double {
        // Wholly beside the rectangle: most of a route, for a label's box.
        if max(a.x, b.x) < x || min(a.x, b.x) > maxX || max(a.y, b.y) < y || min(a.y, b.y) > maxY { return 0 }
        let dx = b.x - a.x
        let dy = b.y - a.y
        var enter = 0.0
        var leave = 1.0
        // Each edge: p · t <= q keeps the point at t inside.
        for (p, q) in [(-dx, a.x - x), (dx, maxX - a.x), (-dy, a.y - y), (dy, maxY - a.y)] {
            if p == 0 {
                if q < 0 { return 0 }  // parallel to this edge, and outside it
                continue
            }
            let t = q / p
            if p < 0 { enter = max(enter, t) } else { leave = min(leave, t) }
            if enter > leave { return 0 }
        }
        return (leave - enter) * (dx * dx + dy * dy).squareRoot()
    }
}
