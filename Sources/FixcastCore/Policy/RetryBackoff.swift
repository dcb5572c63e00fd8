import FoundationEssentials

/// When the next weather request is allowed after the API said "too many" (429) or failed (5xx).
///
/// The wait starts at 30 s and doubles up to 30 min (a stationary agent asks every 30 min anyway, so
/// waiting longer gains nothing); the server's `Retry-After` (seconds or an HTTP-date) lengthens it
/// when it asks for more, capped at a day so that a broken header cannot silence fixcast for good,
/// and never shortens it (`Retry-After: 0` or a past date on a 429 is no licence to ask again at
/// once). Any success resets it. Kept as text in the store (`stateText`) so consecutive `fixcast now` runs obey it.
public struct RetryBackoff: Sendable, Hashable {
    public static let initialDelayS = 30.0
    public static let maximumDelayS = 30.0 * 60
    public static let maximumRetryAfterS = 24.0 * 3600

    /// Failures in a row since the last success.
    public private(set) var failures: Int
    /// No request before this instant; nil when requests are allowed.
    public private(set) var notBefore: Date?
    /// When `notBefore` was set (nil in state an older fixcast wrote): a clock that reads before it
    /// has been set back since, and the deadline was written on the clock that ran ahead.
    public private(set) var recordedAt: Date?

    public init(failures: Int = 0, notBefore: Date? = nil, recordedAt: Date? = nil) {
        self.failures = max(0, failures)
        self.notBefore = notBefore
        self.recordedAt = notBefore == nil ? nil : recordedAt
    }

    /// Only these statuses mean "come back later"; other 4xx are the request's fault and retrying
    /// sooner or later changes nothing.
    public static func backsOff(status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// What an error message adds for a status that backs off (`backsOff`): the clause after the
    /// service's answer, so the message and the rule cannot drift apart.
    public static func backingOffHint(status: Int) -> String {
        status == 429
            ? "; fixcast is backing off and will try again later"
            : "; the service has a problem, fixcast will try again later"
    }

    /// Nominatim's: those, and 403, which its usage policy answers to an application it has blocked
    /// (asking on would keep it blocked).
    public static func backsOffNominatim(status: Int) -> Bool { backsOff(status: status) || status == 403 }

    /// A deadline does not hold when the clock now reads before the moment it was written (by more
    /// than `ClockStep.toleranceS`: a small NTP step still waits it out), nor when it is further away than any answer sets (a day): either way
    /// it was written while the clock read ahead (a Pi without a real-time clock, before its first fix
    /// or NTP; a clock set right since), or the store was damaged. Waiting out a step of hours (as
    /// "the next request is allowed after …" for a time the clock will reach only then) held weather,
    /// places and alerts silent that long; asking once beats that.
    public func allowsRequest(now: Date) -> Bool {
        guard let notBefore else { return true }
        if let recordedAt, ClockStep.isAhead(recordedAt, of: now) { return true }
        return now >= notBefore || notBefore.timeIntervalSince(now) > Self.maximumRetryAfterS
    }

    /// No failure counted and no deadline: requests are allowed, and nothing needs keeping.
    public var isClear: Bool { failures == 0 && notBefore == nil }

    public mutating func recordSuccess() {
        failures = 0
        notBefore = nil
        recordedAt = nil
    }

    /// Records a 429/5xx answer (other statuses leave the state alone) and returns the new deadline.
    /// `backsOff`: the statuses that count (429 and 5xx; Nominatim adds 403: `backsOffNominatim`).
    @discardableResult
    public mutating func recordFailure(
        status: Int, retryAfter: String?, now: Date, backsOff: (Int) -> Bool = RetryBackoff.backsOff(status:)
    ) -> Date? {
        guard backsOff(status) else { return notBefore }
        failures = failures.addingSaturated(1)  // a count read back from a damaged store may be Int.max
        var delay = exponentialDelay
        if let retryAfter, let wait = Self.retryAfterSeconds(retryAfter, now: now) {
            delay = max(delay, min(wait, Self.maximumRetryAfterS))
        }
        notBefore = now.addingTimeInterval(delay)
        recordedAt = now
        return notBefore
    }

    /// 30 s · 2^(failures−1), at most 30 min.
    public var exponentialDelay: Double {
        guard failures > 0 else { return 0 }
        var delay = Self.initialDelayS
        for _ in 1..<min(failures, 20) { delay *= 2 }
        return min(delay, Self.maximumDelayS)
    }

    /// The stricter of two copies of one back-off: the later deadline (with when it was written) and
    /// the longer run of failures. A service keeps one copy in memory and one in the store; when the
    /// store cannot be written (a full SD card, a read-only file) or read, the copy in memory still
    /// holds requests back.
    public static func stricter(_ a: RetryBackoff, _ b: RetryBackoff) -> RetryBackoff {
        let later: RetryBackoff
        if let x = a.notBefore, let y = b.notBefore {
            later = x >= y ? a : b
        } else {
            later = a.notBefore == nil ? b : a
        }
        return RetryBackoff(
            failures: max(a.failures, b.failures), notBefore: later.notBefore, recordedAt: later.recordedAt)
    }

    /// `Retry-After` as seconds from `now` (a past date is 0); nil when it is neither form.
    /// - SeeAlso: RFC 9110 §10.2.3
    public static func retryAfterSeconds(_ value: String, now: Date) -> Double? {
        let trimmed = value.trimmedLowercase
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit), let seconds = Double(trimmed) { return seconds }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    // MARK: Persistence

    /// `failures notBeforeEpochSeconds recordedAtEpochSeconds` (the last two absent when requests are
    /// allowed; an older fixcast wrote no third).
    public var stateText: String {
        guard let notBefore else { return "\(failures)" }
        let deadline = "\(failures) \(Int(clamping: notBefore.timeIntervalSince1970, to: 0...Int.max, rounding: .up))"
        guard let recordedAt else { return deadline }
        return deadline + " \(Int(clamping: recordedAt.timeIntervalSince1970, to: 0...Int.max, rounding: .down))"
    }

    /// nil for text this type did not write (then the caller starts afresh).
    public init?(stateText: String) {
        let parts = stateText.split(separator: " ")
        guard (1...3).contains(parts.count), let failures = Int(parts[0]), failures >= 0 else { return nil }
        var times: [Date] = []
        for part in parts.dropFirst() {
            guard let epoch = Int(part) else { return nil }
            times.append(Date(timeIntervalSince1970: Double(epoch)))
        }
        self.init(failures: failures, notBefore: times.first, recordedAt: times.count == 2 ? times[1] : nil)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
