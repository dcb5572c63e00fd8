import FixcastText
import Foundation
import Testing

@testable import FixcastCore

@Suite struct AlertCheckPolicyTests {
    let here = Coordinate(lat: 33.25, lon: -112.30)!
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func check(
        at c: Coordinate, _ t: Date, expires: Date? = nil, lastModified: String? = nil, source: AlertSourceID = .nws
    ) -> AlertCheck {
        AlertCheck(
            source: source, coordinate: c, checkedAt: t, expires: expires, lastModified: lastModified,
            report: AlertReport(source: source, covered: true, fetchedAt: t, stale: false, active: []),
            url: Self.url(c))
    }

    /// A point source's URL, as the sources make it (4 decimals).
    static func url(_ c: Coordinate) -> String {
        "https://api.weather.gov/alerts/active?point=" + QueryEncoding.decimal(c.lat, places: 4) + ","
            + QueryEncoding.decimal(c.lon, places: 4)
    }

    /// `Last-Modified` is the asked document's: a spot 2 km on asks another URL, so it is asked afresh;
    /// a 304 there would hand it the last spot's alerts (a boat at 20 km/h never leaves 5 km of them).
    @Test func ifModifiedSinceGoesOnlyToTheSameURL() {
        let policy = AlertCheckPolicy(checkMin: 10)
        let last = check(at: here, t0, lastModified: "Mon, 30 Nov 2026 14:00:00 GMT")
        let near = Coordinate(lat: 33.27, lon: -112.30)!  // ~2.2 km
        let later = t0.addingTimeInterval(600)
        #expect(
            policy.decide(last: last, source: .nws, at: here, url: Self.url(here), now: later)
                == .ask(ifModifiedSince: "Mon, 30 Nov 2026 14:00:00 GMT"))
        #expect(
            policy.decide(last: last, source: .nws, at: near, url: Self.url(near), now: later)
                == .ask(ifModifiedSince: nil))
        let sameURL = Coordinate(lat: 33.25001, lon: -112.30001)!  // rounds to the same 4 decimals
        #expect(
            policy.decide(last: last, source: .nws, at: sameURL, url: Self.url(sameURL), now: later)
                == .ask(ifModifiedSince: "Mon, 30 Nov 2026 14:00:00 GMT"))
        var older = last
        older.url = nil  // kept by an earlier fixcast: which URL it answered is unknown
        #expect(
            policy.decide(last: older, source: .nws, at: here, url: Self.url(here), now: later)
                == .ask(ifModifiedSince: nil))
    }

    @Test func noRequestWithinCheckMinForTheSameSpot() {
        let policy = AlertCheckPolicy(checkMin: 10)
        let last = check(at: here, t0, lastModified: "Mon, 30 Nov 2026 14:00:00 GMT")
        #expect(policy.decide(last: nil, source: .nws, at: here, now: t0) == .ask(ifModifiedSince: nil))
        #expect(policy.decide(last: last, source: .nws, at: here, now: t0.addingTimeInterval(598)) == .reuse)
        let near = Coordinate(lat: 33.27, lon: -112.30)!  // ~2.2 km
        #expect(policy.decide(last: last, source: .nws, at: near, now: t0.addingTimeInterval(60)) == .reuse)
        #expect(
            policy.decide(last: last, source: .nws, at: here, url: Self.url(here), now: t0.addingTimeInterval(600))
                == .ask(ifModifiedSince: "Mon, 30 Nov 2026 14:00:00 GMT"))
    }

    /// The agent's timer (monotonic) and the last check's age (wall clock, from its request) differ by
    /// a moment: a check due by the one is not held back a whole `check_min` by the other.
    @Test func theDueCheckIsNotHeldBackByAMoment() {
        let policy = AlertCheckPolicy(checkMin: 10)
        let last = check(at: here, t0)
        #expect(policy.decide(last: last, source: .nws, at: here, now: t0.addingTimeInterval(599.9)) != .reuse)
        #expect(policy.decide(last: last, source: .nws, at: here, now: t0.addingTimeInterval(598.9)) == .reuse)
    }

    @Test func anotherSpotOrSourceIsANewQuestion() {
        let policy = AlertCheckPolicy(checkMin: 10)
        let last = check(at: here, t0, lastModified: "x")
        let far = Coordinate(lat: 33.35, lon: -112.30)!  // ~11 km
        #expect(
            policy.decide(last: last, source: .nws, at: far, now: t0.addingTimeInterval(60))
                == .ask(ifModifiedSince: nil))
        #expect(
            policy.decide(last: last, source: .metalerts, at: here, now: t0.addingTimeInterval(60))
                == .ask(ifModifiedSince: nil))
    }

    @Test func expiresIsHonouredUpToAnHour() {
        let policy = AlertCheckPolicy(checkMin: 1)
        let last = check(at: here, t0, expires: t0.addingTimeInterval(1800))
        #expect(policy.decide(last: last, source: .nws, at: here, now: t0.addingTimeInterval(120)) == .reuse)
        #expect(
            policy.decide(last: last, source: .nws, at: here, now: t0.addingTimeInterval(1800))
                == .ask(ifModifiedSince: nil))
        // A year ahead is a broken header: only check_min holds.
        let absurd = check(at: here, t0, expires: t0.addingTimeInterval(365 * 86400))
        #expect(
            policy.decide(last: absurd, source: .nws, at: here, now: t0.addingTimeInterval(120))
                == .ask(ifModifiedSince: nil))
    }

    @Test func aClockGoingBackwardsAsksAgain() {
        let policy = AlertCheckPolicy(checkMin: 10)
        let last = check(at: here, t0)
        #expect(
            policy.decide(last: last, source: .nws, at: here, now: t0.addingTimeInterval(-3600))
                == .ask(ifModifiedSince: nil))
    }

    @Test func checkMinIsNeverBelowAMinute() {
        #expect(AlertCheckPolicy(checkMin: 0).checkInterval == 60)
        #expect(AlertCheckPolicy(checkMin: 10).checkInterval == 600)
    }
}

