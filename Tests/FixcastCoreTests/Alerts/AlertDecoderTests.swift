import FixcastTables
import Foundation
import Testing

@testable import FixcastCore

/// The decoders over the recorded responses (see Fixtures/api/ALERTS-NOTE.md: the recordings are old,
/// so "now" is set to each response's own time).
@Suite struct AlertDecoderTests {
    let nwsUpdated = UTCTime.parse("2024-07-18T19:50:06Z")!
    let metLastChange = UTCTime.parse("2025-06-04T18:38:08Z")!

    @Test func nwsPhoenixHasTwoAlertsMostSevereFirst() throws {
        let alerts = try NWSAlertDecoder.decode(CoreFixtures.bytes("nws-alerts-active-point-phoenix.json"))
        let source = try CoreFixtures.object("nws-alerts-active-point-phoenix.json")
        let features = try #require(source["features"] as? [[String: Any]])
        let props = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(alerts.count == props.count)
        let report = AlertReport.fetched(alerts, source: .nws, fetchedAt: nwsUpdated, now: nwsUpdated)
        #expect(report.active.map(\.event) == ["Excessive Heat Warning", "Air Quality Alert"])
        let heat = report.active[0]
        // The heat warning is an update: it keeps the id of the message it references (issue 21.4),
        // and its own text and URL.
        let references = props[0]["references"] as? [[String: Any]]
        #expect(heat.id == references?.first?["identifier"] as? String)
        #expect(heat.aliases == [props[0]["id"] as? String].compactMap { $0 })
        #expect(heat.severity == .severe)
        #expect(heat.certainty == "Likely")
        #expect(heat.urgency == "Expected")
        #expect(heat.headline == props[0]["headline"] as? String)
        #expect(heat.area == props[0]["areaDesc"] as? String)
        #expect(heat.description?.hasPrefix("* WHAT...Dangerously hot conditions.") == true)
        #expect(heat.instruction?.contains("Call 9 1 1.") == true)
        #expect(heat.url == props[0]["@id"] as? String)
        // Out of order in the recording: expires (03:00 -07) before onset (10:00 -07); kept as sent.
        #expect(heat.onset == UTCTime.parse("2024-07-19T17:00:00Z"))
        #expect(heat.expires == UTCTime.parse("2024-07-19T10:00:00Z"))
        #expect(heat.ends == UTCTime.parse("2024-07-21T03:00:00Z"))
        let air = report.active[1]
        #expect(air.severity == .unknown)
        #expect(air.instruction == nil)
        #expect(air.ends == nil)
        #expect(report.maxSeverity == .severe)
    }

    /// A constructed NWS answer holding one chain out of order (the update first), and a cancelled one.
    @Test func nwsChainsAreOneAlertEachAndACancelledOneIsGone() throws {
        func feature(
            _ id: String, _ type: String, sent: String, headline: String, references: [String], event: String = "Heat"
        ) -> String {
            let refs = references.map {
                #"{"identifier":"\#($0)","sender":"w-nws","sent":"2024-07-18T01:00:00-07:00"}"#
            }
            return
                #"{"id":"\#(id)","type":"Feature","geometry":null,"properties":{"id":"\#(id)","status":"Actual","messageType":"\#(type)","sent":"\#(sent)","event":"\#(event)","headline":"\#(headline)","severity":"Severe","expires":"2024-07-19T10:00:00-07:00","references":[\#(refs.joined(separator: ","))]}}"#
        }
        let body =
            #"{"type":"FeatureCollection","features":["#
            + [
                feature("b", "Update", sent: "2024-07-18T09:00:00-07:00", headline: "updated", references: ["a"]),
                feature("a", "Alert", sent: "2024-07-18T08:00:00-07:00", headline: "first", references: []),
                feature(
                    "x", "Alert", sent: "2024-07-18T08:00:00-07:00", headline: "other", references: [], event: "Dust"),
                feature(
                    "y", "Cancel", sent: "2024-07-18T09:30:00-07:00", headline: "cancel", references: ["x"],
                    event: "Dust"),
            ].joined(separator: ",") + "]}"
        let alerts = try NWSAlertDecoder.decode(Array(body.utf8))
        #expect(alerts.map(\.id) == ["a"])
        #expect(alerts.map(\.headline) == ["updated"])
    }

