import FixcastCore
import FixcastText
import FoundationEssentials

/// Asks for one region ahead whole (CONTRACT.md "Alerts ahead"): NWS by state
/// (`/alerts/active?area=XX`), MetAlerts for the whole country (`current.json` without a point), ECCC
/// for a box around the samples; MeteoAlarm's country feeds are `MeteoAlarmSource`'s. The same
/// validators and identifying User-Agent as the point queries; a 200 whose body the region's decoder
/// cannot read is an invalid response, never kept. Network only: when to ask is `AlertService`'s.
public struct AlertRegionSource: Sendable {
    /// The most ECCC features asked for in one page: a box of a few degrees crosses a few dozen
    /// warning areas, many more in a storm (then the next pages are asked too: `ECCCPages`). A feature
    /// carries both languages' texts, 13 KB in the recorded answer: 100 of them stay well under the HTTP
    /// client's 2 MiB cap on a body, where a page of 500 (6.6 MB) was refused whole.
    public static let ecccPageLimit = 100

    public let nwsBaseURL: String
    public let metAlertsBaseURL: String
    public let ecccBaseURL: String
    /// `en` or `fr`: the language of ECCC's texts.
    public let language: String
    private let http: any HTTPFetching

    public init(
        nwsBaseURL: String = "", metAlertsBaseURL: String = "", ecccBaseURL: String = "", language: String = "en",
        http: any HTTPFetching
    ) {
        self.nwsBaseURL = ServiceBaseURL.resolve(nwsBaseURL, publicURL: NWSAlertSource.publicBaseURL)
        self.metAlertsBaseURL = ServiceBaseURL.resolve(metAlertsBaseURL, publicURL: MetAlertsSource.publicBaseURL)
        self.ecccBaseURL = ServiceBaseURL.resolve(ecccBaseURL, publicURL: ECCCAlertSource.publicBaseURL)
        self.language = language == "fr" ? "fr" : "en"
        self.http = http
    }

    /// The region's URL; nil for a MeteoAlarm feed (not this source's).
    public func url(_ region: AlertRegion) -> String? {
        switch region {
        case .nwsState(let code): return nwsBaseURL + "/alerts/active?area=" + code
        case .metAlertsCountry: return metAlertsBaseURL + MetAlertsSource.path
        case .ecccBox(let w, let s, let e, let n):
            return ecccBaseURL + ECCCAlertSource.path + "?f=json&lang=" + language + "&bbox=\(w),\(s),\(e),\(n)"
                + "&limit=\(Self.ecccPageLimit)"
        case .meteoAlarmFeed: return nil
        }
    }

    /// GETs the region; the body (nil for 304) is kept whole by the caller.
    public func fetch(_ region: AlertRegion, ifModifiedSince: String?, ifNoneMatch: String?) async throws(AlertError)
        -> MeteoAlarmFeedAnswer
    {
        guard let url = url(region) else {
            throw .invalidResponse(source: region.source, detail: "not a region this source asks")
        }
        let accept = region.source == .metalerts ? "application/json" : "application/geo+json, application/json;q=0.9"
        let answer = try await AlertHTTP.exchange(
            url, accept: accept, ifModifiedSince: ifModifiedSince, ifNoneMatch: ifNoneMatch, source: region.source,
            http: http)
        guard var body = answer.body else {
            return MeteoAlarmFeedAnswer(
                body: nil, expires: answer.expires, lastModified: answer.lastModified, etag: answer.etag)
        }
        var validators = (lastModified: answer.lastModified, etag: answer.etag)
        if case .ecccBox = region {
            let pages = try await ecccPages(first: body, url: url)
            if pages.count > 1 {
                body = ECCCPages.joined(pages)
                // The first page unchanged says nothing of the others: a joined answer is asked whole.
                validators = (nil, nil)
            }
        }
        do {
            _ = try AlertRegionsAhead.alerts(of: region, body: body, language: language)
        } catch {
            throw .invalidResponse(source: region.source, detail: error.detail)
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw .invalidResponse(source: region.source, detail: "the body is not UTF-8")
        }
        return MeteoAlarmFeedAnswer(
            body: text, expires: answer.expires, lastModified: validators.lastModified, etag: validators.etag)
    }

    /// The first page of an ECCC answer and the pages after it that `ECCCPages` asks for (a storm's
    /// box can cross more warning areas than one page holds), in order, each read once.
    func ecccPages(first: [UInt8], url: String) async throws(AlertError) -> [ECCCPages.Page] {
        var body = first
        var pages: [ECCCPages.Page] = []
        while true {
            do {
                pages.append(try ECCCPages.page(body))
            } catch {
                throw .invalidResponse(source: .eccc, detail: error.detail)
            }
            guard let offset = ECCCPages.nextOffset(after: pages) else { return pages }
            let next = try await AlertHTTP.exchange(
                url + "&offset=\(offset)", accept: "application/geo+json, application/json;q=0.9",
                ifModifiedSince: nil, source: .eccc, http: http)
            guard let nextBody = next.body else {
                throw .invalidResponse(source: .eccc, detail: "a later page answered 304 to an unconditional request")
            }
            body = nextBody
        }
    }

    /// GETs one NWS zone (`path` as `AlertFootprint(nwsZones:)` gives it, under `alerts.nws_base_url`)
    /// and reads its geometry; nil when the zone has none fixcast can use.
    public func zone(_ path: String) async throws(AlertError) -> AlertFootprint? {
        let answer = try await AlertHTTP.exchange(
            nwsBaseURL + path, accept: "application/geo+json", ifModifiedSince: nil, source: .nws, http: http)
        guard let body = answer.body else { return nil }
        do {
            return AlertFootprint(geoJSON: try JSONValue.parse(body)["geometry"])
        } catch {
            throw .invalidResponse(source: .nws, detail: error.summary)
        }
    }
}
