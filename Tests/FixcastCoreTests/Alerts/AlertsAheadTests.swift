import FixcastCore
import Foundation
import Testing

/// Issue 21.5 in Core: an alert is ahead when its area holds a sample's position at the sample's ETA,
/// between the alert's onset and expiry; it is given at the first such sample.
@Suite struct AlertsAheadTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

    /// Samples every 15 min, 20 km apart, going east along 52°N from 13°E (about 0.3° per sample).
    static let samples: [AheadForecast.Sample] = (1...8).map { i in
        AheadForecast.Sample(
            minutes: 15 * i, eta: at(Double(15 * i)), distanceKm: 20 * Double(i),
            coordinate: Coordinate(lat: 52, lon: 13 + 0.3 * Double(i))!, place: "P\(i)")
    }

    /// A box from `west` to `east` around 52°N.
    static func box(_ west: Double, _ east: Double) -> AlertFootprint {
        let ring = [(west, 51.5), (east, 51.5), (east, 52.5), (west, 52.5), (west, 51.5)].map {
            AlertFootprint.Point(lon: $0.0, lat: $0.1)
        }
        return .polygons([[ring]])
    }

    static func alert(
        _ id: String, onset: Double? = nil, expires: Double? = nil, severity: AlertSeverity = .severe
    ) -> Alert {
        Alert(id: id, event: "Wind \(id)", severity: severity, onset: onset.map(at), expires: expires.map(at))
    }

    @Test func anAlertWhoseAreaHoldsASampleIsAheadAtTheFirstSuchSample() {
        // Samples 3 (13.9°E) and 4 (14.2°E) are in the box.
        let ahead = AlertsAhead.match(
            [AlertsAhead.Candidate(alert: Self.alert("w"), footprint: Self.box(13.8, 14.3))], samples: Self.samples)
        #expect(ahead.count == 1)
        #expect(ahead.first?.id == "w")
        #expect(ahead.first?.inMin == 45)
        #expect(ahead.first?.atKm == 60)
        #expect(ahead.first?.place == "P3")
        #expect(ahead.first?.severity == "severe")
        #expect(ahead.first?.event == "Wind w")
        // An area no sample reaches is not ahead.
        #expect(
            AlertsAhead.match(
                [AlertsAhead.Candidate(alert: Self.alert("far"), footprint: Self.box(20, 21))], samples: Self.samples
            ).isEmpty)
    }

    @Test func onlyBetweenOnsetAndExpiryAtTheSamplesETA() {
        let area = Self.box(13.8, 14.3)  // samples 3 and 4: ETAs 45 and 60 min
        func first(_ alert: Alert) -> Int? {
            AlertsAhead.match([AlertsAhead.Candidate(alert: alert, footprint: area)], samples: Self.samples).first?
                .inMin
        }
        #expect(first(Self.alert("a", onset: 50)) == 60, "begins after sample 3 passes: met at sample 4")
        #expect(first(Self.alert("b", onset: 61)) == nil, "begins after the area is passed through")
        #expect(first(Self.alert("c", expires: 50)) == 45)
        #expect(first(Self.alert("d", expires: 45)) == nil, "expired at the ETA: over")
        #expect(first(Self.alert("e", onset: 45, expires: 46)) == 45, "onset inclusive")
        var ends = Self.alert("f")
        ends.ends = Self.at(40)
        #expect(first(ends) == nil, "no expires: its end decides")
        // NWS's long-lead warning (the Phoenix recording): the message expires before the hazard's
        // onset, which ends a day later; arriving while it is on, it is ahead.
        var heat = Self.alert("heat", onset: 50, expires: 10)
        heat.ends = Self.at(24 * 60)
        #expect(first(heat) == 60, "the hazard's end, not the message's expiry")
        var over = Self.alert("over", expires: 120)
        over.ends = Self.at(50)
        #expect(first(over) == 45, "a hazard that ends before the message expires is over then")
    }

    @Test func aHoleIsOutsideAndAMultipolygonCountsAnyOfItsParts() {
        let outer = [(13.8, 51.5), (14.3, 51.5), (14.3, 52.5), (13.8, 52.5)].map {
            AlertFootprint.Point(lon: $0.0, lat: $0.1)
        }
        let hole = [(13.85, 51.9), (13.95, 51.9), (13.95, 52.1), (13.85, 52.1)].map {
            AlertFootprint.Point(lon: $0.0, lat: $0.1)
        }
        let withHole = AlertsAhead.match(
            [AlertsAhead.Candidate(alert: Self.alert("h"), footprint: .polygons([[outer, hole]]))],
            samples: Self.samples)
        #expect(withHole.first?.inMin == 60, "sample 3 (13.9°E) is in the hole")
        guard case .polygons(let far) = Self.box(20, 21), case .polygons(let near) = Self.box(14.3, 14.6) else {
            Issue.record("boxes are polygons")
            return
        }
        let multi = AlertsAhead.match(
            [AlertsAhead.Candidate(alert: Self.alert("m"), footprint: .polygons(far + near))], samples: Self.samples)
        #expect(multi.first?.inMin == 75)
    }

    @Test func geocodedAreasAreAskedOfTheTableOncePerSample() {
        var asked = 0
        let ahead = AlertsAhead.match(
            [
                AlertsAhead.Candidate(alert: Self.alert("g1"), footprint: .areas(["DE405"])),
                AlertsAhead.Candidate(alert: Self.alert("g2"), footprint: .areas(["DE999"])),
                AlertsAhead.Candidate(alert: Self.alert("g3", severity: .extreme), footprint: .areas(["DE406", "X"])),
            ], samples: Self.samples,
            areasAt: { point in
                asked += 1
                return point.lon > 14.6 ? ["DE405", "DE406"] : ["DE100"]
            })
        #expect(asked == Self.samples.count)
        // Both met at sample 6 (14.8°E, 90 min): the more severe first; the one never met is absent.
        #expect(ahead.map(\.id) == ["g3", "g1"])
        #expect(ahead.map(\.inMin) == [90, 90])
    }

    @Test func soonestFirstEachOnceAndNothingForNoSamplesOrNoAlerts() {
        let ahead = AlertsAhead.match(
            [
                AlertsAhead.Candidate(alert: Self.alert("late"), footprint: Self.box(15.0, 15.5)),
                AlertsAhead.Candidate(alert: Self.alert("soon"), footprint: Self.box(13.0, 16.0)),
            ], samples: Self.samples.reversed())
        #expect(ahead.map(\.id) == ["soon", "late"])
        #expect(ahead.map(\.inMin) == [15, 105])
        #expect(AlertsAhead.match([], samples: Self.samples).isEmpty)
        #expect(
            AlertsAhead.match([AlertsAhead.Candidate(alert: Self.alert("x"), footprint: Self.box(13, 16))], samples: [])
                .isEmpty)
    }

    /// An answer used again a few km on (`AlertReport.narrowed`): an alert whose polygon no longer holds
    /// the position goes; one of an area or without a footprint stays.
    @Test func anAnswerUsedAgainKeepsOnlyThePolygonsThatHoldThePoint() {
        var cell = Self.alert("cell")
        cell.footprint = Self.box(13.0, 13.05)
        var county = Self.alert("county")
        county.footprint = .areas(["DE123"])
        let plain = Self.alert("plain")
        let report = AlertReport(
            source: .nws, covered: true, fetchedAt: Self.t0, stale: false, active: [cell, county, plain])
        let inside = Coordinate(lat: 52, lon: 13.02)!
        let fiveKmEast = Coordinate(lat: 52, lon: 13.1)!
        #expect(report.narrowed(to: inside).active.map(\.id) == ["cell", "county", "plain"])
        #expect(report.narrowed(to: fiveKmEast).active.map(\.id) == ["county", "plain"])
    }
}