    @Test func nwsExpiredAlertsAreDropped() throws {
        let alerts = try NWSAlertDecoder.decode(CoreFixtures.bytes("nws-alerts-active-point-phoenix.json"))
        let afterHeat = Alert.active(alerts, at: UTCTime.parse("2024-07-19T12:00:00Z")!)
        #expect(afterHeat.map(\.event) == ["Air Quality Alert"])
        #expect(Alert.active(alerts, at: UTCTime.parse("2024-07-20T04:00:00Z")!).isEmpty)
        // Against today's clock the recording has nothing left.
        #expect(Alert.active(alerts, at: Date()).isEmpty)
    }

    @Test func nwsEmptyIsCoveredWithNoAlerts() throws {
        let alerts = try NWSAlertDecoder.decode(CoreFixtures.bytes("nws-alerts-active-point-nyc-empty.json"))
        #expect(alerts.isEmpty)
        let report = AlertReport.fetched(alerts, source: .nws, fetchedAt: nwsUpdated, now: nwsUpdated)
        #expect(report.covered)
        #expect(report.json.serialized().contains("\"covered\":true"))
    }

    @Test func metAlertsVestlandHasThreeYellowGales() throws {
        let alerts = try MetAlertsDecoder.decode(CoreFixtures.bytes("metalerts-current-vestland-coast.json"))
        #expect(alerts.count == 3)
        #expect(alerts.allSatisfy { $0.severity == .moderate && $0.event == "Kuling" })
        #expect(alerts.map(\.area) == ["Måløy - Svinøy", "Bulandet - Måløy", "Fedje - Bulandet"])
        let first = alerts[0]
        #expect(first.id == "2.49.0.1.578.0.20250604171130.040")
        #expect(first.onset == UTCTime.parse("2025-06-03T17:00:00Z"))
        #expect(first.expires == UTCTime.parse("2025-06-05T18:00:00Z"))
        #expect(first.ends == nil)  // no eventEndingTime in the recording
        #expect(alerts[1].ends == UTCTime.parse("2025-06-05T16:00:00Z"))
        #expect(first.certainty == "Observed")
        #expect(first.url?.hasPrefix("https://www.met.no/") == true)
        #expect(first.instruction?.hasPrefix("Ikke dra ut i småbåt") == true)
        let report = AlertReport.fetched(alerts, source: .metalerts, fetchedAt: metLastChange, now: metLastChange)
        #expect(report.active.count == 3)
        // At 10:00 on the 5th the Fedje - Bulandet alert (until 09:00) is over.
        let later = Alert.active(alerts, at: UTCTime.parse("2025-06-05T10:00:00Z")!)
        #expect(later.map(\.area) == ["Bulandet - Måløy", "Måløy - Svinøy"])  // same severity: earlier onset first
    }

