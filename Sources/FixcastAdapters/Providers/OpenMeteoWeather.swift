import FixcastCore
import FoundationEssentials

/// Open-Meteo `/v1/forecast` (the default provider: no key, global). Asks for today's current values
/// and 7 days with `timezone=auto`, so that days are the position's own calendar days.
/// - SeeAlso: https://open-meteo.com/en/docs
public struct OpenMeteoWeather: WeatherFetching {
    public static let publicBaseURL = "https://api.open-meteo.com"
    public static let path = "/v1/forecast"
    public let provider = WeatherProviderID.openMeteo
    public let baseURL: String
    private let http: any HTTPFetching

    public init(baseURL: String = "", http: any HTTPFetching) {
        self.baseURL = ServiceBaseURL.resolve(baseURL, publicURL: Self.publicBaseURL)
        self.http = http
    }

    public func url(for coordinate: Coordinate) -> String {
        baseURL + Self.path
            + "?latitude=\(QueryEncoding.decimal(coordinate.lat, places: 4))&longitude=\(QueryEncoding.decimal(coordinate.lon, places: 4))"
            + "&current=" + OpenMeteoDecoder.currentVariables.joined(separator: ",")
            + "&daily=" + OpenMeteoDecoder.dailyVariables.joined(separator: ",")
            + "&timezone=auto&forecast_days=7"
    }

    public func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherReport {
        let response = try await WeatherHTTP.get(
            HTTPRequest(url: url(for: coordinate), headers: ["Accept": "application/json"]), http: http,
            provider: provider)
        try WeatherHTTP.requireSuccess(response, provider: provider)
        return try WeatherHTTP.decoded(response, provider: provider) { () throws(WeatherDecodeError) in
            try OpenMeteoDecoder.decode(response.body, coordinate: coordinate, fetchedAt: now)
        }
    }
}
