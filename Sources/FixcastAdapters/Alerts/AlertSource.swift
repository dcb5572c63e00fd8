import FixcastCore
import FixcastText
import FoundationEssentials

/// The HTTP part every source shares: GET with the caching validators, status to error, body to alerts.
enum AlertHTTP {
    /// What came back: the body (nil for 304 Not Modified) and the caching headers, cleaned.
    struct Exchange {
        var body: [UInt8]?
        var expires: Date?
        var lastModified: String?
        var etag: String?
    }

    static func exchange(
        _ url: String, accept: String, ifModifiedSince: String?, ifNoneMatch: String? = nil, source: AlertSourceID,
        http: any HTTPFetching
    ) async throws(AlertError) -> Exchange {
        var headers = ["Accept": accept]
        if let ifModifiedSince { headers["If-Modified-Since"] = ifModifiedSince }
        if let ifNoneMatch { headers["If-None-Match"] = ifNoneMatch }
        let response: HTTPResponse
        do {
            response = try await http.get(HTTPRequest(url: url, headers: headers))
        } catch {
            throw .transport(source: source, error)
        }
        let expires = response.header("expires").flatMap(HTTPDate.parse)
        let lastModified = response.header("last-modified").flatMap { AlertText.line($0) }
        // An entity tag is sent back verbatim: refused when it is long or not one line of printable ASCII.
        let etag = response.header("etag").flatMap { tag in
            tag.utf8.count <= 256 && tag.utf8.allSatisfy { (0x21...0x7E).contains($0) } ? tag : nil
        }
        if response.status == 304 {
            return Exchange(body: nil, expires: expires, lastModified: lastModified, etag: etag)
        }
        guard (200...299).contains(response.status) else {
            throw .status(
                source: source, code: response.status, detail: problemDetail(response.body),
                retryAfter: response.retryAfter)
        }
        return Exchange(body: response.body, expires: expires, lastModified: lastModified, etag: etag)
    }

    static func get(
        _ url: String, accept: String, ifModifiedSince: String?, source: AlertSourceID, http: any HTTPFetching,
        decode: ([UInt8]) throws(AlertDecodeFailure) -> [Alert]
    ) async throws(AlertError) -> AlertAnswer {
        let answer = try await exchange(
            url, accept: accept, ifModifiedSince: ifModifiedSince, source: source, http: http)
        guard let body = answer.body else {
            return AlertAnswer(
                alerts: nil, expires: answer.expires, lastModified: answer.lastModified, etag: answer.etag)
        }
        do {
            return AlertAnswer(
                alerts: try decode(body), expires: answer.expires, lastModified: answer.lastModified,
                etag: answer.etag)
        } catch {
            throw .invalidResponse(source: source, detail: error.detail)
        }
    }

    /// The API's own reason from a problem+json body (`detail`, else `title`), cleaned and short.
    static func problemDetail(_ body: [UInt8]) -> String? {
        guard body.count < 16_384, let json = try? JSONValue.parse(body) else { return nil }
        let text = json["detail"]?.stringValue ?? json["title"]?.stringValue
        return AlertText.line(text).map { String($0.prefix(200)) }
    }
}

/// US National Weather Service active alerts for a point (public domain data).
/// - SeeAlso: https://www.weather.gov/documentation/services-web-api
public struct NWSAlertSource: AlertSource {
    public static let publicBaseURL = "https://api.weather.gov"
    public let id = AlertSourceID.nws
    public let baseURL: String
    private let http: any HTTPFetching

    public init(baseURL: String = "", http: any HTTPFetching) {
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: Self.publicBaseURL)
        self.http = http
    }

    public func url(for c: Coordinate) -> String {
        baseURL + "/alerts/active?point=" + QueryEncoding.decimal(c.lat, places: 4) + ","
            + QueryEncoding.decimal(c.lon, places: 4)
    }

    public func fetch(at coordinate: Coordinate, ifModifiedSince: String?) async throws(AlertError) -> AlertAnswer {
        try await AlertHTTP.get(
            url(for: coordinate), accept: "application/geo+json", ifModifiedSince: ifModifiedSince, source: id,
            http: http
        ) {
            body throws(AlertDecodeFailure) in try NWSAlertDecoder.decode(body, at: coordinate)
        }
    }
}

/// MET Norway MetAlerts 2.0 for a point (CC BY 4.0), under MET's terms: 4 decimals, an identifying
/// User-Agent (the HTTP client sends it), `If-Modified-Since`, and at most every 10 minutes (the policy).
/// - SeeAlso: https://api.met.no/doc/TermsOfService, https://api.met.no/weatherapi/metalerts/2.0/documentation
public struct MetAlertsSource: AlertSource {
    public static let publicBaseURL = "https://api.met.no"
    public static let path = "/weatherapi/metalerts/2.0/current.json"
    public let id = AlertSourceID.metalerts
    public let baseURL: String
    private let http: any HTTPFetching

    public init(baseURL: String = "", http: any HTTPFetching) {
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: Self.publicBaseURL)
        self.http = http
    }

    public func url(for c: Coordinate) -> String {
        baseURL + Self.path + "?lat=" + QueryEncoding.decimal(c.lat, places: 4) + "&lon="
            + QueryEncoding.decimal(c.lon, places: 4)
    }

    public func fetch(at coordinate: Coordinate, ifModifiedSince: String?) async throws(AlertError) -> AlertAnswer {
        try await AlertHTTP.get(
            url(for: coordinate), accept: "application/json", ifModifiedSince: ifModifiedSince, source: id, http: http
        ) {
            body throws(AlertDecodeFailure) in try MetAlertsDecoder.decode(body, at: coordinate)
        }
    }
}

extension OfflinePlaces: CountryLocating {
    /// The country of the nearest place on this side of the borders (`countryRow`).
    public func countryCode(at coordinate: Coordinate) throws(PlaceError) -> String? {
        let table = try table()
        guard let hit = countryRow(at: coordinate, in: table) else { return nil }
        let code = table.country(hit.row).code
        return code.isEmpty ? nil : code
    }

    public func spot(at coordinate: Coordinate) throws(PlaceError) -> AlertRegionsAhead.Spot {
        let table = try table()
        guard let hit = countryRow(at: coordinate, in: table) else {
            return AlertRegionsAhead.Spot(coordinate: coordinate, country: nil, region: nil)
        }
        let code = table.country(hit.row).code
        return AlertRegionsAhead.Spot(
            coordinate: coordinate, country: code.isEmpty ? nil : code, region: table.region(hit.row))
    }
}
