import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 24 item 1 through the binary: a plain-http loopback mirror that redirects to another host
/// (127.0.0.2) does not take the position there; `now` fails with one sentence naming both URLs.
@Suite(.serialized, .scratch) struct RedirectHardeningTests {
    @Test("now: a weather mirror's 302 to another loopback host is refused, naming both URLs; nothing reaches it")
    func redirectToAnotherHostIsRefused() throws {
        let home = AcceptanceHome("redirect-host")
        defer { home.remove() }
        let other = try FixtureServer.started(
            routes: ["/v1/forecast": [.file(Acceptance.forecastFixture)]], host: "127.0.0.2")
        defer { other.stop() }
        let mirror = try FixtureServer.started(routes: [
            "/v1/forecast": [
                .body("", status: 302, headers: ["Location": other.baseURL + "/v1/forecast?latitude=52.52"])
            ],
            "/reverse": [.file(Acceptance.cologneFixture)],
        ])
        defer { mirror.stop() }
        let r = try home.run(["now", "--at", "52.52,13.405"], env: Acceptance.env(mirror))
        #expect(r.status == 1, "stdout: \(r.stdout) stderr: \(r.stderr)")
        #expect(other.requestCount() == 0, "the position must not reach another host")
        let lines = Acceptance.stderrLines(r).filter { $0.contains("redirected") }
        #expect(lines.count == 1, "\(r.stderr)")
        let line = lines.first ?? ""
        #expect(line.hasPrefix("weather: "), "\(line)")
        #expect(
            line.contains(mirror.baseURL + "/v1/forecast redirected to " + other.baseURL + "/v1/forecast"), "\(line)")
        #expect(!line.contains("latitude"), "no query in the message: \(line)")
        #expect(!line.contains("could not be resolved"), "\(line)")
    }
}
