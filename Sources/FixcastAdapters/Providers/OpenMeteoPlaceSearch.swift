import FixcastCore
import FoundationEssentials

/// Forward geocoding ("places named …") through Open-Meteo's geocoding API, the name percent-encoded.
public struct OpenMeteoPlaceSearch: PlaceSearching {
    public static let publicBaseURL = "https://geocoding-api.open-meteo.com"
    /// The API accepts 1…100 results per request.
    public static let maximumCount = 100
    static let serviceName = PlaceServiceName.openMeteoGeocoding

    let http: any HTTPFetching
    let baseURL: String
    let language: String

    /// `baseURL`: `places.search_url`, empty for the public endpoint. `language` is `places.language`,
    /// a BCP 47 tag as Nominatim takes it ("pt-BR"); Open-Meteo's geocoding takes a lower-cased
    /// two-letter code, so it is asked in the tag's language alone ("pt").
    public init(http: any HTTPFetching, baseURL: String, language: String) {
        self.http = http
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: OpenMeteoPlaceSearch.publicBaseURL)
        self.language = language.split(separator: "-").first.map { $0.lowercased() } ?? ""
    }

    public func request(for query: String, limit: Int) -> HTTPRequest {
        var items = [("name", query), ("count", String(min(max(limit, 1), OpenMeteoPlaceSearch.maximumCount)))]
        if !language.isEmpty { items.append(("language", language)) }
        items.append(("format", "json"))
        return HTTPRequest(
            url: baseURL + "/v1/search?" + QueryEncoding.query(items), headers: ["Accept": "application/json"])
    }

    public func search(_ query: String, limit: Int) async throws(PlaceError) -> [PlaceMatch] {
        let text = query.trimmingWhitespace()
        guard !text.isEmpty, limit > 0 else { return [] }
        let response: HTTPResponse
        do {
            response = try await http.get(request(for: text, limit: limit))
        } catch {
            throw PlaceError.transport(service: OpenMeteoPlaceSearch.serviceName, error)
        }
        guard response.status == 200 else {
            throw PlaceError.status(
                service: OpenMeteoPlaceSearch.serviceName, code: response.status,
                detail: OpenMeteoGeocodingDecoder.errorReason(response.body))
        }
        do {
            return Array(try OpenMeteoGeocodingDecoder.decode(response.body).prefix(limit))
        } catch {
            throw PlaceError.invalidResponse(service: OpenMeteoPlaceSearch.serviceName, detail: error.detail)
        }
    }
}
