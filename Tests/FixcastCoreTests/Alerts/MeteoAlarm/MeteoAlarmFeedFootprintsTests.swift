import FixcastCore
import Foundation
import Testing

/// A MeteoAlarm feed's warnings ahead, placed by the bundled area table: a drive from Lyon (not
/// warned) to Annecy (Haute-Savoie, warned in the recorded French feed).
@Suite struct MeteoAlarmFeedFootprintsTests {
    static let lyon = MeteoAlarmFeedAlertsTests.lyon
    static let annecy = MeteoAlarmFeedAlertsTests.annecy

    /// Twelve samples on the straight line from Lyon to Annecy, 10 min apart.
    static let samples: [AheadForecast.Sample] = (1...12).map { i in
        let f = Double(i) / 12
        return AheadForecast.Sample(
            minutes: 10 * i, eta: MeteoAlarmFeedAlertsTests.franceTime.addingTimeInterval(600 * Double(i)),
            distanceKm: 9 * Double(i),
            coordinate: Coordinate(
                lat: lyon.lat + (annecy.lat - lyon.lat) * f, lon: lyon.lon + (annecy.lon - lyon.lon) * f)!,
            place: "S\(i)")
    }

    @Test func theWarningOfTheAreaAheadIsMetAtTheFirstSampleInsideIt() throws {
        let table = try BundledAlertAreaTableTests.table()
        let body = try MeteoAlarmFeedAlertsTests.france()
        let now = MeteoAlarmFeedAlertsTests.franceTime
        let candidates = MeteoAlarmFeedFootprints.candidates(in: body, table: table, now: now)
        #expect(!candidates.isEmpty)
        let ahead = AlertsAhead.match(
            candidates, samples: Self.samples,
            areasAt: { MeteoAlarmFeedFootprints.areaCodes(at: $0, table: table) })
        let warning = try #require(ahead.first { $0.id == MeteoAlarmFeedAlertsTests.warning })
        // The same answer as placing the feed at each sample's position (the one placement rule): not
        // at any sample before, at the one reported.
        let index = try #require(Self.samples.firstIndex { $0.minutes == warning.inMin })
        for s in Self.samples[..<index] {
            let here = try MeteoAlarmFeedAlerts.alerts(in: body, at: s.coordinate, table: table, now: now)
            #expect(!here.alerts.contains { $0.id == warning.id }, "sample at \(s.minutes) min")
        }
        let at = try MeteoAlarmFeedAlerts.alerts(in: body, at: Self.samples[index].coordinate, table: table, now: now)
        #expect(at.alerts.contains { $0.id == warning.id })
        #expect(warning.place == Self.samples[index].place && warning.atKm == Self.samples[index].distanceKm)
        // Lyon itself is not warned: it is ahead, not here.
        let inLyon = try MeteoAlarmFeedAlerts.alerts(in: body, at: Self.lyon, table: table, now: now)
        #expect(!inLyon.alerts.contains { $0.id == warning.id })
        // Once expired, nothing of the feed is ahead.
        #expect(
            MeteoAlarmFeedFootprints.candidates(in: body, table: table, now: now.addingTimeInterval(30 * 86400))
                .isEmpty)
    }

    /// A Cancel ends its warning ahead as it does here (`MeteoAlarmFeedAlerts`): the footprints read
    /// the feed's messages through the one identity rule, Cancels included.
    @Test func aCancelledWarningIsNotAhead() throws {
        let table = try BundledAlertAreaTableTests.table()
        let geocode = "<valueName>NUTS3</valueName><value>FR718</value>"
        typealias T = MeteoAlarmFeedAlertsTests
        let old = T.version(id: "v1", kind: "Alert", sent: "2022-12-07T20:00:00+00:00", title: "old", geocode: geocode)
        let new = T.version(id: "v2", kind: "Update", sent: "2022-12-07T22:00:00+00:00", title: "new", geocode: geocode)
        let cancel = T.version(
            id: "v3", kind: "Cancel", sent: "2022-12-07T23:00:00+00:00", title: "cancel", geocode: geocode)
        let now = T.franceTime
        let live = MeteoAlarmFeedFootprints.candidates(in: try T.feed(new, old), table: table, now: now)
        #expect(Set(live.map(\.alert.id)) == ["v1"], "one warning, under its first id")
        #expect(live.allSatisfy { $0.alert.headline == "new" })
        let ended = MeteoAlarmFeedFootprints.candidates(in: try T.feed(old, cancel, new), table: table, now: now)
        #expect(ended.isEmpty, "\(ended.map(\.alert.headline))")
    }

    @Test func aWarningsOwnPolygonIsItsFootprintAndWithoutTheTableGeocodesPlaceNothing() throws {
        let body = try MeteoAlarmFeedAlertsTests.feed(
            MeteoAlarmFeedAlertsTests.entry(id: "drawn", polygon: "45.6,4.6 45.6,5.0 45.9,5.0 45.9,4.6 45.6,4.6"),
            MeteoAlarmFeedAlertsTests.entry(id: "coded"))
        let now = MeteoAlarmFeedAlertsTests.franceTime
        let withoutTable = MeteoAlarmFeedFootprints.candidates(in: body, table: nil, now: now)
        #expect(withoutTable.map(\.alert.id) == ["drawn"])
        let table = try BundledAlertAreaTableTests.table()
        let both = MeteoAlarmFeedFootprints.candidates(in: body, table: table, now: now)
        #expect(both.map(\.alert.id) == ["drawn", "coded"])
        guard case .areas(let codes) = both[1].footprint else {
            Issue.record("a geocoded entry is placed by its areas")
            return
        }
        #expect(codes == MeteoAlarmFeedFootprints.areaCodes(at: Self.annecy, table: table).intersection(codes))
        #expect(!codes.isEmpty)
    }
}
