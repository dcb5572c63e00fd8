import FixcastCore
import FixcastTables

/// The base map under the track (coast, lakes, land borders): which part of the world the map panel
/// shows, and those lines projected, clipped to the panel and simplified to its pixel.
///
/// Drawn quietly (pale blue water, grey dashed borders) so the track stays the picture's subject.
public enum BasemapLayer {
    /// Points closer than this to the simplified line are dropped: below a pixel they cannot be seen.
    static let tolerancePx = 0.7
    /// Border samples per panel edge when finding the view's geographic extent; the extent's
    /// extremes lie on the edge (or at a pole inside the panel), so a sample every 1/24 of an edge
    /// plus a margin of a tenth of the span misses nothing a pixel would show.
    static let edgeSamples = 24

    /// The boxes of longitude and latitude the panel shows (two when it spans ±180°).
    public static func viewBoxes(_ fit: PanelFit) -> [GeoBox] {
        let world = [GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)]
        let p = fit.panel
        let reference: Double
        switch fit.projection {
        case .mercator(let lon0): reference = lon0
        case .azimuthalEquidistant(let centre): reference = centre.lon
        }
        var minLat = Double.infinity
        var maxLat = -Double.infinity
        var minRel = Double.infinity
        var maxRel = -Double.infinity
        for k in 0...edgeSamples {
            let f = Double(k) / Double(edgeSamples)
            for px in [
                PlanePoint(x: p.x + f * p.width, y: p.y), PlanePoint(x: p.x + f * p.width, y: p.maxY),
                PlanePoint(x: p.x, y: p.y + f * p.height), PlanePoint(x: p.maxX, y: p.y + f * p.height),
            ] {
                guard let c = fit.projection.coordinate(fit.projected(px)) else { return world }
                minLat = min(minLat, c.lat)
                maxLat = max(maxLat, c.lat)
                let rel = MapProjection.wrap(c.lon - reference)
                minRel = min(minRel, rel)
                maxRel = max(maxRel, rel)
            }
        }
        func inside(_ c: Coordinate) -> Bool { p.contains(fit.pixel(c)) }
        var allLongitudes = maxRel - minRel > 300
        if case .azimuthalEquidistant = fit.projection {
            if let north = Coordinate(lat: 90, lon: 0), inside(north) {
                maxLat = 90
                allLongitudes = true
            }
            if let south = Coordinate(lat: -90, lon: 0), inside(south) {
                minLat = -90
                allLongitudes = true
            }
        }
        let latPad = (maxLat - minLat) * 0.1 + 0.01
        let lat0 = max(-90, minLat - latPad)
        let lat1 = min(90, maxLat + latPad)
        if allLongitudes { return [GeoBox(minLon: -180, minLat: lat0, maxLon: 180, maxLat: lat1)] }
        let lonPad = (maxRel - minRel) * 0.1 + 0.01
        let lo = reference + minRel - lonPad
        let hi = reference + maxRel + lonPad
        if lo < -180 {
            return [
                GeoBox(minLon: -180, minLat: lat0, maxLon: hi, maxLat: lat1),
                GeoBox(minLon: lo + 360, minLat: lat0, maxLon: 180, maxLat: lat1),
            ]
        }
        if hi > 180 {
            return [
                GeoBox(minLon: lo, minLat: lat0, maxLon: 180, maxLat: lat1),
                GeoBox(minLon: -180, minLat: lat0, maxLon: hi - 360, maxLat: lat1),
            ]
        }
        return [GeoBox(minLon: lo, minLat: lat0, maxLon: hi, maxLat: lat1)]
    }

    /// The lines as SVG (a `<g class="basemap">` clipped to the panel by `clipID`); empty when none shows.
    public static func svg(_ lines: [BasemapLine], fit: PanelFit, clipID: String) -> String {
        var lakes = ""
        var coast = ""
        var borders = ""
        let p = fit.panel
        // Two pixels of slack so a line leaving the panel is drawn to the clip edge, not stopped short.
        let slack = 2.0
        func outcode(_ q: PlanePoint) -> Int {
            (q.x < p.x - slack ? 1 : 0) | (q.x > p.maxX + slack ? 2 : 0) | (q.y < p.y - slack ? 4 : 0)
                | (q.y > p.maxY + slack ? 8 : 0)
        }
        func append(_ run: [PlanePoint], closed: Bool, to s: inout String) {
            guard run.count >= 2 else { return }
            let kept = DouglasPeucker.simplify(run, tolerance: tolerancePx)
            guard kept.count >= 2 else { return }
            for (k, i) in kept.enumerated() {
                s += (k == 0 ? "M" : "L") + n(run[i].x) + "," + n(run[i].y)
            }
            if closed { s += "Z" }
        }
        for line in lines {
            var pixels: [PlanePoint] = []
            pixels.reserveCapacity(line.lons.count)
            for i in line.lons.indices {
                // Hostile or rounded values outside the globe are brought back onto it, never trusted.
                let lat = max(-90, min(90, line.lats[i].isFinite ? line.lats[i] : 0))
                let lon = MapProjection.wrap(line.lons[i])
                guard let c = Coordinate(lat: lat, lon: lon) else { continue }
                pixels.append(fit.pixel(c))
            }
            switch line.kind {
            case .lake:
                // A ring is filled whole (the clip path cuts it at the panel) when any of it shows.
                var lo = PlanePoint(x: .infinity, y: .infinity)
                var hi = PlanePoint(x: -.infinity, y: -.infinity)
                for q in pixels {
                    lo = PlanePoint(x: min(lo.x, q.x), y: min(lo.y, q.y))
                    hi = PlanePoint(x: max(hi.x, q.x), y: max(hi.y, q.y))
                }
                guard hi.x >= p.x, lo.x <= p.maxX, hi.y >= p.y, lo.y <= p.maxY, hi.x - lo.x >= 1 || hi.y - lo.y >= 1
                else { continue }
                // Cut to the panel (and its slack), so a great lake beside a short trip stays a small path.
                let box = PlaneRect(
                    x: p.x - slack, y: p.y - slack, width: p.width + 2 * slack, height: p.height + 2 * slack)
                append(clipPolygon(pixels, to: box), closed: true, to: &lakes)
            case .coast, .border:
                // Runs of segments that may cross the panel; a segment wholly to one side is dropped,
                // and so is one longer than the panel is wide (a line jumping across the map's seam).
                var run: [PlanePoint] = []
                func flush() {
                    if line.kind == .coast {
                        append(run, closed: false, to: &coast)
                    } else {
                        append(run, closed: false, to: &borders)
                    }
                    run = []
                }
                for i in pixels.indices.dropFirst() {
                    let a = pixels[i - 1]
                    let b = pixels[i]
                    let visible = outcode(a) & outcode(b) == 0 && abs(b.x - a.x) < p.width
                    if visible {
                        if run.isEmpty { run.append(a) }
                        run.append(b)
                    } else if !run.isEmpty {
                        flush()
                    }
                }
                flush()
            }
        }
        guard !(lakes.isEmpty && coast.isEmpty && borders.isEmpty) else { return "" }
        var s = "<g class=\"basemap\" clip-path=\"url(#\(clipID))\">\n"
        if !lakes.isEmpty {
            s +=
                "<path class=\"lake\" d=\"\(lakes)\" fill=\"#d4e6f6\" fill-rule=\"evenodd\" stroke=\"#7fa8cf\" stroke-width=\"0.8\" stroke-linejoin=\"round\"/>\n"
        }
        if !coast.isEmpty {
            s +=
                "<path class=\"coast\" d=\"\(coast)\" fill=\"none\" stroke=\"#7fa8cf\" stroke-width=\"1\" stroke-linejoin=\"round\"/>\n"
        }
        if !borders.isEmpty {
            s +=
                "<path class=\"border\" d=\"\(borders)\" fill=\"none\" stroke=\"#9a94ad\" stroke-width=\"0.9\" stroke-dasharray=\"4 3\"/>\n"
        }
        s += "</g>\n"
        return s
    }

    /// Sutherland–Hodgman: the part of a ring inside `r` (a ring again; edges along `r` where it was cut).
    static func clipPolygon(_ ring: [PlanePoint], to r: PlaneRect) -> [PlanePoint] {
        var out = ring
        let edges: [(PlanePoint) -> Double] = [{ $0.x - r.x }, { r.maxX - $0.x }, { $0.y - r.y }, { r.maxY - $0.y }]
        for inside in edges {
            guard let last = out.last else { return [] }
            let input = out
            out = []
            out.reserveCapacity(input.count)
            var a = last
            for b in input {
                let da = inside(a)
                let db = inside(b)
                if (da >= 0) != (db >= 0) {
                    let t = da / (da - db)
                    out.append(PlanePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
                }
                if db >= 0 { out.append(b) }
                a = b
            }
        }
        return out
    }

    static func n(_ v: Double) -> String { NumberText.fixed(v, decimals: 1) }
}
