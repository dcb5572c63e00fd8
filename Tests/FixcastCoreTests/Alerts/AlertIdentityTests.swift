import FixcastCore
import Foundation
import Testing

/// Issue 24 items 2 and 8 in Core: one id is one alert, absurd times are unknown, the cap comes last.
@Suite struct AlertIdentityTests {
    static func alert(_ id: String, _ severity: AlertSeverity, expires: Date? = nil) -> Alert {
        Alert(id: id, event: "E \(id)", severity: severity, expires: expires)
    }

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theMostRecentSentWinsWhateverItsSeverity() {
        let messages = [
            AlertIdentity.Message(alert: Self.alert("a", .extreme), sent: Self.t0),
            AlertIdentity.Message(alert: Self.alert("a", .minor), sent: Self.t0.addingTimeInterval(60)),
            AlertIdentity.Message(alert: Self.alert("b", .minor), sent: Self.t0.addingTimeInterval(60)),
            AlertIdentity.Message(alert: Self.alert("b", .extreme), sent: Self.t0),
        ]
        #expect(AlertIdentity.onePerIdentity(messages).map(\.severity) == [.minor, .minor])
    }

    @Test func withoutSentTimesOrWithEqualOnesTheMostSevereWinsAndTiesKeepTheFirst() {
        let noSent = [Self.alert("a", .minor), Self.alert("a", .severe), Self.alert("a", .moderate)].map {
            AlertIdentity.Message(alert: $0, sent: nil)
        }
        #expect(AlertIdentity.onePerIdentity(noSent).map(\.severity) == [.severe])
        let oneSent = [
            AlertIdentity.Message(alert: Self.alert("a", .minor), sent: Self.t0),
            AlertIdentity.Message(alert: Self.alert("a", .extreme), sent: nil),
        ]
        #expect(AlertIdentity.onePerIdentity(oneSent).map(\.severity) == [.extreme])
        var first = Self.alert("a", .moderate)
        first.headline = "first"
        let tie = [
            AlertIdentity.Message(alert: first, sent: Self.t0),
            AlertIdentity.Message(alert: Self.alert("a", .moderate), sent: Self.t0),
        ]
        #expect(AlertIdentity.onePerIdentity(tie).map(\.headline) == ["first"])
        #expect(AlertIdentity.onePerIdentity([]).isEmpty)
    }

    @Test(arguments: [
        ("9999-12-31T23:59:59-14:00", false), ("0000-01-01T00:00:00Z", false), ("1969-12-31T23:59:59Z", false),
        ("1970-01-01T00:00:00Z", true), ("2199-12-31T23:59:59Z", true), ("2200-01-01T00:00:00Z", false),
        ("2026-12-01T10:00:00+01:00", true), ("garbage", false),
    ])
    func timesOutside1970To2200AreUnknown(text: String, known: Bool) {
        #expect((AlertTime.parse(text) != nil) == known, "\(text)")
    }

    @Test func theCapKeepsTheMostSevereCurrentOnesAndCountsTheRest() {
        let past = Self.t0.addingTimeInterval(-60)
        var alerts = (0..<120).map { Self.alert("m\($0)", .moderate) }
        alerts += (0..<50).map { Self.alert("gone\($0)", .extreme, expires: past) }
        alerts.append(Self.alert("x", .extreme))
        let report = AlertReport.fetched(alerts, source: .nws, fetchedAt: Self.t0, now: Self.t0)
        #expect(report.active.count == AlertReport.maxAlerts)
        #expect(report.active.first?.id == "x")
        #expect(report.omitted == 21, "expired ones are not counted as cut")
        #expect(report.json["omitted"]?.intValue == 21)
        #expect(AlertReport(json: report.json)?.omitted == 21)
        let few = AlertReport.fetched(
            Array(alerts.prefix(3)), source: .nws, fetchedAt: Self.t0, now: Self.t0, alreadyOmitted: 4)
        #expect(few.omitted == 4)
        let none = AlertReport.fetched(Array(alerts.prefix(3)), source: .nws, fetchedAt: Self.t0, now: Self.t0)
        #expect(none.json["omitted"] == nil)
        #expect(AlertReport(json: .object([("covered", .bool(true)), ("omitted", .double(-1))]))?.omitted == 0)
        #expect(AlertReport(json: .object([("covered", .bool(true)), ("omitted", .double(.infinity))]))?.omitted == 0)
    }

    /// A chain longer than the alias cap, each update naming only the one before, met one answer at a
    /// time: it stays the first alert (the cap dropped the newest ids, and the 66th update was news).
    @Test func aChainLongerThanTheCapKeepsItsIdentity() throws {
        var previous = [Alert(id: "m0", event: "Flood", severity: .moderate)]
        for k in 1..<(AlertIdentity.maxReferences + 10) {
            let reference = try #require(
                AlertIdentity.Reference(id: "m\(k - 1)", sent: Self.t0.addingTimeInterval(Double(k - 1) * 3600)))
            let message = AlertIdentity.Message(
                alert: Alert(id: "m\(k)", event: "Flood", severity: .moderate),
                sent: Self.t0.addingTimeInterval(Double(k) * 3600), kind: .update, references: [reference])
            previous = AlertIdentity.continuing(AlertIdentity.onePerIdentity([message]), from: previous)
            #expect(previous.map(\.id) == ["m0"], "update \(k)")
            #expect(previous.first?.aliases.count ?? 0 <= AlertIdentity.maxReferences)
        }
    }
}
