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

    /// Both requests at once (each transfer blocks a thread of its own, `CurlHTTPClient`, and the
    /// child tasks prefer the caller's executor): the answer takes the slower one's time, not the sum.
    /// The current weather is the report; when only `/forecast` fails, the report comes without days
    /// and says why (`WeatherValueProblem.Cause.notFetched`, field `daily`), and the weather service
    /// still backs off on its 429 or 5xx. A forecast that came but is not JSON fails the report, as
    /// an HTML page there means a captive portal or a proxy answering for both.
    public func fetch(at coordinate: Coordinate, now: Date) async throws(WeatherError) -> WeatherReport {
        async let currentAnswer = answer(url(Self.currentPath, coordinate))
        async let forecastAnswer = answer(url(Self.forecastPath, coordinate))
        let current = try await currentAnswer.get()
        let forecast = await forecastAnswer
        var report = try WeatherHTTP.decoded(current, provider: provider) { () throws(WeatherDecodeError) in
            let body: [UInt8]?
            switch forecast {
            case .success(let response):
                if WeatherHTTP.looksLikeHTML(response) {
                    throw WeatherDecodeError("an HTML page instead of the forecast JSON")
                }
                body = response.body
            case .failure:
                body = nil
            }
            return try OpenWeatherMapDecoder.decode(
                current: current.body, forecast: body, coordinate: coordinate, fetchedAt: now)
        }
        if case .failure(let error) = forecast {
            report.valueProblems.append(WeatherValueProblem(field: "daily", cause: .notFetched(error)))
        }
        return report
    }

    /// One GET and its status, as a value, so that both requests can be awaited whatever each gives.
    private func answer(_ url: String) async -> Result<HTTPResponse, WeatherError> {
        let secrets = [apiKey]
        do throws(WeatherError) {
            let response = try await WeatherHTTP.get(
                HTTPRequest(url: url, headers: ["Accept": "application/json"]), http: http, provider: provider,
                secrets: secrets)
            try WeatherHTTP.requireSuccess(response, provider: provider, secrets: secrets)
            return .success(response)
        } catch {
            return .failure(error)
        }
    }
}
