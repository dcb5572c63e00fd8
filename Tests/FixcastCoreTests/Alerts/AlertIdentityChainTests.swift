import FixcastCore
import FixcastText
import Foundation
import Testing

/// Issue 21.4 in Core: a chain of CAP messages (alert → update → cancel, in any order of arrival,
/// with or without `sent`), entries without references that are one alert, expiry, and an identity
/// carried from one answer to the next.
@Suite struct AlertIdentityChainTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

    static func message(
        _ id: String, headline: String, sent: Double?, kind: AlertIdentity.Kind = .alert, references: [String] = [],
        referenceSent: Double? = nil, expires: Double? = 600, event: String = "Wind", area: String = "Coast",
        severity: AlertSeverity = .moderate
    ) -> AlertIdentity.Message {
        AlertIdentity.Message(
            alert: Alert(
                id: id, event: event, headline: headline, severity: severity, onset: at(0),
                expires: expires.map(at), area: area),
            sent: sent.map(at), kind: kind,
            references: references.compactMap { AlertIdentity.Reference(id: $0, sent: referenceSent.map(at)) })
    }

    static let alert = message("A", headline: "first", sent: 0)
    static let update = message(
        "B", headline: "updated", sent: 30, kind: .update, references: ["A"], referenceSent: 0, expires: 900)
    static let cancel = message(
        "C", headline: "cancelled", sent: 60, kind: .cancel, references: ["A", "B"], referenceSent: 0)

    @Test func anUpdateReplacesTheAlertUnderTheFirstIDAndACancelEndsIt() {
        let one = AlertIdentity.onePerIdentity([Self.alert])
        #expect(one.map(\.id) == ["A"])
        #expect(one.map(\.headline) == ["first"])

        let updated = AlertIdentity.onePerIdentity([Self.alert, Self.update])
        #expect(updated.map(\.id) == ["A"], "an update is the same alert: same id")
        #expect(updated.map(\.headline) == ["updated"], "with the latest text")
        #expect(updated.first?.expires == Self.at(900))
        #expect(updated.first?.aliases == ["B"])

        #expect(AlertIdentity.onePerIdentity([Self.alert, Self.update, Self.cancel]).isEmpty)
        // The cancel alone (the active list no longer holds what it cancels) ends the chain too.
        #expect(AlertIdentity.onePerIdentity([Self.cancel]).isEmpty)
        // An update alone names its first message.
        #expect(AlertIdentity.onePerIdentity([Self.update]).map(\.id) == ["A"])
    }

    @Test func anUpdateThatArrivesBeforeTheAlertItReferencesIsStillOneAlertWithTheLatestText() {
        let chain = [Self.update, Self.alert]
        let alerts = AlertIdentity.onePerIdentity(chain)
        #expect(alerts.map(\.id) == ["A"])
        #expect(alerts.map(\.headline) == ["updated"])
        // Without any sent time, the message that references the other is the newer one.
        let untimed = [
            Self.message("B", headline: "updated", sent: nil, kind: .update, references: ["A"]),
            Self.message("A", headline: "first", sent: nil),
        ]
        #expect(AlertIdentity.onePerIdentity(untimed).map(\.headline) == ["updated"])
        #expect(AlertIdentity.onePerIdentity(untimed).map(\.id) == ["A"])
        // Every order of the three is the same answer: ended.
        let three = [Self.alert, Self.update, Self.cancel]
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            #expect(AlertIdentity.onePerIdentity(order.map { three[$0] }).isEmpty, "\(order)")
        }
    }

    @Test func aLongChainKeepsItsFirstIDWhicheverLinkIsListed() {
        let c = Self.message(
            "C", headline: "third", sent: 45, kind: .update, references: ["B"], referenceSent: 30, expires: 900)
        let alerts = AlertIdentity.onePerIdentity([c, Self.update, Self.alert])
        #expect(alerts.map(\.id) == ["A"])
        #expect(alerts.map(\.headline) == ["third"])
        #expect(Set(alerts.first?.aliases ?? []) == ["B", "C"])
        // C alone only knows B: B is its first, until `continuing` joins it to what was held.
        #expect(AlertIdentity.onePerIdentity([c]).map(\.id) == ["B"])
    }

    @Test func expiryEndsTheAlertByItsLatestMessage() {
        let chain = [Self.alert, Self.update]
        #expect(AlertIdentity.current(chain, at: Self.at(700)).map(\.id) == ["A"], "the update moved expiry to 900")
        #expect(AlertIdentity.current(chain, at: Self.at(900)).isEmpty)
        #expect(AlertIdentity.current([Self.alert], at: Self.at(700)).isEmpty)
        // An update that cuts the alert short ends it at its own expiry, not the first one's.
        let shortened = Self.message(
            "B", headline: "shortened", sent: 30, kind: .update, references: ["A"], expires: 120)
        #expect(AlertIdentity.current([Self.alert, shortened], at: Self.at(200)).isEmpty)
        #expect(AlertIdentity.current([Self.alert, shortened], at: Self.at(100)).map(\.headline) == ["shortened"])
    }

    @Test func entriesWithoutReferencesAreOneAlertWhenEventSeverityOnsetExpiryAndAreaMatch() {
        let reissued = [
            Self.message("X1", headline: "old", sent: 0),
            Self.message("X2", headline: "new", sent: 20),
        ]
        let one = AlertIdentity.onePerIdentity(reissued)
        #expect(one.map(\.headline) == ["new"], "the latest sent wins")
        #expect(one.map(\.id) == ["X1"])
        // Any of the five differing makes two alerts.
        let variants = [
            Self.message("Y", headline: "y", sent: 20, area: "Inland"),
            Self.message("Y", headline: "y", sent: 20, event: "Rain"),
            Self.message("Y", headline: "y", sent: 20, severity: .severe),
            Self.message("Y", headline: "y", sent: 20, expires: 700),
        ]
        for v in variants {
            #expect(AlertIdentity.onePerIdentity([reissued[0], v]).count == 2, "\(v.alert)")
        }
        var laterOnset = Self.message("Y", headline: "y", sent: 20)
        laterOnset.alert.onset = Self.at(5)
        #expect(AlertIdentity.onePerIdentity([reissued[0], laterOnset]).count == 2)
        // A Cancel without references or times (MetAlerts' GeoJSON) for the same warning ends it.
        let cancel = Self.message("X3", headline: "cancel", sent: nil, kind: .cancel)
        #expect(AlertIdentity.onePerIdentity([Self.message("X1", headline: "old", sent: nil), cancel]).isEmpty)
    }

    @Test func theNextAnswerKeepsTheIDOfTheAlertItContinues() {
        let held = AlertIdentity.onePerIdentity([Self.alert, Self.update])
        // The source now lists only C, which references B only: on its own its first is B.
        let c = Self.message(
            "C", headline: "third", sent: 45, kind: .update, references: ["B"], referenceSent: 30, expires: 900)
        let next = AlertIdentity.onePerIdentity([c])
        #expect(next.map(\.id) == ["B"])
        let carried = AlertIdentity.continuing(next, from: held)
        #expect(carried.map(\.id) == ["A"])
        #expect(carried.map(\.headline) == ["third"])
        #expect(Set(carried.first?.aliases ?? []) == ["B", "C"])
        // A reissue under a new id without references continues by event, severity, onset, expiry, area.
        let reissued = AlertIdentity.onePerIdentity([Self.message("Z", headline: "again", sent: 90, expires: 900)])
        #expect(AlertIdentity.continuing(reissued, from: held).map(\.id) == ["A"])
        // An unrelated alert keeps its own id; nothing held, nothing changes.
        let other = AlertIdentity.onePerIdentity([Self.message("Q", headline: "other", sent: 90, event: "Snow")])
        #expect(AlertIdentity.continuing(other, from: held).map(\.id) == ["Q"])
        #expect(AlertIdentity.continuing(next, from: []) == next)
    }

    @Test func capReferencesTextIsReadAsSenderIdentifierSentTriples() {
        let refs = AlertIdentity.references(
            cap: "noreply@met.no,2.49.0.1.578.0.1,2026-03-06T19:16:19+00:00 bad-triple x,2.49.0.1.578.0.2,garbage")
        #expect(refs.map(\.id) == ["2.49.0.1.578.0.1", "2.49.0.1.578.0.2"])
        #expect(refs.first?.sent == UTCTime.parse("2026-03-06T19:16:19Z"))
        #expect(refs.last?.sent == nil)
        #expect(AlertIdentity.references(cap: nil).isEmpty)
        let many = (0..<1000).map { "s,id\($0),2026-03-06T19:16:19Z" }.joined(separator: " ")
        #expect(AlertIdentity.references(cap: many).count == AlertIdentity.maxReferences)
        #expect(AlertIdentity.Reference(id: "\u{1B}[31m", sent: nil)?.id == "[31m", "control characters cleaned")
    }

    @Test func theStoredAnswerKeepsAliasesSoTheNextAnswerCanJoinThem() throws {
        let held = AlertIdentity.onePerIdentity([Self.alert, Self.update])
        let report = AlertReport.fetched(held, source: .nws, fetchedAt: Self.t0, now: Self.t0)
        let check = AlertCheck(
            source: .nws, coordinate: try #require(Coordinate(lat: 33, lon: -112)), checkedAt: Self.t0, expires: nil,
            lastModified: nil, report: report)
        let back = try #require(AlertCheck(json: try JSONValue.parse(check.json.serialized())))
        #expect(back.report.active.first?.aliases == ["B"])
        #expect(report.json.serialized().contains("aliases") == false, "not part of the reading JSON")
    }
}
