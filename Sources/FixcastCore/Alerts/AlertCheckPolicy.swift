import FoundationEssentials

/// What fixcast remembers of its last question to one alert source: where and when it asked,
/// the answer's `Expires` and `Last-Modified`, and the alerts it got (as fetched, before ageing).
public struct AlertCheck: Sendable, Hashable {
    public var source: AlertSourceID
    public var coordinate: Coordinate
    public var checkedAt: Date
    public var expires: Date?
    public var lastModified: String?
    public var report: AlertReport
    /// The URL asked (the source's, for `coordinate`): `Last-Modified` is that document's, so it goes
    /// back as `If-Modified-Since` only to the same URL. nil in a check kept by an older fixcast.
    public var url: String?

    public init(
        source: AlertSourceID, coordinate: Coordinate, checkedAt: Date, expires: Date?, lastModified: String?,
        report: AlertReport, url: String? = nil
    ) {
        self.url = url
        self.source = source
        self.coordinate = coordinate
        self.checkedAt = checkedAt
        self.expires = expires
        self.lastModified = lastModified
        self.report = report
    }
}

/// Decides whether an alert source may be asked now (CONTRACT.md "Alerts", MET Norway's terms):
/// never more often than `alerts.check_min` for a spot within 5 km of the last question, never before
/// that answer's `Expires`, and with `If-Modified-Since` when the last answer had a `Last-Modified`
/// and was for the same URL (a spot up to 5 km away is another URL: its 304 would hand the last spot's
/// alerts to this one). A spot farther away is a new question and may be asked at once.
public struct AlertCheckPolicy: Sendable, Hashable {
    /// The "same spot" radius of the contract; alert areas are counties and sea areas, much larger.
    public static let sameSpotKm = 5.0
    /// 1 s: `run`'s own check comes every `check_min` on the monotonic clock, and the last check's age
    /// is read on the wall clock a moment after its request began; a check milliseconds short of
    /// `check_min` by that reckoning is the due one, not one to hold back for another whole `check_min`.
    public static let timerSlackS = 1.0
    public let checkInterval: Double

    public init(checkMin: Double) {
        self.checkInterval = max(1, checkMin) * 60
    }

    public enum Decision: Sendable, Hashable {
        /// The last answer still stands; no request.
        case reuse
        /// Ask; send `If-Modified-Since` when given.
        case ask(ifModifiedSince: String?)
    }

    /// `url`: what would be asked for `coordinate` (nil: only whether the last answer stands matters).
    public func decide(
        last: AlertCheck?, source: AlertSourceID, at coordinate: Coordinate, url: String? = nil, now: Date
    ) -> Decision {
        guard let last, last.source == source,
            GreatCircle.distanceKm(last.coordinate, coordinate) <= Self.sameSpotKm
        else { return .ask(ifModifiedSince: nil) }
        // A clock that went backwards makes the last check "in the future": ask rather than go silent.
        let age = now.timeIntervalSince(last.checkedAt)
        if age >= 0 && age < checkInterval - Self.timerSlackS { return .reuse }
        // `Expires` up to an hour ahead (`ServerExpiry`): further is a broken header.
        if ServerExpiry.stands(last.expires, receivedAt: last.checkedAt, now: now) { return .reuse }
        return .ask(ifModifiedSince: url != nil && last.url == url ? last.lastModified : nil)
    }
}
