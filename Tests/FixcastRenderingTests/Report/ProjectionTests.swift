import FixcastCore
import FixcastRendering
import Foundation
import Testing

@Suite struct WebMercatorTests {
    @Test func knownPointsProjectToEPSG3857() {
        let origin = WebMercator.project(Coordinate(lat: 0, lon: 0)!)
        #expect(abs(origin.x) < 1e-6 && abs(origin.y) < 1e-6)
        let east = WebMercator.project(Coordinate(lat: 0, lon: 180)!)
        #expect(abs(east.x - 20_037_508.342789244) < 0.01)
        // 45° N: y = R ln(tan(67.5°)) = 5,621,521.486 m (EPSG:3857 reference value).
        let north = WebMercator.project(Coordinate(lat: 45, lon: 0)!)
        #expect(abs(north.y - 5_621_521.486) < 0.01)
    }

    @Test func theBoundingBoxMapsOntoThePanelNorthUpWithItsAspectKept() {
        let sw = Coordinate(lat: 39.0, lon: -120.2)!
        let ne = Coordinate(lat: 39.6, lon: -119.7)!
        let points = [sw, ne].map(WebMercator.project)
        let panel = PlaneRect(x: 20, y: 80, width: 900, height: 400)
        let fit = PanelFit(points: points, panel: panel, margin: 10)
        let a = fit.pixel(sw)
        let b = fit.pixel(ne)
        // North up: the north-east corner is above (smaller y) and right of the south-west one.
        #expect(b.y < a.y)
        #expect(b.x > a.x)
        // The box touches the inner panel on the limiting axis and stays inside on the other.
        let inner = PlaneRect(x: 30, y: 90, width: 880, height: 380)
        for p in [a, b] {
            #expect(p.x >= inner.x - 1e-9 && p.x <= inner.maxX + 1e-9)
            #expect(p.y >= inner.y - 1e-9 && p.y <= inner.maxY + 1e-9)
        }
        let w = b.x - a.x
        let h = a.y - b.y
        #expect(abs(h - inner.height) < 1e-6 || abs(w - inner.width) < 1e-6)
        // Aspect kept: pixel ratio equals the projected ratio.
        let pw = points[1].x - points[0].x
        let ph = points[1].y - points[0].y
        #expect(abs(w / h - pw / ph) < 1e-9)
        // Centred on the free axis.
        #expect(abs((a.x + b.x) / 2 - (inner.x + inner.maxX) / 2) < 1e-6)
    }

    @Test func aSinglePointGetsAViewAroundIt() {
        let c = Coordinate(lat: 52.5, lon: 13.4)!
        let panel = PlaneRect(x: 0, y: 0, width: 200, height: 100)
        let fit = PanelFit(points: [WebMercator.project(c)], panel: panel)
        let p = fit.pixel(c)
        #expect(abs(p.x - 100) < 1e-6 && abs(p.y - 50) < 1e-6)
        #expect(fit.scale.isFinite && fit.scale > 0)
    }
}

@Suite struct ScaleBarTests {
    @Test func roundLengthsThatFit() throws {
        for mpp in [0.5, 3.0, 17.0, 120.0, 999.0, 12_345.0] {
            for units in UnitSystem.allCases {
                let bar = try #require(ScaleBar(metresPerPixel: mpp, maxPixels: 150, units: units))
                #expect(bar.pixels <= 150 + 1e-9)
                // More than half the room: the next round length would not fit.
                #expect(bar.pixels > 150 / 2.5 - 1e-9, "\(mpp) \(units): \(bar.length)")
                var mantissa = bar.length
                while mantissa >= 10 { mantissa /= 10 }
                while mantissa < 1 { mantissa *= 10 }
                #expect([1.0, 2.0, 5.0].contains { abs($0 - mantissa) < 1e-9 }, "\(bar.length)")
            }
        }
        let km = try #require(ScaleBar(metresPerPixel: 100, maxPixels: 150, units: .metric))
        #expect(km.label == "10 km")
        #expect(abs(km.pixels - 100) < 1e-9)
        let mi = try #require(ScaleBar(metresPerPixel: 100, maxPixels: 150, units: .imperial))
        #expect(mi.label == "5 mi")
        #expect(ScaleBar(metresPerPixel: 0, maxPixels: 150, units: .metric) == nil)
        #expect(ScaleBar(metresPerPixel: .nan, maxPixels: 150, units: .metric) == nil)
    }
}
