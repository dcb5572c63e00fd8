import FixcastText
import Foundation
import Testing

@testable import FixcastCore

/// The MeteoAlarm Atom decoder over the recorded UK feed's tree (decoding only; which warnings apply where
/// is `MeteoAlarmFeedAlerts`').
@Suite struct MeteoAlarmAtomDecoderTests {
    /// Each entry as production reads it (`entries`, then `message(entry:)`), Cancels left out: one
    /// alert per entry, before the identity rule (`MeteoAlarmFeedAlerts`) joins them.
    static func decode(_ feed: FixcastText.XMLElement) throws(AlertDecodeFailure) -> [Alert] {
        try MeteoAlarmAtomDecoder.entries(feed).compactMap { MeteoAlarmAtomDecoder.message(entry: $0) }
            .filter { $0.kind != .cancel }.map(\.alert)
    }

    @Test func recordedUKFeedHas25ModerateWarnings() throws {
        let body = try CoreFixtures.bytes("meteoalarm-atom-united-kingdom.xml")
        let feed = try CoreFixtures.tree("meteoalarm-atom-united-kingdom.xml")
        let alerts = try MeteoAlarmAtomDecoderTests.decode(feed)
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
        let updated = try #require(MeteoAlarmAtomDecoder.updated(feed))
        #expect(Alert.active(alerts, at: updated).count == 25)
        #expect(Alert.active(alerts, at: Date()).isEmpty)
    }

    /// The feed's text written otherwise but meaning the same: the same warnings.
    @Test func anotherPrefixCDATAAndCommentsReadAsTheFeedDoes() throws {
        let text = String(decoding: try CoreFixtures.bytes("meteoalarm-atom-united-kingdom.xml"), as: UTF8.self)
        let expected = try MeteoAlarmAtomDecoderTests.decode(try CoreFixtures.tree(text: text))
        // CAP under another prefix, Atom under a prefix of its own.
        let prefixed =
            text
            .replacingOccurrences(
                of: "xmlns=\"http://www.w3.org/2005/Atom\"", with: "xmlns:a=\"http://www.w3.org/2005/Atom\""
            )
            .replacingOccurrences(of: "xmlns:cap=", with: "xmlns:warning=")
            .replacingOccurrences(of: "<cap:", with: "<warning:").replacingOccurrences(of: "</cap:", with: "</warning:")
            .replacingOccurrences(
                of:
                    #"<(/?)(feed|entry|link|title|id|updated|value|valueName|author|name|uri|email|rights|generator|logo|published)([\s>/])"#,
                with: "<$1a:$2$3", options: .regularExpression)
        #expect(prefixed.contains("<a:entry>") && prefixed.contains("<warning:event>"))
        #expect(try MeteoAlarmAtomDecoderTests.decode(try CoreFixtures.tree(text: prefixed)) == expected)
        // Text in CDATA sections, comments between (and holding) elements.
        let wrapped =
            text
            .replacingOccurrences(
                of: "<cap:areaDesc>Strathclyde</cap:areaDesc>",
                with: "<cap:areaDesc><![CDATA[Strathclyde]]></cap:areaDesc>"
            )
            .replacingOccurrences(
                of: "<entry>", with: "<!-- <entry><cap:identifier>fake</cap:identifier></entry> --><entry>")
        #expect(try MeteoAlarmAtomDecoderTests.decode(try CoreFixtures.tree(text: wrapped)) == expected)
        #expect(expected.contains { $0.area == "Strathclyde" })
    }

    @Test func aDocumentThatIsNotAnAtomFeedIsRefused() throws {
        let html = try CoreFixtures.tree(text: "<html><body>no</body></html>")
        #expect(throws: AlertDecodeFailure("not an Atom feed (the root element is <html>)")) {
            try MeteoAlarmAtomDecoderTests.decode(html)
        }
        // A `feed` in no namespace, or CAP's, is not Atom's.
        #expect(throws: AlertDecodeFailure.self) {
            try MeteoAlarmAtomDecoderTests.decode(try CoreFixtures.tree(text: "<feed/>"))
        }
        let cap = try CoreFixtures.tree("meteoalarm-cap-france.xml")
        #expect(throws: AlertDecodeFailure.self) { try MeteoAlarmAtomDecoderTests.decode(cap) }
        #expect(MeteoAlarmAtomDecoder.updated(cap) == nil)
    }
}
