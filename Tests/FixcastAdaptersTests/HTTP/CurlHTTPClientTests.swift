import CCurl
import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The libcurl client against a real HTTP server on 127.0.0.1 (Tests/Support/fixture_server.py).
@Suite(.serialized, .scratch) struct CurlHTTPClientTests {
    let recorded = TestPaths.fixture("api/open-meteo-forecast.json")

    /// A plain-http request (loopback only) never goes through a proxy named by the environment:
    /// libcurl took http_proxy or ALL_PROXY even for 127.0.0.1, and the position went in clear to the
    /// proxy. libcurl reads the variables per process, so the binary runs with them set; a second
    /// loopback server stands in for the proxy and must get nothing.
    @Test(arguments: ["http_proxy", "ALL_PROXY", "all_proxy"])
    func aLoopbackRequestBypassesTheEnvironmentsProxy(variable: String) throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.file(recorded)]])
        defer { server.stop() }
        let proxy = try FixtureServer(routes: ["/": [.body("proxied", status: 502)]])
        defer { proxy.stop() }
        let home = TestPaths.temporaryDirectory("no-proxy")
        let result = try CLIRunner.run(
            ["forecast", "--at", "55.68,12.57", "--json", "--db", home.appendingPathComponent("f.sqlite").path],
            env: [
                "FIXCAST_WEATHER_BASE_URL": server.baseURL, "FIXCAST_PLACES_PROVIDER": "offline",
                variable: proxy.baseURL,
            ],
            home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(proxy.requestCount() == 0)
        #expect(server.requestCount(path: "/v1/forecast") == 1)
    }

    @Test func servesARecordedResponseWithHeadersAndUserAgent() async throws {
        let server = try FixtureServer(routes: [
            "/v1/forecast": [
                .file(
                    recorded,
                    headers: [
                        "Expires": "Sun, 04 Feb 2024 02:00:00 GMT", "Last-Modified": "Sun, 04 Feb 2024 01:35:05 GMT",
                        "X-Mixed-Case": "Yes",
                    ])
            ]
        ])
        defer { server.stop() }
        let response = try await CurlHTTPClient().get(
            HTTPRequest(
                url: server.baseURL + "/v1/forecast?latitude=1&longitude=2", headers: ["Accept": "application/json"]))
        #expect(response.status == 200)
        #expect(response.body == [UInt8](try Data(contentsOf: URL(fileURLWithPath: recorded))))
        #expect(response.header("Expires") == "Sun, 04 Feb 2024 02:00:00 GMT")
        #expect(response.headers["last-modified"] == "Sun, 04 Feb 2024 01:35:05 GMT")
        #expect(response.headers["x-mixed-case"] == "Yes")
        #expect(response.effectiveURL.hasSuffix("/v1/forecast?latitude=1&longitude=2"))
        let requests = server.requests()
        #expect(requests.count == 1)
        #expect(requests.first?.query == "latitude=1&longitude=2")
        #expect(requests.first?.headers["user-agent"] == FixcastInfo.userAgent)
        #expect(requests.first?.headers["accept"] == "application/json")
        #expect(requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    /// A header value is sent as one line: one holding CR, LF or NUL (a validator from a damaged store)
    /// is left out rather than writing request lines of its own.
    @Test func aHeaderWithAControlCharacterIsLeftOut() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": [.body("{}")]])
        defer { server.stop() }
        let response = try await CurlHTTPClient().get(
            HTTPRequest(
                url: server.baseURL + "/v1/forecast",
                headers: [
                    "Accept": "application/json", "If-Modified-Since": "Sun, 04 Feb 2024\r\nX-Injected: 1",
                    "If-None-Match": "\"a\u{0}b\"", "X-Tab": "a\tb",
                ]))
        #expect(response.status == 200)
        let headers = try #require(server.requests().first?.headers)
        #expect(headers["x-injected"] == nil)
        #expect(headers["if-modified-since"] == nil)
        #expect(headers["if-none-match"] == nil)
        #expect(headers["accept"] == "application/json")
        #expect(headers["x-tab"] == "a\tb")
    }

    @Test func userAgentNamesVersionAndProject() {
        #expect(FixcastInfo.userAgent == "fixcast/\(FixcastInfo.version) (+\(FixcastInfo.projectURL))")
        #expect(FixcastInfo.userAgent.hasPrefix("fixcast/0.1.0 (+https://"))
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let server = try FixtureServer(routes: ["/z": [FixtureResponse(file: recorded, gzip: true)]])
        defer { server.stop() }
        let response = try await CurlHTTPClient().get(HTTPRequest(url: server.baseURL + "/z"))
        #expect(response.body == [UInt8](try Data(contentsOf: URL(fileURLWithPath: recorded))))
        #expect(response.header("content-encoding") == "gzip")
    }

    @Test(arguments: [404, 429, 500, 503]) func errorStatusesAreResponsesNotErrors(status: Int) async throws {
        let server = try FixtureServer(routes: [
            "/e": [.body(#"{"error":true,"reason":"nope"}"#, status: status, headers: ["Retry-After": "120"])]
        ])
        defer { server.stop() }
        let response = try await CurlHTTPClient().get(HTTPRequest(url: server.baseURL + "/e"))
        #expect(response.status == status)
        #expect(response.header("retry-after") == "120")
        #expect(String(decoding: response.body, as: UTF8.self).contains("nope"))
    }

    func expectFailure(_ url: String, _ check: (HTTPError) -> Bool) async {
        await expectFailure(CurlHTTPClient(), url, check)
    }

    func expectFailure(_ client: CurlHTTPClient, _ url: String, _ check: (HTTPError) -> Bool) async {
        do {
            let r = try await client.get(HTTPRequest(url: url))
            Issue.record("expected an error, got HTTP \(r.status)")
        } catch {
            #expect(check(error), "\(error)")
        }
    }

    @Test func aResponseSlowerThanTheTimeoutTimesOut() async throws {
        let server = try FixtureServer(routes: ["/slow": [FixtureResponse(body: "{}", delay: 3)]])
        defer { server.stop() }
        let client = CurlHTTPClient(limits: .init(connectTimeoutS: 1, totalTimeoutS: 0.5))
        await expectFailure(client, server.baseURL + "/slow") {
            if case .timedOut(let host, _) = $0 { return host == "127.0.0.1:\(server.port)" } else { return false }
        }
    }

    @Test func aTruncatedBodyIsAnError() async throws {
        let server = try FixtureServer(routes: ["/t": [FixtureResponse(file: recorded, truncate: true)]])
        defer { server.stop() }
        await expectFailure(server.baseURL + "/t") {
            if case .transport(let d) = $0 { return d.contains("cut short") } else { return false }
        }
    }

    @Test func aClosedConnectionIsAnError() async throws {
        let server = try FixtureServer(routes: ["/c": [FixtureResponse(close: true)]])
        defer { server.stop() }
        await expectFailure(server.baseURL + "/c") {
            if case .transport(let d) = $0 { return d.contains("without answering") } else { return false }
        }
    }

    @Test func aBodyOverTheCapIsRefused() async throws {
        let cap = 2 * 1024 * 1024
        let server = try FixtureServer(routes: [
            "/big": [FixtureResponse(size: cap + 1)], "/fits": [FixtureResponse(size: cap)],
        ])
        defer { server.stop() }
        await expectFailure(server.baseURL + "/big") { $0 == .bodyTooLarge(limitBytes: cap) }
        let fits = try await CurlHTTPClient().get(HTTPRequest(url: server.baseURL + "/fits"))
        #expect(fits.body.count == cap)
    }

    /// A compressed body announces a small length; the cap must hold on the decoded bytes, in the write callback.
    @Test func aCompressedBodyOverTheCapIsAbortedInTheWriteCallback() async throws {
        let server = try FixtureServer(routes: ["/bomb": [FixtureResponse(size: 3 * 1024 * 1024, gzip: true)]])
        defer { server.stop() }
        await expectFailure(CurlHTTPClient(limits: .init(maxBodyBytes: 64 * 1024)), server.baseURL + "/bomb") {
            $0 == .bodyTooLarge(limitBytes: 64 * 1024)
        }
    }

    @Test func connectionRefusedNamesTheHostAndPort() async {
        let port = freeLoopbackPort()
        await expectFailure("http://127.0.0.1:\(port)/v1/forecast") {
            $0 == .connectionRefused(host: "127.0.0.1:\(port)")
        }
    }

    @Test func redirectsAreFollowedUpToThree() async throws {
        let server = try FixtureServer(routes: [
            "/a": [.body("", status: 302, headers: ["Location": "/b"])],
            "/b": [.body("", status: 301, headers: ["Location": "/c"])],
            "/c": [.body(#"{"ok":true}"#)],
            "/loop": [.body("", status: 302, headers: ["Location": "/loop"])],
        ])
        defer { server.stop() }
        let response = try await CurlHTTPClient().get(HTTPRequest(url: server.baseURL + "/a"))
        #expect(response.status == 200)
        #expect(response.effectiveURL.hasSuffix("/c"))
        #expect(response.header("location") == nil)  // only the final response's headers
        await expectFailure(server.baseURL + "/loop") { $0 == .tooManyRedirects(limit: 3) }
        #expect(server.requestCount(path: "/loop") == 4)
    }

    @Test(arguments: [
        "http://example.com/v1/forecast", "http://10.0.0.1:8080/", "http://127.example.com/", "http://128.0.0.1/",
    ])
    func plainHTTPToANonLoopbackHostIsRefusedBeforeSending(url: String) async {
        await expectFailure(url) { $0 == .insecureURL(url) }
    }

    @Test(arguments: ["ftp://127.0.0.1/x", "not a url", "", "file:///etc/passwd"])
    func otherSchemesAndGarbageAreInvalid(url: String) async {
        await expectFailure(url) { if case .invalidURL = $0 { return true } else { return false } }
    }

    @Test(arguments: [
        ("localhost", true), ("LOCALHOST", true), ("127.0.0.1", true), ("127.255.3.4", true), ("[::1]", true),
        ("128.0.0.1", false), ("127.0.0", false), ("127.0.0.256", false), ("localhost.example.com", false),
        ("[::2]", false), ("example.com", false),
    ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(HTTPURLCheck.isLoopback(host: host) == loopback)
    }

    @Test func httpsPassesTheCheckAndLoopbackHTTPToo() throws {
        #expect(try HTTPURLCheck.check("https://api.open-meteo.com/v1/forecast").host == "api.open-meteo.com")
        #expect(try HTTPURLCheck.check("http://localhost:8080/x").authority == "localhost:8080")
        #expect(try HTTPURLCheck.check("http://[::1]:9/x").authority == "[::1]:9")
        #expect(try HTTPURLCheck.check("https://user:pw@example.com:8443/x?y").authority == "example.com:8443")
    }

    /// Failures that cannot be produced on loopback without leaving it (DNS, TLS) are checked at the mapping.
    @Test func curlCodesMapOntoHTTPErrors() throws {
        let checked = try HTTPURLCheck.check("https://api.example.org/x")
        let limits = CurlHTTPClient.Limits()
        #expect(
            CurlTransfer.map(CURLE_COULDNT_RESOLVE_HOST, detail: "", sink: nil, checked: checked, limits: limits)
                == .dnsFailure(host: "api.example.org"))
        if case .tls(let host, let detail) = CurlTransfer.map(
            CURLE_PEER_FAILED_VERIFICATION, detail: "certificate expired", sink: nil, checked: checked, limits: limits)
        {
            #expect(host == "api.example.org")
            #expect(detail == "certificate expired")
        } else {
            Issue.record("not a TLS error")
        }
        #expect(
            CurlTransfer.map(CURLE_FILESIZE_EXCEEDED, detail: "", sink: nil, checked: checked, limits: limits)
                == .bodyTooLarge(limitBytes: 2 * 1024 * 1024))
        #expect(
            CurlTransfer.map(
                CURLE_OPERATION_TIMEDOUT, detail: "Connection timed out after 5001 milliseconds", sink: nil,
                checked: checked, limits: limits)
                == .timedOut(host: "api.example.org", seconds: 5))
        #expect(
            CurlTransfer.map(
                CURLE_OPERATION_TIMEDOUT, detail: "Operation timed out after 15000 milliseconds", sink: nil,
                checked: checked, limits: limits)
                == .timedOut(host: "api.example.org", seconds: 15))
    }

    @Test func concurrentTransfersDoNotQueueBehindEachOther() async throws {
        let server = try FixtureServer(routes: ["/slow": [FixtureResponse(body: "{}", delay: 1)]])
        defer { server.stop() }
        let client = CurlHTTPClient()
        async let a = client.get(HTTPRequest(url: server.baseURL + "/slow"))
        async let b = client.get(HTTPRequest(url: server.baseURL + "/slow"))
        async let c = client.get(HTTPRequest(url: server.baseURL + "/slow"))
        let statuses = try await [a.status, b.status, c.status]
        #expect(statuses == [200, 200, 200])
        #expect(server.requestCount(path: "/slow") == 3)
    }

    /// Cancelling the waiting task ends the transfer (the server would answer only after 20 s, well
    /// inside the 30 s timeout, so a transfer that ignored cancellation would succeed).
    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try FixtureServer(routes: ["/slow": [FixtureResponse(body: "{}", delay: 20)]])
        defer { server.stop() }
        let client = CurlHTTPClient(limits: .init(connectTimeoutS: 5, totalTimeoutS: 30))
        let task = Task { () -> Result<HTTPResponse, HTTPError> in
            do throws(HTTPError) {
                return .success(try await client.get(HTTPRequest(url: server.baseURL + "/slow")))
            } catch {
                return .failure(error)
            }
        }
        for _ in 0..<500 where server.requestCount() < 1 { try await Task.sleep(nanoseconds: 10_000_000) }
        task.cancel()
        let result = await task.value
        #expect(
            result == Result<HTTPResponse, HTTPError>.failure(HTTPError.transport(detail: "the request was cancelled")))
    }

    /// https:// to a loopback server that speaks plain HTTP: the TLS handshake fails, and says so.
    @Test func aFailedTLSHandshakeIsATLSError() async throws {
        let server = try FixtureServer(routes: ["/": [.body("{}")]])
        defer { server.stop() }
        await expectFailure("https://127.0.0.1:\(server.port)/") {
            if case .tls(let host, let detail) = $0 {
                return host == "127.0.0.1" && !detail.isEmpty
            } else {
                return false
            }
        }
    }
}
