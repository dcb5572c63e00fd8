import FoundationEssentials
import FixcastCore
import Synchronization

/// MET Norway Locationforecast 2.0 `compact`, under MET's terms of service: coordinates rounded to
/// 4 decimals, a User-Agent naming the client (the HTTP client sends it), no request before the
/// previous answer's `Expires`, and `If-Modified-Since` with the stored `Last-Modified` (a 304 reuses
/// the stored report).
/// - SeeAlso: https://api.met.no/doc/TermsOfService, https://api.met.no/doc/locationforecast/HowTO
public final class MetNorwayWeather: WeatherFetching {
    public static let publicBaseURL = "https://api.met.no"
    public static let path = "/weatherapi/locationforecast/2.0/compact"
    public let provider = WeatherProviderID.metNorway
    public let baseURL: String
    private let http: any HTTPFetching

    /// What MET said about one rounded position: the report, until when it is current, and the
    /// validator to revalidate it with.
    struct Entry: Sendable {
        var report: WeatherReport
        var expires: Date?
        var lastModified: String?
    }
    private let entries = Mutex<[String: Entry]>([:])

    public init(baseURL: String = "", http: any HTTPFetching) {
        self.baseURL = WeatherHTTP.base(baseURL, publicURL: Self.publicBaseURL)
        self.http = http
    }

    static func key(_ coordinate: Coordinate) -> String {
        "lat=\(WeatherHTTP.decimal(coordinate.lat, places: 4))&lon=\(WeatherHTTP.decimal(coordinate.lon, places: 4))"
    }

    public func url(for coordinate: Coordinate) -> String { baseURL + Self.path + "?" + Self.key(coordinate) }

    public func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherReport {
        let key = Self.key(coordinate)
        let stored = entries.withLock { $0[key] }
        if let stored, let expires = stored.expires, now < expires {
            // MET's data for this point has not expired: asking again is against its terms.
            return stored.report
        }
        var headers = ["Accept": "application/json"]
        if let lastModified = stored?.lastModified { headers["If-Modified-Since"] = lastModified }
        let response = try await WeatherHTTP.get(HTTPRequest(url: url(for: coordinate), headers: headers), http: http, provider: provider)
        let expires = response.header("expires").flatMap(HTTPDate.parse)
        if response.status == 304 {
            guard var entry = stored else {
                throw .invalidResponse(provider: provider, detail: "304 Not Modified for a forecast fixcast does not hold")
            }
            entry.report.fetchedAt = now
            entry.expires = expires ?? entry.expires
            if let lastModified = response.header("last-modified") { entry.lastModified = lastModified }
            let updated = entry
            entries.withLock { $0[key] = updated }
            return updated.report
        }
        try WeatherHTTP.requireSuccess(response, provider: provider)
        let report = try WeatherHTTP.decoded(response, provider: provider) { () throws(WeatherDecodeError) in
            try MetNorwayDecoder.decode(response.body, coordinate: coordinate, fetchedAt: now)
        }
        let entry = Entry(report: report, expires: expires, lastModified: response.header("last-modified"))
        entries.withLock { $0[key] = entry }
        return report
    }
}
