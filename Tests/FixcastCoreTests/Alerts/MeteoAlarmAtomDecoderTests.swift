import Foundation
import Testing

@testable import FixcastCore

/// The MeteoAlarm Atom decoder over the recorded UK feed (decoding only; not a source yet).
@Suite struct MeteoAlarmAtomDecoderTests {
    @Test func recordedUKFeedHas25ModerateWarnings() throws {
        let body = try CoreFixtures.bytes("meteoalarm-atom-united-kingdom.xml")
        let alerts = try MeteoAlarmAtomDecoder.decode(body)
        // Counted independently of the decoder: one <entry> per warning and region.
        let text = String(decoding: body, as: UTF8.self)
        #expect(alerts.count == text.components(separatedBy: "<entry>").count - 1)
        #expect(alerts.count == 25)
        #expect(alerts.filter { $0.event == "Yellow ice warning" }.count == 20)
        #expect(alerts.filter { $0.event == "Yellow snow warning" }.count == 5)
        #expect(alerts.allSatisfy { $0.severity == .moderate })
        let first = try #require(alerts.first)
        #expect(first.id == "2.49.0.0.826.0.GB_221207102852_8785e37a.v3.0.SI")
        #expect(first.area == "Strathclyde")
        #expect(first.certainty == "Likely" && first.urgency == "Immediate")
        #expect(first.onset == UTCTime.parse("2022-12-07T00:00:00Z"))
        #expect(first.expires == UTCTime.parse("2022-12-09T12:00:00Z"))
        #expect(first.headline == "Yellow Snow-ice Warning issued for United Kingdom - Strathclyde")
        #expect(
            first.url
                == "https://feeds.meteoalarm.org/api/v1/warnings/feeds-united-kingdom/8dc8fa43-1146-455e-b831-4449ac7e10af"
        )
        #expect(alerts.contains { $0.area == "Orkney & Shetland" }, "entities decoded")
        let updated = try #require(MeteoAlarmAtomDecoder.updated(body))
        #expect(Alert.active(alerts, at: updated).count == 25)
        #expect(Alert.active(alerts, at: Date()).isEmpty)
    }

    @Test func aFeedCutShortIsRefusedNotReadAsFewerWarnings() throws {
        let body = try CoreFixtures.bytes("meteoalarm-atom-united-kingdom.xml")
        let text = String(decoding: body, as: UTF8.self)
        // Cut after the third entry, as a dropped connection that still answered 200 would leave it.
        let third = try #require(text.ranges(of: "</entry>").dropFirst(2).first)
        let cut = Array(text[..<third.upperBound].utf8)
        #expect(throws: AlertDecodeFailure.self) { try MeteoAlarmAtomDecoder.decode(cut) }
        let london = try #require(Coordinate(lat: 51.5, lon: -0.1))
        #expect(throws: AlertDecodeFailure.self) {
            try MeteoAlarmFeedAlerts.alerts(in: cut, at: london, table: nil, now: Date())
        }
        #expect(MeteoAlarmFeedFootprints.candidates(in: cut, table: nil, now: Date()).isEmpty)
        // The whole feed, with trailing whitespace after </feed>, is read.
        #expect(try MeteoAlarmAtomDecoder.decode(body + Array(" \n\r\n".utf8)).count == 25)
    }

    @Test func entitiesAndGarbage() {
        #expect(
            AtomXMLReader.decodeEntities("a &amp; b &lt;c&gt; &#233;&#xE9; &bogus; & x") == "a & b <c> éé &bogus; & x")
        #expect(throws: AlertDecodeFailure.self) { try MeteoAlarmAtomDecoder.decode(Array("{\"json\":true}".utf8)) }
        #expect(throws: AlertDecodeFailure.self) { try MeteoAlarmAtomDecoder.decode([0xFF, 0xFE, 0x00]) }
    }
}
