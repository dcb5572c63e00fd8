import FixcastCore
import Foundation
import Testing

/// Issue 21.5's regions ahead: the samples' regions, each once, whatever the number of samples.
@Suite struct AlertRegionsAheadTests {
    static func spots(_ count: Int, country: String?, region: String?, lat: Double = 40, lon: Double = -119)
        -> [AlertRegionsAhead.Spot]
    {
        (0..<count).map {
            AlertRegionsAhead.Spot(
                coordinate: Coordinate(lat: lat, lon: lon + 0.1 * Double($0))!, country: country, region: region)
        }
    }

    @Test func nwsByStateOncePerStateInTheOrderTheSamplesReachThem() {
        let drive =
            Self.spots(30, country: "US", region: "Nevada") + Self.spots(20, country: "US", region: "California")
            + Self.spots(5, country: "US", region: "Nevada")
        #expect(AlertRegionsAhead.plan(drive, setting: .auto) == [.nwsState("NV"), .nwsState("CA")])
        #expect(AlertRegionsAhead.plan(drive, setting: .auto).map(\.key) == ["nws.NV", "nws.CA"])
        // A territory is its own area; a state the table does not name, or no place near, asks nothing.
        #expect(
            AlertRegionsAhead.plan(Self.spots(3, country: "PR", region: "San Juan"), setting: .auto) == [
                .nwsState("PR")
            ])
        #expect(AlertRegionsAhead.plan(Self.spots(3, country: "US", region: nil), setting: .auto).isEmpty)
        #expect(AlertRegionsAhead.plan(Self.spots(3, country: nil, region: nil), setting: .auto).isEmpty)
        #expect(AlertRegionsAhead.nwsState(country: "US", region: "Washington, D.C.") == "DC")
    }

    @Test func metAlertsOnceForTheCountryAndMeteoAlarmOneFeedPerCountry() {
        let norway = Self.spots(12, country: "NO", region: "Vestland") + Self.spots(4, country: "SJ", region: nil)
        #expect(AlertRegionsAhead.plan(norway, setting: .auto) == [.metAlertsCountry])
        let europe =
            Self.spots(10, country: "FR", region: "Grand Est") + Self.spots(10, country: "DE", region: "Saarland")
            + Self.spots(10, country: "FR", region: "Grand Est")
        #expect(
            AlertRegionsAhead.plan(europe, setting: .auto) == [.meteoAlarmFeed("france"), .meteoAlarmFeed("germany")])
        // A forced source asks its own kind of region: MeteoAlarm for Norway too, nothing outside its members.
        #expect(AlertRegionsAhead.plan(norway, setting: .meteoalarm) == [.meteoAlarmFeed("norway")])
        #expect(AlertRegionsAhead.plan(Self.spots(3, country: "JP", region: nil), setting: .auto).isEmpty)
        #expect(AlertRegionsAhead.plan(europe, setting: .none).isEmpty)
    }

    @Test func ecccOneBoxAroundEveryCanadianSampleSnappedToWholeDegrees() {
        let drive = Self.spots(20, country: "CA", region: "Ontario", lat: 43.65, lon: -79.38)
        let plan = AlertRegionsAhead.plan(drive, setting: .auto)
        // -79.38 … -77.48 with the 0.05° margin, floored and ceiled: one box for all twenty samples.
        #expect(plan == [.ecccBox(west: -80, south: 43, east: -77, north: 44)])
        // The same stretch a little further on asks the same box (its answer is reused for check_min).
        let later = Self.spots(20, country: "CA", region: "Ontario", lat: 43.7, lon: -79.2)
        #expect(AlertRegionsAhead.plan(later, setting: .auto) == plan)
        // Across a border: the state and the box, each once.
        let mixed = Self.spots(5, country: "US", region: "New York") + drive
        #expect(AlertRegionsAhead.plan(mixed, setting: .auto) == [.nwsState("NY")] + plan)
    }

    /// A region's whole answer keeps every alert with its footprint (no point filters it).
    @Test func aRegionsAnswerKeepsEveryAlertWithItsPolygon() throws {
        let body = Array(
            """
            {"type":"FeatureCollection","features":[
             {"id":"a","geometry":{"type":"Polygon","coordinates":[[[-120,39],[-119,39],[-119,40],[-120,40],[-120,39]]]},
              "properties":{"id":"a","status":"Actual","event":"Winter Storm Warning","severity":"Severe"}},
             {"id":"b","geometry":null,"properties":{"id":"b","status":"Actual","event":"Wind Advisory","severity":"Moderate"}}
            ]}
            """.utf8)
        let alerts = try #require(try AlertRegionsAhead.alerts(of: .nwsState("NV"), body: body, language: "en"))
        #expect(alerts.map(\.id) == ["a", "b"])
        guard case .polygons(let p)? = alerts.first?.footprint else {
            Issue.record("the first alert keeps its polygon")
            return
        }
        #expect(p.count == 1 && p[0].count == 1 && p[0][0].count == 5)
        #expect(alerts.last?.footprint == nil, "no geometry: no footprint")
        #expect(try AlertRegionsAhead.alerts(of: .meteoAlarmFeed("france"), body: body, language: "en") == nil)
    }
}
