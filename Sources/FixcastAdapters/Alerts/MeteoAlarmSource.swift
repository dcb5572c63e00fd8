import FixcastCore
import FoundationEssentials

/// One answer of a MeteoAlarm country feed: the Atom document (nil for 304 Not Modified: the stored
/// one stands) and its caching headers.
public struct MeteoAlarmFeedAnswer: Sendable, Hashable {
    public var body: String?
    public var expires: Date?
    public var lastModified: String?
    public var etag: String?

    public init(body: String?, expires: Date?, lastModified: String?, etag: String?) {
        self.body = body
        self.expires = expires
        self.lastModified = lastModified
        self.etag = etag
    }
}

/// MeteoAlarm (EUMETNET): one country's warnings as its legacy Atom feed,
/// `{meteoalarm_base_url}/feeds/meteoalarm-legacy-atom-<slug>`, asked with the identifying User-Agent
/// (the HTTP client sends it) and the validators of the stored copy (`If-Modified-Since`,
/// `If-None-Match`). The feed is the same wherever in the country fixcast is: which warnings apply at
/// a position is decided offline (`MeteoAlarmFeedAlerts`). Network only.
/// - SeeAlso: https://meteoalarm.org (terms of use: credit "MeteoAlarm / EUMETNET")
public struct MeteoAlarmSource: Sendable {
    public let id = AlertSourceID.meteoalarm
    public let baseURL: String
    private let http: any HTTPFetching

    public init(baseURL: String = "", http: any HTTPFetching) {
        self.baseURL = WeatherHTTP.base(baseURL, publicURL: MeteoAlarmFeeds.defaultBaseURL)
        self.http = http
    }

    /// The feed's URL for a slug of `MeteoAlarmFeeds`.
    public func url(feed slug: String) -> String {
        baseURL + MeteoAlarmFeeds.feedPath(slug: slug)
    }

    /// GETs the feed; a 200 whose body is not an Atom feed in UTF-8 is an invalid response, never stored.
    public func fetch(feed slug: String, ifModifiedSince: String?, ifNoneMatch: String?) async throws(AlertError)
        -> MeteoAlarmFeedAnswer
    {
        let answer = try await AlertHTTP.exchange(
            url(feed: slug), accept: "application/atom+xml, application/xml;q=0.9", ifModifiedSince: ifModifiedSince,
            ifNoneMatch: ifNoneMatch, source: id, http: http)
        guard let body = answer.body else {
            return MeteoAlarmFeedAnswer(
                body: nil, expires: answer.expires, lastModified: answer.lastModified, etag: answer.etag)
        }
        do {
            _ = try MeteoAlarmAtomDecoder.decode(body)
        } catch {
            throw .invalidResponse(source: id, detail: error.detail)
        }
        return MeteoAlarmFeedAnswer(
            body: String(decoding: body, as: UTF8.self), expires: answer.expires, lastModified: answer.lastModified,
            etag: answer.etag)
    }
}
