import FixcastCore
import FixcastRendering
import Foundation
import Testing

@Suite struct MapProjectionTests {
    @Test func theProjectionFollowsTheTracksOwnExtent() {
        // Across the antimeridian: centred on it, not on Greenwich.
        let across = [Coordinate(lat: 17.6, lon: 179.5)!, Coordinate(lat: 17.6, lon: -179.5)!]
        guard case .mercator(let lon0) = MapProjection.fitting(across) else {
            Issue.record("expected Mercator")
            return
        }
        #expect(abs(abs(lon0) - 180) < 1e-9)
        let p = MapProjection.fitting(across)
        let a = p.project(across[0])
        let b = p.project(across[1])
        #expect(a.x < b.x)
        #expect(abs((b.x - a.x) - WebMercator.radiusM * .pi / 180) < 1e-3)
        // An ordinary trip keeps Web Mercator's shape, only shifted.
        let reno = [Coordinate(lat: 39.5, lon: -119.8)!, Coordinate(lat: 39.1, lon: -120.0)!]
        let q = MapProjection.fitting(reno)
        #expect(abs(q.project(reno[0]).y - WebMercator.project(reno[0]).y) < 1e-6)
        // Beyond 80°: azimuthal equidistant around the track.
        let pole = [Coordinate(lat: 89.9, lon: 0)!, Coordinate(lat: 89.812, lon: 180)!]
        guard case .azimuthalEquidistant = MapProjection.fitting(pole) else {
            Issue.record("expected azimuthal equidistant near the pole")
            return
        }
        #expect(MapProjection.fitting([]) == .mercator(centralLongitude: 0))
    }

    @Test func azimuthalEquidistantKeepsDistancesFromItsCentreAndInverts() {
        let centre = Coordinate(lat: 88, lon: 40)!
        let p = MapProjection.azimuthalEquidistant(centre: centre)
        #expect(p.project(centre) == PlanePoint(x: 0, y: 0))
        for c in [
            Coordinate(lat: 90, lon: 0)!, Coordinate(lat: 85, lon: -150)!, Coordinate(lat: 87.5, lon: 41)!,
            Coordinate(lat: 60, lon: 100)!,
        ] {
            let xy = p.project(c)
            let km = (xy.x * xy.x + xy.y * xy.y).squareRoot() / 1000
            let sphereKm = GreatCircle.distanceKm(centre, c) * WebMercator.radiusM / 1000 / GreatCircle.earthRadiusKm
            #expect(abs(km - sphereKm) < 1e-6 * max(1, sphereKm), "\(c)")
            let back = p.coordinate(xy)
            #expect(back.map { GreatCircle.distanceKm($0, c) < 1e-6 } == true, "\(c) -> \(String(describing: back))")
        }
        // Due north of the centre is up.
        #expect(p.project(Coordinate(lat: 89, lon: 40)!).y > 0)
        #expect(abs(p.project(Coordinate(lat: 89, lon: 40)!).x) < 1e-6)
    }

    @Test func mercatorInverts() {
        let p = MapProjection.mercator(centralLongitude: 179)
        for c in [Coordinate(lat: 0, lon: -179)!, Coordinate(lat: 52.5, lon: 178.2)!, Coordinate(lat: -33, lon: 179)!] {
            let back = p.coordinate(p.project(c))
            #expect(back.map { GreatCircle.distanceKm($0, c) < 1e-6 } == true)
        }
        #expect(MapProjection.wrap(540) == -180)
        #expect(MapProjection.wrap(-190) == 170)
        #expect(MapProjection.wrap(.nan) == 0)
    }

    @Test func simplifyingKeepsTheGivenPoints() {
        let line = (0..<100).map { PlanePoint(x: Double($0), y: 0) }
        #expect(DouglasPeucker.simplify(line, tolerance: 0.7) == [0, 99])
        #expect(DouglasPeucker.simplify(line, tolerance: 0.7, keeping: [40, 7, 40, 99, -3, 500]) == [0, 7, 40, 99])
        // Within a stretch it still simplifies: a bump between two kept points stays.
        var bumped = line
        bumped[60].y = 5
        let kept = DouglasPeucker.simplify(bumped, tolerance: 0.7, keeping: [40])
        #expect(kept.contains(40) && kept.contains(60) && kept.count < 10, "\(kept)")
    }

    @Test func anAlertListedByManyReadingsIsOnePeriodMostSevereFirst() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let flood = Alert(id: "f", event: "Flood Watch", severity: .moderate)
        let storm = Alert(
            id: "s", event: "Storm Warning", severity: .severe, onset: t0.addingTimeInterval(-600),
            expires: t0.addingTimeInterval(7200))
        let readings = (0..<4).map { k in
            TripReading(
                time: t0.addingTimeInterval(Double(k) * 600), coordinate: nil,
                alerts: [TripAlert(storm, source: .nws)] + (k >= 1 && k <= 2 ? [TripAlert(flood, source: .nws)] : []))
        }
        let periods = TripAlertPeriod.collect(readings)
        #expect(periods.map(\.alert.event) == ["Storm Warning", "Flood Watch"])
        // Its own times where it gave them (ends falls back to expires), else first and last reading.
        #expect(periods[0].from == t0.addingTimeInterval(-600) && periods[0].to == t0.addingTimeInterval(7200))
        #expect(periods[1].from == t0.addingTimeInterval(600) && periods[1].to == t0.addingTimeInterval(1200))
        #expect(periods[0].alert.source == "NWS" && periods[0].alert.official)
        let provider = TripAlert(WeatherAlert(title: "Gale", severity: "Severe"))
        #expect(provider.severity == .severe && !provider.official)
    }
}
