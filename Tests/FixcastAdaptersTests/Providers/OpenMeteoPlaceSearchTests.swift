import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Open-Meteo geocoding against recorded responses on a loopback server.
@Suite(.scratch)
struct OpenMeteoPlaceSearchTests {
    func client(_ server: FixtureServer, language: String = "en") -> OpenMeteoPlaceSearch {
        OpenMeteoPlaceSearch(http: URLSessionFetcher(), baseURL: server.baseURL, language: language)
    }

    @Test func findsEnschede() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding.json"))]
        ])
        defer { server.stop() }
        let matches = try await client(server).search("Enschede", limit: 5)
        #expect(matches.map(\.name) == ["Enschede", "Enschede Airport Twente"])
        #expect(matches.first?.population == 153655)
        #expect(matches.first?.country == "The Netherlands")
        #expect(matches.first?.region == "Overijssel")
        #expect(matches.first?.source == .openMeteo)
        let query = try #require(server.queries(path: "/v1/search").first)
        #expect(query["name"] == "Enschede")
        #expect(query["count"] == "5")
        #expect(query["language"] == "en")
    }

    /// `places.language` is a BCP 47 tag ("pt-BR", as Nominatim takes it); Open-Meteo's geocoding is
    /// asked in its language alone, lower-cased, as its API wants ("pt").
    @Test func aRegionalLanguageTagIsAskedAsItsLanguage() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding.json"))]
        ])
        defer { server.stop() }
        _ = try await client(server, language: "pt-BR").search("Enschede", limit: 5)
        _ = try await client(server, language: "ZH-Hant-TW").search("Enschede", limit: 5)
        #expect(server.queries(path: "/v1/search").map { $0["language"] } == ["pt", "zh"])
    }

    @Test func theLimitCutsTheList() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding.json"))]
        ])
        defer { server.stop() }
        #expect(try await client(server).search("Enschede", limit: 1).count == 1)
        #expect(try await client(server).search("Enschede", limit: 500).count == 2)
        #expect(server.queries(path: "/v1/search").map { $0["count"] } == ["1", "100"])
    }

    static let awkwardNames: [(String, String)] = [
        ("New York", "New%20York"), ("Saint-Jean & Co", "Saint-Jean%20%26%20Co"), ("a#b", "a%23b"), ("a/b", "a%2Fb"),
        ("Москва", "%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0"), ("北京", "%E5%8C%97%E4%BA%AC"),
        ("São Paulo", "S%C3%A3o%20Paulo"),
        ("x+y=z?", "x%2By%3Dz%3F"),
    ]

    @Test func namesArrivePercentEncoded() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding-empty.json"))]
        ])
        defer { server.stop() }
        for (name, _) in Self.awkwardNames {
            #expect(try await client(server).search(name, limit: 3).isEmpty)
        }
        let raw = server.requests().filter { $0.path == "/v1/search" }.map(\.query)
        #expect(raw.count == Self.awkwardNames.count)
        for ((name, encoded), query) in zip(Self.awkwardNames, raw) {
            // Exactly as sent, and the server decodes it back to the name typed.
            #expect(query.hasPrefix("name=\(encoded)&count=3"))
            let decoded = query.split(separator: "&").first.map { String($0.dropFirst(5)).removingPercentEncoding }
            #expect(decoded == name)
        }
    }

    @Test func noResultsKeyIsAnEmptyList() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding-empty.json"))]
        ])
        defer { server.stop() }
        #expect(try await client(server).search("Xyzzy", limit: 5).isEmpty)
    }

    @Test func status400CarriesTheReason() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding-error.json"), status: 400)]
        ])
        defer { server.stop() }
        let reason = "Parameter count must be between 1 and 100."
        await #expect(throws: PlaceError.status(service: "Open-Meteo geocoding", code: 400, detail: reason)) {
            try await client(server).search("Berlin", limit: 5)
        }
    }

    @Test func anEmptyQueryAsksNothing() async throws {
        let server = try FixtureServer.started(routes: [
            "/v1/search": [.file(PlaceTestData.fixture("open-meteo-geocoding.json"))]
        ])
        defer { server.stop() }
        #expect(try await client(server).search("   ", limit: 5).isEmpty)
        #expect(try await client(server).search("Berlin", limit: 0).isEmpty)
        #expect(server.requestCount() == 0)
    }

    @Test func aTruncatedBodyIsAnError() async throws {
        var truncated = FixtureResponse.file(PlaceTestData.fixture("open-meteo-geocoding.json"))
        truncated.truncate = true
        let server = try FixtureServer.started(routes: ["/v1/search": [truncated]])
        defer { server.stop() }
        await #expect(throws: PlaceError.self) { try await client(server).search("Enschede", limit: 5) }
    }
}
