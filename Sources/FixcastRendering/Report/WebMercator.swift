import FixcastCore
import FoundationEssentials

/// A point on the plane: map metres (Web Mercator) or panel pixels.
public struct PlanePoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle on the plane (origin top-left, y grows down as in SVG).
public struct PlaneRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public func intersects(_ o: PlaneRect) -> Bool {
        x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
    }

    public func contains(_ o: PlaneRect) -> Bool {
        o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY
    }

    /// Whether `q` lies inside or on the edge.
    public func contains(_ q: PlanePoint) -> Bool {
        q.x >= x && q.x <= maxX && q.y >= y && q.y <= maxY
    }

    /// This rectangle with `d` added on every side.
    public func grown(by d: Double) -> PlaneRect {
        PlaneRect(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }
}

/// The spherical ("Web") Mercator projection of EPSG:3857, the one web maps use, so the
/// picture looks like the map a person knows. North is up: y grows northwards here and the
/// panel fit flips it.
public enum WebMercator {
    /// EPSG:3857's sphere radius (the WGS 84 semi-major axis), metres.
    public static let radiusM = 6_378_137.0
    /// Mercator diverges at the poles; web maps cut at ±85.0511°, and so do we.
    public static let maxLatitude = 85.05112878

    public static func project(_ c: Coordinate) -> PlanePoint {
        PlanePoint(x: radiusM * c.lon * .pi / 180, y: northing(latitude: c.lat))
    }

    /// Projected metres north of the equator at `latitude` (clamped at `maxLatitude`).
    public static func northing(latitude: Double) -> Double {
        let lat = max(-maxLatitude, min(maxLatitude, latitude)) * .pi / 180
        return radiusM * Elementary.log(Elementary.tan(.pi / 4 + lat / 2))
    }

    /// Ground metres per projected metre at `latitude` (Mercator stretches by 1/cos φ).
    public static func groundScale(atLatitude latitude: Double) -> Double {
        Elementary.cos(max(-maxLatitude, min(maxLatitude, latitude)) * .pi / 180)
    }
}

/// Fits projected points into a panel: one scale for both axes (shapes keep their aspect),
/// centred, north up, with a margin so markers at the edge stay whole.
public struct PanelFit: Sendable, Hashable {
    public let panel: PlaneRect
    /// How coordinates become the projected metres `points` were given in.
    public let projection: MapProjection
    /// Panel pixels per projected metre.
    public let scale: Double
    let minX: Double
    let maxY: Double
    let offsetX: Double
    let offsetY: Double

    /// `points` are projected (metres, y north). An empty set or a single point gets a view
    /// about 1 km across around it, so a parked receiver still draws a map.
    public init(
        points: [PlanePoint], panel: PlaneRect, margin: Double = 0,
        projection: MapProjection = .mercator(centralLongitude: 0)
    ) {
        self.panel = panel
        self.projection = projection
        var lo = PlanePoint(x: .infinity, y: .infinity)
        var hi = PlanePoint(x: -.infinity, y: -.infinity)
        for p in points {
            lo.x = min(lo.x, p.x)
            lo.y = min(lo.y, p.y)
            hi.x = max(hi.x, p.x)
            hi.y = max(hi.y, p.y)
        }
        if points.isEmpty {
            lo = PlanePoint(x: -500, y: -500)
            hi = PlanePoint(x: 500, y: 500)
        }
        // A minimum extent of 1 km keeps a trip that never moved from being blown up to pixels of GPS noise.
        let minimumExtent = 1_000.0
        if hi.x - lo.x < minimumExtent {
            let mid = (lo.x + hi.x) / 2
            lo.x = mid - minimumExtent / 2
            hi.x = mid + minimumExtent / 2
        }
        if hi.y - lo.y < minimumExtent {
            let mid = (lo.y + hi.y) / 2
            lo.y = mid - minimumExtent / 2
            hi.y = mid + minimumExtent / 2
        }
        let innerW = max(1, panel.width - 2 * margin)
        let innerH = max(1, panel.height - 2 * margin)
        let s = min(innerW / (hi.x - lo.x), innerH / (hi.y - lo.y))
        scale = s
        minX = lo.x
        maxY = hi.y
        offsetX = panel.x + margin + (innerW - (hi.x - lo.x) * s) / 2
        offsetY = panel.y + margin + (innerH - (hi.y - lo.y) * s) / 2
    }

    /// The panel pixel of a projected point (y flipped: north up).
    public func pixel(_ p: PlanePoint) -> PlanePoint {
        PlanePoint(x: offsetX + (p.x - minX) * scale, y: offsetY + (maxY - p.y) * scale)
    }

    public func pixel(_ c: Coordinate) -> PlanePoint { pixel(projection.project(c)) }

    /// The projected metres under panel pixel `p` (the inverse of `pixel`).
    public func projected(_ p: PlanePoint) -> PlanePoint {
        PlanePoint(x: minX + (p.x - offsetX) / scale, y: maxY - (p.y - offsetY) / scale)
    }

    /// Ground metres one panel pixel spans at `latitude`.
    public func groundMetresPerPixel(atLatitude latitude: Double) -> Double {
        projection.groundScale(atLatitude: latitude) / scale
    }
}
