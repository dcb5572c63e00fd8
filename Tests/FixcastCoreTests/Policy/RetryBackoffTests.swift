import Foundation
import Testing

@testable import FixcastCore

@Suite struct RetryBackoffTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func freshStateAllowsRequests() {
        #expect(RetryBackoff().allowsRequest(now: now))
        #expect(RetryBackoff().exponentialDelay == 0)
    }

    @Test(arguments: [429, 500, 502, 503, 599]) func throttlingStatusesBackOff(status: Int) {
        var b = RetryBackoff()
        b.recordFailure(status: status, retryAfter: nil, now: now)
        #expect(b.failures == 1)
        #expect(!b.allowsRequest(now: now.addingTimeInterval(29)))
        #expect(b.allowsRequest(now: now.addingTimeInterval(30)))
    }

    @Test(arguments: [200, 304, 400, 401, 404, 418]) func otherStatusesDoNot(status: Int) {
        var b = RetryBackoff()
        b.recordFailure(status: status, retryAfter: "600", now: now)
        #expect(b.failures == 0)
        #expect(b.allowsRequest(now: now))
    }

    @Test func exponentialDoublesToThirtyMinutes() {
        var b = RetryBackoff()
        var delays: [Double] = []
        for _ in 0..<9 {
            let until = b.recordFailure(status: 503, retryAfter: nil, now: now)
            delays.append(until!.timeIntervalSince(now))
        }
        #expect(delays == [30, 60, 120, 240, 480, 960, 1800, 1800, 1800])
    }

    @Test func retryAfterSecondsWins() {
        var b = RetryBackoff()
        b.recordFailure(status: 429, retryAfter: "120", now: now)
        #expect(b.notBefore == now.addingTimeInterval(120))
        #expect(!b.allowsRequest(now: now.addingTimeInterval(119)))
        #expect(b.allowsRequest(now: now.addingTimeInterval(120)))
    }

    @Test func retryAfterHTTPDateWins() {
        var b = RetryBackoff()
        let date = "Fri, 15 Jan 2027 08:05:00 GMT"  // now is 2027-01-15T08:00:00Z
        b.recordFailure(status: 503, retryAfter: date, now: now)
        #expect(b.notBefore == HTTPDate.parse(date))
        #expect(b.notBefore == now.addingTimeInterval(300))
    }

    /// An HTTP-date is read against the answer's own `Date`: a local clock 10 min slow no longer turns
    /// "in 60 s" into 11 min, nor a fast one an hour's wait into none.
    @Test func aRetryAfterDateIsCountedFromTheAnswersOwnDate() {
        func response(_ headers: [String: String]) -> HTTPResponse {
            HTTPResponse(status: 429, headers: headers, body: [], effectiveURL: "https://x")
        }
        let sent = "Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(response(["retry-after": "Sun, 06 Nov 1994 08:50:37 GMT", "date": sent]).retryAfter == "60")
        #expect(response(["retry-after": "Sun, 06 Nov 1994 08:48:37 GMT", "date": sent]).retryAfter == "0")
        #expect(response(["retry-after": "120"]).retryAfter == "120")
        #expect(
            response(["retry-after": "Sun, 06 Nov 1994 08:50:37 GMT"]).retryAfter == "Sun, 06 Nov 1994 08:50:37 GMT")
        #expect(response(["retry-after": "soon", "date": sent]).retryAfter == "soon")
        #expect(response([:]).retryAfter == nil)
        var b = RetryBackoff()
        let slowClock = Date(timeIntervalSince1970: 784_111_777 - 600)
        b.recordFailure(
            status: 429,
            retryAfter: response(["retry-after": "Sun, 06 Nov 1994 08:50:37 GMT", "date": sent]).retryAfter,
            now: slowClock)
        #expect(b.notBefore == slowClock.addingTimeInterval(60))
    }

    @Test func unreadableRetryAfterFallsBackToExponential() {
        var b = RetryBackoff()
        b.recordFailure(status: 429, retryAfter: "soon", now: now)
        #expect(b.notBefore == now.addingTimeInterval(30))
    }

    @Test func retryAfterIsCappedAtADay() {
        var b = RetryBackoff()
        b.recordFailure(status: 429, retryAfter: "99999999", now: now)
        #expect(b.notBefore == now.addingTimeInterval(RetryBackoff.maximumRetryAfterS))
    }

    /// `Retry-After: 0` or a date gone by never shortens the wait below the exponential one: before,
    /// it meant no back-off at all, and a server answering 429 so was asked again at every trigger.
    @Test func aZeroOrPastRetryAfterStillWaitsTheExponentialDelay() {
        var b = RetryBackoff()
        b.recordFailure(status: 429, retryAfter: "0", now: now)
        #expect(b.notBefore == now.addingTimeInterval(30))
        b.recordFailure(status: 429, retryAfter: "0", now: now)
        #expect(b.notBefore == now.addingTimeInterval(60))
        #expect(!b.allowsRequest(now: now))
        var c = RetryBackoff()
        c.recordFailure(status: 429, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT", now: now)
        #expect(c.notBefore == now.addingTimeInterval(RetryBackoff.initialDelayS))
    }

    /// A `Retry-After` shorter than the exponential delay does not shorten it; a longer one wins.
    @Test func retryAfterOnlyLengthensTheWait() {
        var b = RetryBackoff()
        for _ in 0..<4 { b.recordFailure(status: 503, retryAfter: nil, now: now) }
        b.recordFailure(status: 503, retryAfter: "10", now: now)
        #expect(b.notBefore == now.addingTimeInterval(480))
        b.recordFailure(status: 503, retryAfter: "7200", now: now)
        #expect(b.notBefore == now.addingTimeInterval(7200))
    }

    /// The stricter copy of a back-off: the later deadline, the longer run of failures, and a copy
    /// with no deadline never cancels one that has it.
    @Test func theStricterOfTwoCopies() {
        let early = RetryBackoff(failures: 3, notBefore: now.addingTimeInterval(60))
        let late = RetryBackoff(failures: 1, notBefore: now.addingTimeInterval(600))
        #expect(
            RetryBackoff.stricter(early, late) == RetryBackoff(failures: 3, notBefore: now.addingTimeInterval(600)))
        #expect(RetryBackoff.stricter(RetryBackoff(), late) == late)
        #expect(RetryBackoff.stricter(late, RetryBackoff()) == late)
        #expect(RetryBackoff.stricter(RetryBackoff(), RetryBackoff()) == RetryBackoff())
    }

    @Test func successResets() {
        var b = RetryBackoff()
        b.recordFailure(status: 500, retryAfter: nil, now: now)
        b.recordFailure(status: 500, retryAfter: nil, now: now)
        b.recordSuccess()
        #expect(b.failures == 0)
        #expect(b.notBefore == nil)
        b.recordFailure(status: 500, retryAfter: nil, now: now)
        #expect(b.notBefore == now.addingTimeInterval(30))
    }

    @Test func stateTextRoundTrips() throws {
        var b = RetryBackoff()
        b.recordFailure(status: 500, retryAfter: nil, now: now)
        b.recordFailure(status: 500, retryAfter: nil, now: now)
        let restored = try #require(RetryBackoff(stateText: b.stateText))
        #expect(restored == b)
        #expect(RetryBackoff(stateText: RetryBackoff().stateText) == RetryBackoff())
    }

    @Test(arguments: ["", "x", "-1", "1 x", "1 2 x", "1 2 3 4", "one 5"]) func foreignStateTextIsRejected(text: String)
    {
        #expect(RetryBackoff(stateText: text) == nil)
    }

    @Test func httpDateForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // 1994-11-06T08:49:37Z
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Sun, 31 Feb 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("tomorrow") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
    }

    /// A header is the network's: a year no clock reads, or a negative clock, is not a date (a year of
    /// 10^17 overflowed the day count and trapped; "-1:-1:-1" read as a minute before midnight).
    @Test(arguments: [
        "Sun, 06 Nov 99999999999999999 08:49:37 GMT", "Sun, 06 Nov -99999999999999999 08:49:37 GMT",
        "Sunday, 06-Nov-99999999999999999 08:49:37 GMT", "Sun Nov  6 08:49:37 99999999999999999",
        "Sun, 06 Nov 0 08:49:37 GMT", "Sun, 06 Nov 10000 08:49:37 GMT", "Sun, 06 Nov 1994 -1:-1:-1 GMT",
        "Sun, 06 Nov 1994 08:49:+37 GMT", "Sun, -6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08::49:37 GMT",
        "Sun, 06 Nov 1994 08:49:99999999999:37 GMT",
    ])
    func anAbsurdHTTPDateIsNone(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
        #expect(RetryBackoff.retryAfterSeconds(text, now: now) == nil)
    }

    @Test func theWidestYearsStillRead() {
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    }

    /// A store is the disk's: a failure count at Int.max, read back and failed once more, trapped.
    @Test func aFailureCountAtItsLimitStaysThere() throws {
        var b = try #require(RetryBackoff(stateText: "\(Int.max)"))
        b.recordFailure(status: 503, retryAfter: nil, now: now)
        #expect(b.failures == Int.max)
        #expect(b.notBefore == now.addingTimeInterval(RetryBackoff.maximumDelayS))
    }

    /// A Pi without a real-time clock may write a back-off while its clock reads years ahead, then set
    /// the clock right: no answer holds requests back for more than a day, so a deadline further
    /// away than that is not one (before, the weather stayed silent until the wrong clock's date).
    @Test func aDeadlineFurtherThanAnyAnswerSetsDoesNotHold() throws {
        let far = try #require(
            RetryBackoff(stateText: "3 \(Int(now.timeIntervalSince1970) + 4 * 365 * 86_400)"))
        #expect(far.allowsRequest(now: now))
        let day = try #require(RetryBackoff(stateText: "3 \(Int(now.timeIntervalSince1970) + 86_400)"))
        #expect(!day.allowsRequest(now: now))
        #expect(day.allowsRequest(now: now.addingTimeInterval(86_400)))
    }

    /// A back-off written while the clock read 5 h ahead, then the clock set right: the deadline is
    /// hours away on the right clock, but it was written "after" now, so it does not hold. A small step
    /// back (under a minute) still waits; a state an older fixcast wrote (no third part) keeps the
    /// day rule alone.
    @Test func aDeadlineWrittenBeforeTheClockWasSetBackDoesNotHold() throws {
        var ahead = RetryBackoff()
        let wrong = now.addingTimeInterval(5 * 3_600)
        ahead.recordFailure(status: 429, retryAfter: "60", now: wrong)
        #expect(ahead.recordedAt == wrong)
        let stored = try #require(RetryBackoff(stateText: ahead.stateText))
        #expect(stored == ahead)
        #expect(stored.allowsRequest(now: now))
        #expect(!stored.allowsRequest(now: wrong.addingTimeInterval(-30)))
        #expect(!stored.allowsRequest(now: wrong.addingTimeInterval(59)))
        #expect(stored.allowsRequest(now: wrong.addingTimeInterval(60)))
        let old = try #require(RetryBackoff(stateText: "1 \(Int(wrong.timeIntervalSince1970) + 60)"))
        #expect(old.recordedAt == nil && !old.allowsRequest(now: now))
        // The stricter copy keeps the later deadline with the time it was written.
        let right = RetryBackoff(failures: 4, notBefore: now.addingTimeInterval(600), recordedAt: now)
        #expect(RetryBackoff.stricter(right, stored).recordedAt == wrong)
        #expect(RetryBackoff.stricter(right, stored).failures == 4)
    }

    /// Nominatim's rule adds 403 (its answer to an application it blocked); the general one does not.
    @Test func nominatimAlsoBacksOffOn403() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(RetryBackoff.backsOffNominatim(status: 403))
        #expect(RetryBackoff.backsOffNominatim(status: 429) && RetryBackoff.backsOffNominatim(status: 503))
        #expect(!RetryBackoff.backsOffNominatim(status: 400) && !RetryBackoff.backsOffNominatim(status: 404))
        var general = RetryBackoff()
        #expect(general.recordFailure(status: 403, retryAfter: nil, now: now) == nil)
        var nominatim = RetryBackoff()
        let until = nominatim.recordFailure(
            status: 403, retryAfter: nil, now: now, backsOff: RetryBackoff.backsOffNominatim(status:))
        #expect(until == now.addingTimeInterval(RetryBackoff.initialDelayS))
    }
}
