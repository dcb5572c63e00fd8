import FixcastCore
import FoundationEssentials

/// Names a position through Nominatim reverse geocoding (OpenStreetMap), following the OSMF usage policy:
/// the HTTP client's identifying User-Agent, `accept-language` from `places.language`, and at most one
/// request per second through the process-wide `NominatimLimiter`, shared with other processes through
/// `sharedLimit` (the store) when given. Caching is `PlaceService`'s job.
public struct NominatimPlaces: ReverseGeocoding {
    public static let publicBaseURL = "https://nominatim.openstreetmap.org"
    /// Zoom 14 (neighbourhood) makes Nominatim include villages and hamlets in `address`; at 10-12 a point
    /// in a hamlet is answered with the nearest town.
    public static let zoom = 14
    public static let serviceName = PlaceServiceName.nominatim

    let http: any HTTPFetching
    let baseURL: String
    let language: String
    let limiter: NominatimLimiter
    let sharedLimit: (any AtomicStateStore)?

    /// `baseURL` empty: the public endpoint. `language`: `places.language` (e.g. "en"). `sharedLimit`:
    /// the store whose `state` table spaces requests across processes (nil: this process only).
    public init(
        http: any HTTPFetching, baseURL: String, language: String, limiter: NominatimLimiter = .shared,
        sharedLimit: (any AtomicStateStore)? = nil
    ) {
        self.http = http
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: NominatimPlaces.publicBaseURL)
        self.language = language
        self.limiter = limiter
        self.sharedLimit = sharedLimit
    }

    /// The request for `coordinate` (exposed so a test can see the exact URL).
    public func request(for coordinate: Coordinate) -> HTTPRequest {
        var items = [
            ("format", "jsonv2"), ("lat", QueryEncoding.degrees(coordinate.lat)),
            ("lon", QueryEncoding.degrees(coordinate.lon)), ("zoom", String(NominatimPlaces.zoom)),
            ("addressdetails", "1"),
        ]
        if !language.isEmpty { items.append(("accept-language", language)) }
        var headers = ["Accept": "application/json"]
        if !language.isEmpty { headers["Accept-Language"] = language }
        return HTTPRequest(url: baseURL + "/reverse?" + QueryEncoding.query(items), headers: headers)
    }

    public func place(at coordinate: Coordinate) async throws(PlaceError) -> Place? {
        let request = request(for: coordinate)
        let http = self.http
        let outcome: Result<HTTPResponse, HTTPError> = await limiter.run(sharedThrough: sharedLimit) {
            do throws(HTTPError) {
                return .success(try await http.get(request))
            } catch {
                return .failure(error)
            }
        }
        let response: HTTPResponse
        switch outcome {
        case .success(let r): response = r
        case .failure(let error): throw PlaceError.transport(service: NominatimPlaces.serviceName, error)
        }
        guard response.status == 200 else {
            throw PlaceError.status(
                service: NominatimPlaces.serviceName, code: response.status,
                detail: NominatimReverseDecoder.errorMessage(response.body), retryAfter: response.retryAfter)
        }
        do {
            return try NominatimReverseDecoder.decode(response.body)
        } catch {
            throw PlaceError.invalidResponse(service: NominatimPlaces.serviceName, detail: error.detail)
        }
    }
}
