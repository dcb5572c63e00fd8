import FixcastText
import FoundationEssentials

/// What fixcast keeps of its last request for one MeteoAlarm country feed: when it asked, the answer's
/// caching headers (`Expires`, `Last-Modified`, `ETag`) and the feed itself, whole, so that any position
/// in that country can be matched to it later without asking again (a 304 Not Modified, a move).
public struct MeteoAlarmFeedCheck: Sendable, Hashable {
    /// The feed's slug (`MeteoAlarmFeeds`), as `france`.
    public var feed: String
    public var checkedAt: Date
    public var expires: Date?
    public var lastModified: String?
    public var etag: String?
    /// The Atom document as received (valid UTF-8: a body that is not is refused before it is kept).
    public var body: String

    public init(
        feed: String, checkedAt: Date, expires: Date?, lastModified: String?, etag: String?, body: String
    ) {
        self.feed = feed
        self.checkedAt = checkedAt
        self.expires = expires
        self.lastModified = lastModified
        self.etag = etag
        self.body = body
    }

    public var json: JSONValue {
        .object([
            ("feed", .string(feed)),
            ("checked_at", .string(UTCTime.format(checkedAt))),
            ("expires", .string(expires.map(UTCTime.format))),
            ("last_modified", .string(lastModified)),
            ("etag", .string(etag)),
            ("body", .string(body)),
        ])
    }

    /// nil when the stored text is not such a record (the store is outside data too).
    public init?(json c: JSONValue) {
        guard let feed = c["feed"]?.stringValue, let body = c["body"]?.stringValue,
            let checkedAt = c["checked_at"]?.stringValue.flatMap(UTCTime.parse)
        else { return nil }
        self.init(
            feed: feed, checkedAt: checkedAt, expires: c["expires"]?.stringValue.flatMap(UTCTime.parse),
            lastModified: c["last_modified"]?.stringValue.flatMap { AlertText.line($0) },
            etag: c["etag"]?.stringValue.flatMap { AlertText.line($0) }, body: body)
    }
}

extension AlertCheckPolicy {
    public enum FeedDecision: Sendable, Hashable {
        /// The stored feed still stands; no request.
        case reuse
        /// Ask, with the validators of the stored feed when it has them.
        case ask(ifModifiedSince: String?, ifNoneMatch: String?)
    }

    /// The rule for a whole-country feed: as for a spot (`check_min`, `Expires` up to an hour), but the
    /// feed is the same wherever in the country fixcast is, so distance plays no part: one request per
    /// feed per `check_min`, however far fixcast moves within the country.
    public func decide(feed last: MeteoAlarmFeedCheck?, slug: String, now: Date) -> FeedDecision {
        guard let last, last.feed == slug else { return .ask(ifModifiedSince: nil, ifNoneMatch: nil) }
        // A clock that went backwards makes the last check "in the future": ask rather than go silent.
        let age = now.timeIntervalSince(last.checkedAt)
        if age >= 0 && age < checkInterval - Self.timerSlackS { return .reuse }
        if ServerExpiry.stands(last.expires, receivedAt: last.checkedAt, now: now) { return .reuse }
        return .ask(ifModifiedSince: last.lastModified, ifNoneMatch: last.etag)
    }
}