@Suite struct AlertJSONTests {
    @Test func notCoveredIsItsOwnShape() {
        #expect(AlertReport.notCovered.json.serialized() == #"{"covered":false,"source":null,"active":[]}"#)
        #expect(AlertReport(json: AlertReport.notCovered.json) == .notCovered)
    }

    @Test func aReportRoundTripsThroughTheReading() throws {
        let alerts = try NWSAlertDecoder.decode(CoreFixtures.bytes("nws-alerts-active-point-phoenix.json"))
        let at = UTCTime.parse("2024-07-18T19:50:06Z")!
        let report = AlertReport.fetched(alerts, source: .nws, fetchedAt: at, now: at)
        let reading = Reading(
            time: at, trigger: .alert, position: .manual(Coordinate(lat: 33.25, lon: -112.3)!, at: at), alerts: report)
        let json = reading.json(language: .en)
        #expect(json["trigger"]?.stringValue == "alert")
        #expect(json["alerts"]?["source"]?.stringValue == "nws")
        #expect(json["alerts"]?["active"]?[0]?["severity"]?.stringValue == "severe")
        #expect(json["alerts"]?["active"]?[0]?["expires"]?.stringValue == "2024-07-19T10:00:00Z")
        let back = try #require(Reading(json: JSONValue.parse(json.serialized())))
        #expect(back.alerts == report)
        #expect(Reading(json: Reading(time: at, trigger: .once, position: nil).json(language: .en))?.alerts == nil)
    }

    @Test func ageingDropsExpiredAndMarksStale() throws {
        let alerts = try NWSAlertDecoder.decode(CoreFixtures.bytes("nws-alerts-active-point-phoenix.json"))
        let at = UTCTime.parse("2024-07-18T19:50:06Z")!
        let report = AlertReport.fetched(alerts, source: .nws, fetchedAt: at, now: at)
        let aged = report.aged(to: UTCTime.parse("2024-07-19T12:00:00Z")!, stale: true)
        #expect(aged.stale)
        #expect(aged.active.map(\.event) == ["Air Quality Alert"])
        #expect(AlertReport.notCovered.aged(to: at, stale: true).stale == false)
    }

    @Test func checkRecordRoundTrips() throws {
        let at = UTCTime.parse("2024-07-18T19:50:06Z")!
        let alerts = try NWSAlertDecoder.decode(CoreFixtures.bytes("nws-alerts-active-point-phoenix.json"))
        let c = AlertCheck(
            source: .nws, coordinate: Coordinate(lat: 1.5, lon: 2.5)!, checkedAt: at,
            expires: at.addingTimeInterval(60),
            lastModified: "Thu, 18 Jul 2024 19:50:06 GMT",
            report: .fetched(alerts, source: .nws, fetchedAt: at, now: at))
        #expect(AlertCheck(json: try JSONValue.parse(c.json.serialized())) == c)
    }
}
