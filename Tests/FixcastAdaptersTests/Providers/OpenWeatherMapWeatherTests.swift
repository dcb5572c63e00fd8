import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Suite(.serialized, .scratch) struct OpenWeatherMapWeatherTests {
    let zocca = Coordinate(lat: 44.34, lon: 10.99)!
    let now = Date(timeIntervalSince1970: 1_661_870_592)
    let key = "s3cr3t+KEY/with=chars"

    @Test func fetchesCurrentAndForecastWithTheKeyInTheQuery() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": [.file(TestPaths.fixture("api/owm-current.json"))],
            "/data/2.5/forecast": [.file(TestPaths.fixture("api/owm-forecast.json"))],
        ])
        defer { server.stop() }
        let report = try await OpenWeatherMapWeather(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient())
            .fetch(at: zocca, now: now)
        #expect(report.provider == .openWeatherMap)
        #expect(abs(report.current.temperatureC! - (298.48 - 273.15)) < 1e-9)
        // The recorded example's 4 September holds one midday step: not a whole day, left out.
        #expect(report.daily.count == 1)
        let requests = server.requests()
        // Made at once, so in either order.
        #expect(requests.map(\.path).sorted() == ["/data/2.5/forecast", "/data/2.5/weather"])
        #expect(requests.allSatisfy { $0.query == "lat=44.34&lon=10.99&appid=s3cr3t%2BKEY%2Fwith%3Dchars" })
    }

    @Test func theKeyNeverAppearsInAnError() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": [.file(TestPaths.fixture("api/owm-error-401.json"), status: 401)],
            "/echo/data/2.5/weather": [.body(#"{"cod":400,"message":"bad appid s3cr3t+KEY/with=chars"}"#, status: 400)],
        ])
        defer { server.stop() }
        let unauthorized = await weatherError { () throws(WeatherError) in
            try await OpenWeatherMapWeather(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient()).fetch(
                at: zocca, now: now)
        }
        #expect(unauthorized?.message.contains("Invalid API key") == true)
        #expect(unauthorized?.message.contains("check weather.api_key") == true)
        let echoed = await weatherError { () throws(WeatherError) in
            try await OpenWeatherMapWeather(baseURL: server.baseURL + "/echo", apiKey: key, http: CurlHTTPClient())
                .fetch(at: zocca, now: now)
        }
        let insecure = await weatherError { () throws(WeatherError) in
            try await OpenWeatherMapWeather(
                baseURL: "http://api.openweathermap.org", apiKey: key, http: CurlHTTPClient()
            ).fetch(at: zocca, now: now)
        }
        guard case .transport(_, .insecureURL) = insecure else {
            Issue.record("\(String(describing: insecure))")
            return
        }
        for error in [unauthorized, echoed, insecure] {
            let text = (error?.message ?? "") + String(describing: error)
            #expect(!text.contains(key))
            #expect(!text.contains(QueryEncoding.encode(key)))
            #expect(!text.contains("s3cr3t"))
        }
        #expect(echoed?.message.contains("REDACTED") == true)
        #expect(!String(describing: OpenWeatherMapWeather(apiKey: key, http: CurlHTTPClient())).contains("s3cr3t"))
    }

    @Test func aBrokenForecastFailsTheFetch() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": [.file(TestPaths.fixture("api/owm-current.json"))],
            "/data/2.5/forecast": [.body("<html>oops</html>", headers: ["Content-Type": "text/html"])],
        ])
        defer { server.stop() }
        let error = await weatherError { () throws(WeatherError) in
            try await OpenWeatherMapWeather(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient()).fetch(
                at: zocca, now: now)
        }
        guard case .invalidResponse(.openWeatherMap, let detail) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(detail.contains("HTML"))
    }

    /// A failed `/forecast` costs the days only: the current weather fetched beside it is the report,
    /// and the report says, once, that the forecast was not fetched and why.
    @Test func aFailedForecastCostsOnlyTheDays() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": [.file(TestPaths.fixture("api/owm-current.json"))],
            "/data/2.5/forecast": [.body(#"{"cod":503,"message":"busy"}"#, status: 503)],
        ])
        defer { server.stop() }
        let report = try await OpenWeatherMapWeather(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient())
            .fetch(at: zocca, now: now)
        #expect(report.current.temperatureC == 25.33)
        #expect(report.daily.isEmpty)
        #expect(report.valueProblems.count == 1)
        #expect(report.valueProblems.first?.field == "daily")
        #expect(
            report.valueProblems.first?.fetchError
                == .status(provider: .openWeatherMap, code: 503, detail: "busy", retryAfter: nil))
        let message = try #require(report.valueProblems.first?.message)
        #expect(message.hasPrefix("weather: daily could not be fetched"))
        #expect(message.contains("HTTP 503"))
        #expect(!message.contains("s3cr3t"))
        #expect(server.requestCount() == 2)
    }

    /// The two requests are made at once: two answers each 1 s late take about 1 s, not 2.
    /// Both requests are in flight at once: each answer is held 3 s, and the second request reaches
    /// the server while the first is still held (one after the other, it would come 3 s later).
    @Test func bothRequestsAreMadeAtOnce() async throws {
        var current = FixtureResponse.file(TestPaths.fixture("api/owm-current.json"))
        current.delay = 3
        var forecast = FixtureResponse.file(TestPaths.fixture("api/owm-forecast.json"))
        forecast.delay = 3
        let server = try FixtureServer(routes: ["/data/2.5/weather": [current], "/data/2.5/forecast": [forecast]])
        defer { server.stop() }
        let report = try await OpenWeatherMapWeather(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient())
            .fetch(at: zocca, now: now)
        #expect(report.daily.count == 1)
        // Logged as each request arrives, before its delay (fixture_server.py).
        let a = try #require(server.requestTimes(path: "/data/2.5/weather").first)
        let b = try #require(server.requestTimes(path: "/data/2.5/forecast").first)
        #expect(abs(a - b) < 2.5, "arrived \(abs(a - b)) s apart")
    }

    /// A failed `/weather` is the fetch's failure, whatever `/forecast` gave.
    @Test func aFailedCurrentWeatherFailsTheFetch() async throws {
        let server = try FixtureServer(routes: [
            "/data/2.5/weather": [.body(#"{"cod":500,"message":"down"}"#, status: 500)],
            "/data/2.5/forecast": [.file(TestPaths.fixture("api/owm-forecast.json"))],
        ])
        defer { server.stop() }
        let error = await weatherError { () throws(WeatherError) in
            try await OpenWeatherMapWeather(baseURL: server.baseURL, apiKey: key, http: CurlHTTPClient()).fetch(
                at: zocca, now: now)
        }
        #expect(error == .status(provider: .openWeatherMap, code: 500, detail: "down", retryAfter: nil))
    }

    @Test func makeNeedsAKeyAndPicksTheProvider() throws {
        var settings = Settings.Weather()
        let http = CurlHTTPClient()
        settings.provider = .openWeatherMap
        #expect(throws: WeatherError.missingAPIKey(provider: .openWeatherMap)) {
            try WeatherProviders.make(settings: settings, http: http)
        }
        settings.apiKey = "k"
        #expect(try WeatherProviders.make(settings: settings, http: http).provider == .openWeatherMap)
        settings.provider = .openMeteo
        #expect(try WeatherProviders.make(settings: settings, http: http).provider == .openMeteo)
        settings.provider = .metNorway
        #expect(try WeatherProviders.make(settings: settings, http: http).provider == .metNorway)
    }
}
