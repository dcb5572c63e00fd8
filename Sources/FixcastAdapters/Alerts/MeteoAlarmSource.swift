import FixcastCore
import FixcastText
import FoundationEssentials

/// One answer of a MeteoAlarm country feed: the Atom document (nil for 304 Not Modified: the stored
/// one stands) and its caching headers.
public struct MeteoAlarmFeedAnswer: Sendable, Hashable {
    public var body: String?
    /// The body as read (`XMLDocumentReader`), so that it is not read again to be placed; nil for a
    /// 304 and for a region's JSON (`AlertRegionSource` answers with this type too).
    public var tree: XMLElement?
    public var expires: Date?
    public var lastModified: String?
    public var etag: String?

    public init(body: String?, tree: XMLElement? = nil, expires: Date?, lastModified: String?, etag: String?) {
        self.body = body
        self.tree = tree
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
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: MeteoAlarmFeeds.defaultBaseURL)
        self.http = http
    }

    /// The feed's URL for a slug of `MeteoAlarmFeeds`.
    public func url(feed slug: String) -> String {
        baseURL + MeteoAlarmFeeds.feedPath(slug: slug)
    }

    /// GETs the feed; a 200 whose body is not a whole Atom feed in UTF-8 is an invalid response, never
    /// stored.
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
        let tree = try Self.feed(body)
        // The store keeps the feed as text: a feed in another encoding (which libxml2 would read) is
        // refused rather than kept as something other than what was sent.
        guard let text = String(validating: body, as: UTF8.self) else {
            throw .invalidResponse(source: id, detail: "the feed is not UTF-8")
        }
        return MeteoAlarmFeedAnswer(
            body: text, tree: tree, expires: answer.expires, lastModified: answer.lastModified, etag: answer.etag)
    }

    /// A feed's bytes (an answer's, or the stored copy's) as a tree, when they are a whole Atom feed.
    /// libxml2 that cannot be loaded is said as such, with the package to install; anything else is a
    /// response fixcast could not read.
    public static func feed(_ body: [UInt8]) throws(AlertError) -> XMLElement {
        let tree: XMLElement
        do {
            tree = try XMLDocumentReader.read(body)
        } catch {
            if case .libraryMissing(let library) = error.cause { throw .libraryMissing(source: .meteoalarm, library) }
            throw .invalidResponse(source: .meteoalarm, detail: error.reason)
        }
        do {
            _ = try MeteoAlarmAtomDecoder.entries(tree)
        } catch {
            throw .invalidResponse(source: .meteoalarm, detail: error.detail)
        }
        return tree
    }
}
