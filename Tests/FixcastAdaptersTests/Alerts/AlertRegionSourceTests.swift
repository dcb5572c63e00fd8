import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// An ECCC region ahead over the real HTTP client against the loopback fixture server.
@Suite(.scratch)
struct AlertRegionSourceTests {
    static let box = AlertRegion.ecccBox(west: -80, south: 43, east: -79, north: 44)

    /// The recorded Toronto answer's 7 features, `sizes` of them to a page, each page saying 7 in all.
    static func pages(_ sizes: [Int]) throws -> [FixtureResponse] {
        let recorded = try JSONValue.parse(Array(try Data(contentsOf: URL(fileURLWithPath: AlertFixtures.ecccToronto))))
        let features = try #require(recorded["features"]?.arrayValue)
        #expect(features.count == 7)
        var start = 0
        return sizes.map { size in
            defer { start += size }
            let page = JSONValue.object([
                ("type", .string("FeatureCollection")), ("numberMatched", .int(features.count)),
                ("numberReturned", .int(size)), ("features", .array(Array(features[start..<start + size]))),
            ])
            return .body(page.serialized(), headers: ["Last-Modified": "Mon, 07 Dec 2026 08:00:00 GMT"])
        }
    }

    /// A box whose warning areas fill more than a page: the next pages are asked from where the last
    /// ended, and the answer kept holds all of them (before, only the first page's: the rest were
    /// missing without a word). A joined answer is not asked conditionally next time.
    @Test func anAnswerOverSeveralPagesIsAskedWhole() async throws {
        let server = try FixtureServer.started(routes: [
            "/collections/weather-alerts/items": try Self.pages([3, 3, 1])
        ])
        defer { server.stop() }
        let source = AlertRegionSource(ecccBaseURL: server.baseURL, http: CurlHTTPClient())
        let answer = try await source.fetch(Self.box, ifModifiedSince: nil, ifNoneMatch: nil)
        let body = try #require(answer.body)
        let joined = try JSONValue.parse(Array(body.utf8))
        #expect(joined["features"]?.arrayValue?.count == 7)
        let queries = server.requests().map(\.query)
        #expect(queries.count == 3)
        #expect(!queries[0].contains("offset="))
        #expect(queries[1].hasSuffix("&offset=3") && queries[2].hasSuffix("&offset=6"))
        #expect(answer.lastModified == nil && answer.etag == nil)
    }

    /// One page holding all: one request, the page kept as it came, with its validators.
    @Test func anAnswerOnOnePageIsOneRequest() async throws {
        let server = try FixtureServer.started(routes: ["/collections/weather-alerts/items": try Self.pages([7])])
        defer { server.stop() }
        let source = AlertRegionSource(ecccBaseURL: server.baseURL, http: CurlHTTPClient())
        let answer = try await source.fetch(Self.box, ifModifiedSince: nil, ifNoneMatch: nil)
        #expect(server.requests().count == 1)
        #expect(answer.lastModified == "Mon, 07 Dec 2026 08:00:00 GMT")
        // Kept as it came, not read and written again.
        let served = try #require(try Self.pages([7]).first?.body)
        #expect(answer.body == served)
        #expect(try JSONValue.parse(Array(try #require(answer.body).utf8))["features"]?.arrayValue?.count == 7)
    }

    /// A later page that fails fails the region (it is asked again after the source's back-off), rather
    /// than a part kept as the whole.
    @Test func aLaterPageThatFailsFailsTheRegion() async throws {
        var answers = try Self.pages([3])
        answers.append(.body("{\"title\":\"down\"}", status: 503))
        let server = try FixtureServer.started(routes: ["/collections/weather-alerts/items": answers])
        defer { server.stop() }
        let source = AlertRegionSource(ecccBaseURL: server.baseURL, http: CurlHTTPClient())
        await #expect(throws: AlertError.self) {
            _ = try await source.fetch(Self.box, ifModifiedSince: nil, ifNoneMatch: nil)
        }
    }
}
