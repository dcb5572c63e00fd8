import FixcastCore
import FixcastText
import Foundation
import Testing

/// The MQTT `alert` topic's decisions (issue 21.4): once when an alert first applies however many
/// updates it gets, once with `ended` when it stops applying; no report tells nothing.
@Suite struct AlertAnnouncerTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

    static func report(_ alerts: [Alert], covered: Bool = true) -> AlertReport {
        covered
            ? AlertReport(source: .nws, covered: true, fetchedAt: t0, stale: false, active: alerts) : .notCovered
    }

    static func alert(_ id: String, headline: String = "h", expires: Double = 600) -> Alert {
        Alert(id: id, event: "Wind", headline: headline, severity: .severe, onset: t0, expires: at(expires))
    }

    @Test func anAlertIsAnnouncedOnceThroughItsUpdatesAndOnceWhenItEnds() {
        var announcer = AlertAnnouncer()
        let first = announcer.observe(Self.report([Self.alert("A")]), at: Self.at(1))
        #expect(first.map(\.alert.id) == ["A"])
        #expect(first.map(\.ended) == [false])
        #expect(first.first?.payload["ended"] == .bool(false))
        #expect(first.first?.payload["source"]?.stringValue == "nws")
        #expect(first.first?.payload["headline"]?.stringValue == "h")
        // The same alert again, and updated (AlertIdentity keeps its id): nothing.
        #expect(announcer.observe(Self.report([Self.alert("A")]), at: Self.at(2)).isEmpty)
        #expect(announcer.observe(Self.report([Self.alert("A", headline: "updated")]), at: Self.at(3)).isEmpty)
        // An outage (no report) is not an end.
        #expect(announcer.observe(nil, at: Self.at(4)).isEmpty)
        // Cancelled (no longer listed): ended, with its latest text.
        let ended = announcer.observe(Self.report([]), at: Self.at(5))
        #expect(ended.map(\.ended) == [true])
        #expect(ended.first?.alert.headline == "updated")
        #expect(ended.first?.payload["ended"] == .bool(true))
        #expect(ended.first?.payload["time"]?.stringValue == UTCTime.format(Self.at(5)))
        #expect(announcer.observe(Self.report([]), at: Self.at(6)).isEmpty, "ended once")
    }

    @Test func expiryAndLeavingCoverageEndAnAlert() {
        var announcer = AlertAnnouncer()
        _ = announcer.observe(Self.report([Self.alert("A", expires: 10), Self.alert("B")]), at: Self.at(1))
        // Still listed by a stale report, but past its expiry: ended.
        let expired = announcer.observe(Self.report([Self.alert("A", expires: 10), Self.alert("B")]), at: Self.at(11))
        #expect(expired.map(\.alert.id) == ["A"])
        #expect(expired.map(\.ended) == [true])
        let left = announcer.observe(Self.report([], covered: false), at: Self.at(12))
        #expect(left.map(\.alert.id) == ["B"])
        #expect(left.map(\.ended) == [true])
    }

    @Test func endedComeBeforeNewOnesAndTheStateSurvivesTheStore() throws {
        var announcer = AlertAnnouncer()
        _ = announcer.observe(Self.report([Self.alert("A")]), at: Self.at(1))
        let swap = announcer.observe(Self.report([Self.alert("C")]), at: Self.at(2))
        #expect(swap.map(\.alert.id) == ["A", "C"])
        #expect(swap.map(\.ended) == [true, false])
        var restored = try #require(AlertAnnouncer(json: try JSONValue.parse(announcer.json.serialized())))
        #expect(restored == announcer)
        #expect(restored.observe(Self.report([Self.alert("C")]), at: Self.at(3)).isEmpty, "no second announcement")
        #expect(AlertAnnouncer(json: .string("x")) == nil)
        #expect(AlertAnnouncer(json: .array([.int(1)]))?.applying.isEmpty == true)
    }
}
