import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Suite(.serialized, .scratch) struct OpenMeteoWeatherTests {
    let copenhagen = Coordinate(lat: 55.68, lon: 12.57)!
    let now = UTCTime.parse("2026-07-26T21:00:00Z")!
    let recorded = TestPaths.fixture("api/open-meteo-forecast.json")

    @Test func fetchesAndDecodesTheRecordedResponseWithOneRequest() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let provider = OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient())
        let report = try await provider.fetch(at: copenhagen, now: now)
        let expected = try OpenMeteoDecoder.decode(
            [UInt8](Data(contentsOf: URL(fileURLWithPath: recorded))), coordinate: copenhagen, fetchedAt: now)
        #expect(report == expected)
        #expect(report.current.windSpeedMps == 2.5)
        let requests = server.requests()
        #expect(requests.count == 1)
        let query = requests.first?.query ?? ""
        #expect(query.contains("latitude=55.68&longitude=12.57"))
        #expect(query.contains("timezone=auto"))
        #expect(
            query.contains("current=temperature_2m,apparent_temperature,relative_humidity_2m,dew_point_2m,pressure_msl")
        )
        #expect(query.contains("wind_gusts_10m"))
        #expect(
            query.contains("daily=weather_code,temperature_2m_max,temperature_2m_min,sunrise,sunset,precipitation_sum"))
        #expect(query.contains("forecast_days=7"))
        #expect(requests.first?.headers["user-agent"] == FixcastInfo.userAgent)
    }

    @Test func baseURLHandling() {
        let http = CurlHTTPClient()
        #expect(
            OpenMeteoWeather(http: http).url(for: copenhagen).hasPrefix(
                "https://api.open-meteo.com/v1/forecast?latitude=55.68&longitude=12.57&"))
        #expect(
            OpenMeteoWeather(baseURL: "http://127.0.0.1:9/mirror/", http: http).url(for: copenhagen).hasPrefix(
                "http://127.0.0.1:9/mirror/v1/forecast?"))
        #expect(OpenMeteoWeather(baseURL: "  ", http: http).baseURL == OpenMeteoWeather.publicBaseURL)
        #expect(
            OpenMeteoWeather(http: http).url(for: Coordinate(lat: 0.00001, lon: -0.00005)!).contains(
                "latitude=0&longitude=-0.0001"))
    }

    @Test func anAPIErrorCarriesItsOwnReason() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.file(TestPaths.fixture("api/open-meteo-error-docs-example.txt"), status: 400)]
        ])
        defer { server.stop() }
        let error = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()).fetch(at: copenhagen, now: now)
        }
        guard case .status(.openMeteo, 400, let detail, _) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(detail?.contains("tempeture_2m") == true)
        #expect(error?.message.hasPrefix("weather: Open-Meteo answered HTTP 400: Cannot initialize") == true)
    }

    @Test(arguments: [500, 503]) func serverErrorsAreStatusErrors(status: Int) async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.body(#"{"error":true,"reason":"Internal"}"#, status: status)]
        ])
        defer { server.stop() }
        let error = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()).fetch(at: copenhagen, now: now)
        }
        #expect(error == .status(provider: .openMeteo, code: status, detail: "Internal", retryAfter: nil))
        #expect(error?.message.contains("will try again later") == true)
    }

    @Test func tooManyRequestsCarriesRetryAfter() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [
                .body(
                    #"{"error":true,"reason":"Daily API request limit exceeded."}"#, status: 429,
                    headers: ["Retry-After": "120"])
            ]
        ])
        defer { server.stop() }
        let error = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()).fetch(at: copenhagen, now: now)
        }
        #expect(
            error
                == .status(
                    provider: .openMeteo, code: 429, detail: "Daily API request limit exceeded.", retryAfter: "120"))
    }

    @Test func anHTMLErrorPageHasNoMadeUpReason() async throws {
        let html =
            "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"
        let server = try FixtureServer(routes: [
            "/v1/forecast": [.body(html, status: 502, headers: ["Content-Type": "text/html"])],
            "/ok/v1/forecast": [.body(html, status: 200, headers: ["Content-Type": "text/html"])],
        ])
        defer { server.stop() }
        let error = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()).fetch(at: copenhagen, now: now)
        }
        #expect(error == .status(provider: .openMeteo, code: 502, detail: nil, retryAfter: nil))
        let portal = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: server.baseURL + "/ok", http: CurlHTTPClient()).fetch(
                at: copenhagen, now: now)
        }
        #expect(portal == .invalidResponse(provider: .openMeteo, detail: "an HTML page instead of JSON"))
    }

    @Test(arguments: [#"{"latitude":55.7,"current":{"temperature_2m":"#, "garbage\u{0}\u{1}", #"{"latitude":1}"#])
    func invalidJSONIsAnInvalidResponse(body: String) async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.body(body)]])
        defer { server.stop() }
        let error = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: server.baseURL, http: CurlHTTPClient()).fetch(at: copenhagen, now: now)
        }
        guard case .invalidResponse(.openMeteo, let detail) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(!detail.isEmpty)
        #expect(error?.message.hasPrefix("weather: Open-Meteo sent a response fixcast could not read") == true)
    }

    @Test func transportFaultsBecomeOneSentence() async throws {
        let server = try FixtureServer(routes: [
            "/slow/v1/forecast": [FixtureResponse(file: recorded, delay: 3)],
            "/cut/v1/forecast": [FixtureResponse(file: recorded, truncate: true)],
            "/big/v1/forecast": [FixtureResponse(size: 2 * 1024 * 1024 + 10)],
        ])
        defer { server.stop() }
        for (prefix, fragment) in [
            ("/slow", "did not answer within 1 s"), ("/cut", "cut short"), ("/big", "larger than 2 MiB"),
        ] {
            let error = await weatherError { () throws(WeatherError) in
                try await OpenMeteoWeather(baseURL: server.baseURL + prefix, http: quickClient).fetch(
                    at: copenhagen, now: now)
            }
            guard case .transport(.openMeteo, _) = error else {
                Issue.record("\(prefix): \(String(describing: error))")
                continue
            }
            #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
            #expect(error?.message.hasPrefix("weather: the Open-Meteo request failed:") == true)
        }
        let refused = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: "http://127.0.0.1:\(freeLoopbackPort())", http: quickClient).fetch(
                at: copenhagen, now: now)
        }
        #expect(refused?.message.contains("refused the connection") == true)
    }

    @Test func plainHTTPToTheInternetIsRefused() async {
        let error = await weatherError { () throws(WeatherError) in
            try await OpenMeteoWeather(baseURL: "http://api.open-meteo.com", http: CurlHTTPClient()).fetch(
                at: copenhagen, now: now)
        }
        guard case .transport(.openMeteo, .insecureURL) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }
}
