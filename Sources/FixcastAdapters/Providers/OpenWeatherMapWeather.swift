import FixcastCore
import FoundationEssentials

/// OpenWeatherMap: `/data/2.5/weather` for now and `/data/2.5/forecast` (3-hourly) for the days.
///
/// The key travels in the query (`appid`), as the API requires, but never in a message: every error
/// that quotes a URL or an API text has it replaced by `REDACTED`, and `description` hides it.
/// - SeeAlso: https://openweathermap.org/current, https://openweathermap.org/forecast5
public struct OpenWeatherMapWeather: WeatherFetching, CustomStringConvertible {
    public static let publicBaseURL = "https://api.openweathermap.org"
    public static let currentPath = "/data/2.5/weather"
    public static let forecastPath = "/data/2.5/forecast"
    public let provider = WeatherProviderID.openWeatherMap
    public let baseURL: String
    private let apiKey: String
    private let http: any HTTPFetching

    public init(baseURL: String = "", apiKey: String, http: any HTTPFetching) {
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: Self.publicBaseURL)
        self.apiKey = apiKey
        self.http = http
    }

    public var description: String { "OpenWeatherMapWeather(baseURL: \(baseURL), apiKey: REDACTED)" }

    func url(_ path: String, _ coordinate: Coordinate) -> String {
        baseURL + path
            + "?lat=\(QueryEncoding.decimal(coordinate.lat, places: 4))&lon=\(QueryEncoding.decimal(coordinate.lon, places: 4))"
            + "&appid=\(QueryEncoding.encode(apiKey))"
    }

    public func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherReport {
        let current = try await get(url(Self.currentPath, coordinate))
        let forecast = try await get(url(Self.forecastPath, coordinate))
        let decodeResponse = forecast
        return try WeatherHTTP.decoded(current, provider: provider) { () throws(WeatherDecodeError) in
            if WeatherHTTP.looksLikeHTML(decodeResponse) {
                throw WeatherDecodeError("an HTML page instead of the forecast JSON")
            }
            return try OpenWeatherMapDecoder.decode(
                current: current.body, forecast: decodeResponse.body, coordinate: coordinate, fetchedAt: now)
        }
    }

    private func get(_ url: String) async throws(WeatherError) -> HTTPResponse {
        let secrets = [apiKey]
        let response = try await WeatherHTTP.get(
            HTTPRequest(url: url, headers: ["Accept": "application/json"]), http: http, provider: provider,
            secrets: secrets)
        try WeatherHTTP.requireSuccess(response, provider: provider, secrets: secrets)
        return response
    }
}
