import FixcastText
import Foundation
import Testing

@testable import FixcastCore

/// The per-feed rate limit (one request per country feed per check_min, wherever in the country) and
/// the stored copy's JSON, in virtual time.
struct MeteoAlarmFeedCheckTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let check = MeteoAlarmFeedCheck(
        feed: "france", checkedAt: t0, expires: nil, lastModified: "Thu, 08 Dec 2022 00:36:08 GMT",
        etag: "\"abc\"", body: "<feed></feed>")
    let policy = AlertCheckPolicy(checkMin: 10)

    @Test func withinCheckMinTheFeedIsReusedWhereverInTheCountry() {
        #expect(policy.decide(feed: Self.check, slug: "france", now: Self.t0.addingTimeInterval(598)) == .reuse)
    }

    @Test func afterCheckMinItIsAskedWithBothValidators() {
        #expect(
            policy.decide(feed: Self.check, slug: "france", now: Self.t0.addingTimeInterval(600))
                == .ask(ifModifiedSince: "Thu, 08 Dec 2022 00:36:08 GMT", ifNoneMatch: "\"abc\""))
    }

    @Test func anotherFeedOrNoneIsAskedWithoutValidators() {
        #expect(
            policy.decide(feed: Self.check, slug: "germany", now: Self.t0)
                == .ask(ifModifiedSince: nil, ifNoneMatch: nil))
        #expect(policy.decide(feed: nil, slug: "france", now: Self.t0) == .ask(ifModifiedSince: nil, ifNoneMatch: nil))
    }

    @Test func aClockThatWentBackAsks() {
        #expect(
            policy.decide(feed: Self.check, slug: "france", now: Self.t0.addingTimeInterval(-60))
                != .reuse)
    }

    @Test func expiresHoldsUpToAnHour() {
        var c = Self.check
        c.expires = Self.t0.addingTimeInterval(1800)
        #expect(policy.decide(feed: c, slug: "france", now: Self.t0.addingTimeInterval(1200)) == .reuse)
        c.expires = Self.t0.addingTimeInterval(3 * 3600)
        #expect(policy.decide(feed: c, slug: "france", now: Self.t0.addingTimeInterval(1200)) != .reuse)
    }

    @Test func roundTripsThroughJSONAndRefusesGarbage() throws {
        let json = try JSONValue.parse(Array(Self.check.json.serialized().utf8))
        #expect(MeteoAlarmFeedCheck(json: json) == Self.check)
        #expect(MeteoAlarmFeedCheck(json: .object([("feed", .string("france"))])) == nil)
        var hostile = Self.check
        hostile.etag = "\"a\"\u{1B}[2J"
        let back = MeteoAlarmFeedCheck(json: try JSONValue.parse(Array(hostile.json.serialized().utf8)))
        #expect(back?.etag?.unicodeScalars.contains { $0.value == 0x1B } != true)
    }
}
