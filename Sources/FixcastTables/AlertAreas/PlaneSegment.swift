/// The point of a segment nearest the origin of a flat (x, y) plane (a tangent plane around a
/// position): how far along the segment it lies (0 at `a`, 1 at `b`) and how far from the origin. The
/// one rule of the route follower's projection (`RouteGeometry`) and of the area table's nearness
/// (`AlertAreaImage.areaIndices(nearLat:lon:withinKm:)`).
package enum PlaneSegment {
    package static func nearestToOrigin(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (
        t: Double, distance: Double
    ) {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? max(0, min(1, -(a.x * dx + a.y * dy) / lengthSquared)) : 0
        let x = a.x + t * dx
        let y = a.y + t * dy
        return (t, (x * x + y * y).squareRoot())
    }
}
