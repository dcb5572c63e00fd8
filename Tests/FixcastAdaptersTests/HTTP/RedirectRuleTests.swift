import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 24 item 1: a redirect is followed only to the same scheme, host and port; anything else is
/// refused before a byte is sent there, with both URLs named (no query). Loopback servers only:
/// 127.0.0.2 plays "another host".
@Suite(.serialized, .scratch) struct RedirectRuleTests {
    func refusal(_ url: String) async -> HTTPError? {
        do {
            let r = try await CurlHTTPClient().get(HTTPRequest(url: url))
            Issue.record("expected a refusal, got HTTP \(r.status)")
            return nil
        } catch {
            return error
        }
    }

    @Test func aRedirectToAnotherHostIsRefusedAndNothingReachesIt() async throws {
        let other = try FixtureServer(routes: ["/v1/forecast": [.body(#"{"ok":true}"#)]], host: "127.0.0.2")
        defer { other.stop() }
        let target = other.baseURL + "/v1/forecast?latitude=52.52&longitude=13.4"
        let mirror = try FixtureServer(routes: ["/v1/forecast": [.body("", status: 302, headers: ["Location": target])]]
        )
        defer { mirror.stop() }
        let error = await refusal(mirror.baseURL + "/v1/forecast?latitude=52.52&longitude=13.4&appid=SECRET")
        #expect(error == .redirectRefused(from: mirror.baseURL + "/v1/forecast", to: other.baseURL + "/v1/forecast"))
        #expect(other.requestCount() == 0, "nothing may be sent to the other host")
        #expect(mirror.requestCount(path: "/v1/forecast") == 1)
        let reason = error?.reason ?? ""
        #expect(!reason.contains("SECRET") && !reason.contains("latitude"), "no query in the message: \(reason)")
    }

    @Test func aRedirectToAnotherPortOrSchemeOnTheSameHostIsRefused() async throws {
        let otherPort = try FixtureServer(routes: ["/x": [.body("{}")]])
        defer { otherPort.stop() }
        let mirror = try FixtureServer(routes: [
            "/port": [.body("", status: 301, headers: ["Location": otherPort.baseURL + "/x"])],
            "/https": [.body("", status: 307, headers: ["Location": "https://127.0.0.1:\(otherPort.port)/x"])],
            "/name": [.body("", status: 302, headers: ["Location": "http://localhost:\(otherPort.port)/x"])],
        ])
        defer { mirror.stop() }
        #expect(
            await refusal(mirror.baseURL + "/port")
                == .redirectRefused(from: mirror.baseURL + "/port", to: otherPort.baseURL + "/x"))
        #expect(
            await refusal(mirror.baseURL + "/https")
                == .redirectRefused(from: mirror.baseURL + "/https", to: "https://127.0.0.1:\(otherPort.port)/x"))
        #expect(
            await refusal(mirror.baseURL + "/name")
                == .redirectRefused(from: mirror.baseURL + "/name", to: "http://localhost:\(otherPort.port)/x"))
        #expect(otherPort.requestCount() == 0)
    }

    @Test func aRedirectOffLoopbackInClearTextIsRefusedWithoutResolvingIt() async throws {
        let mirror = try FixtureServer(routes: [
            "/a": [.body("", status: 302, headers: ["Location": "http://example.com/a?lat=1"])]
        ])
        defer { mirror.stop() }
        let error = await refusal(mirror.baseURL + "/a")
        #expect(
            error == .redirectRefused(from: mirror.baseURL + "/a", to: "http://example.com/a"),
            "not a DNS failure blamed on 127.0.0.1: \(String(describing: error))")
    }

    @Test func sameOriginRedirectsAreStillFollowedAndExplicitDefaultPortsMatch() throws {
        let a = try HTTPURLCheck.check("https://api.example.org/x")
        #expect(a.port == 443)
        #expect(RedirectRule.allows(from: a, to: try HTTPURLCheck.check("https://API.example.org:443/y?z")))
        #expect(!RedirectRule.allows(from: a, to: try HTTPURLCheck.check("https://api.example.org:8443/y")))
        #expect(!RedirectRule.allows(from: a, to: try HTTPURLCheck.check("https://example.org/y")))
        #expect(try HTTPURLCheck.check("http://127.0.0.1/x").port == 80)
    }

    @Test func shownURLsDropUserInfoQueryAndControlCharacters() {
        #expect(RedirectRule.shown("http://user:pw@127.0.0.2:81/p?appid=K#f") == "http://127.0.0.2:81/p")
        #expect(RedirectRule.shown("http://127.0.0.2/\u{1B}[2J") == "http://127.0.0.2/\\u{1B}[2J")
        #expect(
            RedirectRule.shown("http://127.0.0.2/" + String(repeating: "a", count: 500)).count
                == RedirectRule.maxShownCharacters)
    }
}