    @Test func metAlertsKeepsOnlyThePolygonsHoldingThePoint() throws {
        let body = try CoreFixtures.bytes("metalerts-current-vestland-coast.json")
        #expect(
            try MetAlertsDecoder.decode(body, at: Coordinate(lat: 61.5, lon: 4.7)!).map(\.area) == ["Bulandet - Måløy"])
        // Inside the MultiPolygon.
        #expect(
            try MetAlertsDecoder.decode(body, at: Coordinate(lat: 62.1, lon: 5.0)!).map(\.area) == ["Måløy - Svinøy"])
        #expect(try MetAlertsDecoder.decode(body, at: Coordinate(lat: 59.9, lon: 10.7)!).isEmpty)
    }

    /// A ring that zigzags by more than 180° at every vertex: unwrapped across the antimeridian it climbs
    /// 170° a vertex, past 2,147° at the 13th, where its micro-degrees overflow Int32.
    static let zigzag =
        "[" + (0..<20).map { "[\(Double(($0 * 170 + 180) % 360 - 180)),\(10 + $0 % 2)]" }.joined(separator: ",")
        + ",[0,10]]"

    // Found during the decoders' fuzz campaign (bench/README.md; `fixcast-bench fuzz nws-alerts` makes such
    // rings now): asked whether the point was inside, the zigzag ring trapped (Int32 of 2.2e9 micro-degrees)
    // and killed the agent.
    @Test func aRingThatUnwrapsOffTheEarthIsNoRingRatherThanATrap() throws {
        let body =
            #"{"type":"FeatureCollection","features":[{"id":"z","geometry":{"type":"Polygon","coordinates":[\#(Self.zigzag)]},"properties":{"id":"urn:z","event":"Zigzag","status":"Actual","severity":"Severe"}}]}"#
        let alerts = try NWSAlertDecoder.decode(Array(body.utf8), at: Coordinate(lat: 10.5, lon: 5)!)
        // No usable geometry: the service's own point query is trusted, and nothing is matched ahead.
        #expect(alerts.map(\.event) == ["Zigzag"])
        #expect(alerts.first?.footprint == nil)
        // Across the antimeridian and back is a ring; round and round is not.
        let across: [(lon: Double, lat: Double)] = [(179, 10), (-179, 10), (-179, 11), (179, 11), (179, 10)]
        let round: [(lon: Double, lat: Double)] = (0..<13).map { k in (Double((k * 170 + 180) % 360 - 180), 10) }
        #expect(RingContainment.unwrapsOnTheEarth(across))
        #expect(!RingContainment.unwrapsOnTheEarth(round))
    }

    @Test func awarenessColoursMapOntoSeverity() {
        #expect(AlertSeverity(awarenessColour: "yellow") == .moderate)
        #expect(AlertSeverity(awarenessColour: "Orange") == .severe)
        #expect(AlertSeverity(awarenessColour: " red") == .extreme)
        #expect(AlertSeverity(awarenessColour: "purple") == nil)
        let body =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{"id":"a","event":"wind","awareness_level":"3; orange; Severe","riskMatrixColor":"Yellow"},"when":{"interval":[null,null]}},{"type":"Feature","properties":{"id":"b","event":"flood","riskMatrixColor":"Red"}},{"type":"Feature","properties":{"id":"c","event":"x","severity":"Minor"}}]}"#
        let alerts = (try? MetAlertsDecoder.decode(Array(body.utf8))) ?? []
        #expect(alerts.map(\.severity) == [.severe, .extreme, .minor])
        #expect(alerts[0].onset == nil && alerts[0].expires == nil)
        #expect(Alert.active(alerts, at: Date()).map(\.id) == ["b", "a", "c"])
    }

    @Test func capSeverityAndOrdering() {
        #expect(AlertSeverity(cap: "Extreme") == .extreme)
        #expect(AlertSeverity(cap: "bogus") == .unknown)
        #expect(AlertSeverity(cap: nil) == .unknown)
        #expect(AlertSeverity.allCases.sorted(by: >) == [.extreme, .severe, .moderate, .minor, .unknown])
        let t = Date(timeIntervalSince1970: 1_000_000)
        let a = Alert(id: "z", event: "A", severity: .minor, onset: t)
        let b = Alert(id: "y", event: "B", severity: .minor, onset: t.addingTimeInterval(-60))
        let c = Alert(id: "x", event: "C", severity: .severe)
        #expect(Alert.active([a, b, c], at: t).map(\.id) == ["x", "y", "z"])
    }

    @Test func hostileTextNeverKeepsControlCharacters() throws {
        let body =
            #"{"type":"FeatureCollection","features":[{"properties":{"id":"evil\u001b[2J","event":"Heat\u001b]0;pwned\u0007","headline":"line1\nline2","description":"a\r\nb\u009bc","status":"Actual"}}]}"#
        let alerts = try NWSAlertDecoder.decode(Array(body.utf8))
        let a = try #require(alerts.first)
        for text in [a.id, a.event, a.headline ?? "", a.description ?? ""] {
            #expect(
                !text.unicodeScalars.contains {
                    $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x0D
                })
        }
        #expect(a.headline == "line1 line2")
        #expect(a.description == "a\nb c")
    }

    @Test func testMessagesAndCancellationsAreNotAlerts() throws {
        let body =
            #"{"type":"FeatureCollection","features":[{"properties":{"id":"t","event":"Test","status":"Test"}},{"properties":{"id":"c","event":"X","status":"Actual","messageType":"Cancel"}},{"properties":{"id":"k","event":"Keep","status":"Actual"}}]}"#
        #expect(try NWSAlertDecoder.decode(Array(body.utf8)).map(\.id) == ["k"])
    }

    @Test func garbageAndHTMLAreDecodeFailures() {
        #expect(throws: AlertDecodeFailure.self) {
            try NWSAlertDecoder.decode(Array("<html><body>Bad gateway</body></html>".utf8))
        }
        #expect(throws: AlertDecodeFailure.self) {
            try MetAlertsDecoder.decode(Array("{\"title\":\"Not Found\"}".utf8))
        }
        #expect(throws: AlertDecodeFailure.self) { try MetAlertsDecoder.decode(Array("[1,2]".utf8)) }
    }
}
