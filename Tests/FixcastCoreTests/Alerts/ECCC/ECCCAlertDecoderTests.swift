import Foundation
import Testing

@testable import FixcastCore

/// ECCC's `weather-alerts` items, recorded for the box -79.9,43.2,-79.4,43.7 (seven features with
/// polygons), and hostile bodies.
struct ECCCAlertDecoderTests {
    static let recorded = "eccc-weather-alerts-toronto.json"
    static let toronto = Coordinate(lat: 43.6532, lon: -79.3832)!  // City of Toronto
    static let hamilton = Coordinate(lat: 43.2557, lon: -79.8711)!  // City of Hamilton
    static let lakeOntario = Coordinate(lat: 43.45, lon: -79.2)!  // in no feature's polygon

    @Test func everyRecordedFeatureWithoutAPoint() throws {
        let alerts = try ECCCAlertDecoder.decode(try CoreFixtures.bytes(Self.recorded))
        let features = try CoreFixtures.object(Self.recorded)["features"] as? [[String: Any]] ?? []
        #expect(alerts.count == features.count)
        #expect(alerts.count == 7)
    }

    @Test func aPointGetsTheAlertOfTheAreaThatContainsIt() throws {
        let alerts = try ECCCAlertDecoder.decode(try CoreFixtures.bytes(Self.recorded), at: Self.toronto)
        #expect(alerts.map(\.area) == ["City of Toronto"])
        let a = try #require(alerts.first)
        #expect(a.id == "1618115311375151707202603050503_fea1-1185")
        #expect(a.event == "Freezing rain warning")
        #expect(a.severity == .moderate, "risk colour yellow")
        #expect(a.certainty == "High")
        #expect(a.onset == UTCTime.parse("2026-03-05T22:00:00Z"))
        let expires = try #require(a.expires)
        #expect(abs(expires.timeIntervalSince(UTCTime.parse("2026-03-06T08:04:06Z")!)) < 1)
        #expect(a.ends == UTCTime.parse("2026-03-06T06:00:00Z"))
        #expect(a.description?.hasPrefix("Freezing rain on tap.") == true)

        let elsewhere = try ECCCAlertDecoder.decode(try CoreFixtures.bytes(Self.recorded), at: Self.hamilton)
        #expect(elsewhere.map(\.area) == ["City of Hamilton"])
        #expect(try ECCCAlertDecoder.decode(try CoreFixtures.bytes(Self.recorded), at: Self.lakeOntario).isEmpty)
    }

    @Test func frenchTexts() throws {
        let alerts = try ECCCAlertDecoder.decode(
            try CoreFixtures.bytes(Self.recorded), at: Self.toronto, language: "fr")
        #expect(alerts.first?.event == "Avertissement de pluie verglaçante")
        #expect(alerts.first?.area == "ville de Toronto")
    }

    static func body(
        _ properties: String, geometry: String = #"{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}"#
    ) -> [UInt8] {
        Array(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":"#.utf8) + Array(properties.utf8)
            + Array(#","geometry":"#.utf8) + Array(geometry.utf8) + Array("}]}".utf8)
    }

    static let inside = Coordinate(lat: 1, lon: 1)!

    @Test func hostileBodies() throws {
        #expect(throws: AlertDecodeFailure.self) { try ECCCAlertDecoder.decode(Array("<html>".utf8)) }
        #expect(throws: AlertDecodeFailure.self) { try ECCCAlertDecoder.decode(Array(#"{"type":"x"}"#.utf8)) }
        // Ended and cancelled alerts are not alerts; no id, no alert.
        #expect(try ECCCAlertDecoder.decode(Self.body(#"{"id":"a","status_en":"ended"}"#), at: Self.inside).isEmpty)
        #expect(try ECCCAlertDecoder.decode(Self.body(#"{"id":"a","status_en":"cancelled"}"#), at: Self.inside).isEmpty)
        #expect(try ECCCAlertDecoder.decode(Self.body(#"{"alert_name_en":"x"}"#), at: Self.inside).isEmpty)
        // Control characters never survive; a missing name is "Alert"; no colour or impact: unknown.
        let dirty = try ECCCAlertDecoder.decode(
            Self.body(
                #"{"id":"a\u001b[2J","feature_name_en":"Zone\u0007 \u001b]0;x\u0007","alert_text_en":"t\u001b[31m"}"#),
            at: Self.inside)
        let a = try #require(dirty.first)
        #expect(a.event == "Alert")
        #expect(a.severity == .unknown)
        for text in [a.id, a.area ?? "", a.description ?? ""] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text.debugDescription)")
        }
        // A geometry that is not a polygon is not a reason to drop the alert (the box already matched it);
        // a polygon that does not contain the point is.
        #expect(
            try ECCCAlertDecoder.decode(
                Self.body(#"{"id":"a"}"#, geometry: #"{"type":"Polygon","coordinates":"nonsense"}"#), at: Self.inside
            ).count == 1)
        #expect(
            try ECCCAlertDecoder.decode(Self.body(#"{"id":"a"}"#), at: Coordinate(lat: 5, lon: 5)!).isEmpty)
        // Absurd times are not facts.
        let times = try ECCCAlertDecoder.decode(
            Self.body(#"{"id":"a","expiration_datetime":"99999-01-01T00:00:00Z","validity_datetime":7}"#),
            at: Self.inside)
        #expect(times.first?.expires == nil && times.first?.onset == nil)
    }

    @Test func oneIDIsOneAlertTheNewestPublicationWinning() throws {
        let two = Array(
            #"{"type":"FeatureCollection","features":[{"properties":{"id":"a","alert_name_en":"old","publication_datetime":"2026-03-05T10:00:00Z"}},{"properties":{"id":"a","alert_name_en":"new","publication_datetime":"2026-03-05T11:00:00Z"}}]}"#
                .utf8)
        #expect(try ECCCAlertDecoder.decode(two, at: Self.inside).map(\.event) == ["New"])
    }
}
