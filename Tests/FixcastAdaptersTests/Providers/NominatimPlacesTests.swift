import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Nominatim reverse geocoding against recorded responses on a loopback server.
@Suite(.scratch)
struct NominatimPlacesTests {
    static let cologne = Coordinate(lat: 50.9373, lon: 6.9592)!

    func client(_ server: FixtureServer, language: String = "en", base: String? = nil) -> NominatimPlaces {
        NominatimPlaces(
            http: URLSessionFetcher(), baseURL: base ?? server.baseURL, language: language, limiter: NominatimLimiter())
    }

    @Test func namesCologne() async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-jsonv2-zoom12.json"))]
        ])
        defer { server.stop() }
        let place = try await client(server).place(at: Self.cologne)
        #expect(
            place
                == Place(
                    name: "Cologne", region: "North Rhine-Westphalia", country: "Germany", countryCode: "DE",
                    source: .nominatim))
        let request = try #require(server.requests().first)
        let query = try #require(server.queries(path: "/reverse").first)
        #expect(query["format"] == "jsonv2")
        #expect(query["lat"] == "50.9373")
        #expect(query["lon"] == "6.9592")
        #expect(query["zoom"] == String(NominatimPlaces.zoom))
        #expect(query["accept-language"] == "en")
        #expect(request.headers["accept-language"] == "en")
        #expect(request.headers["user-agent"]?.isEmpty == false)
    }

    @Test func namesAVillageFromTheDocsExample() async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-jsonv2-docs.json"))]
        ])
        defer { server.stop() }
        let place = try await client(server, language: "es").place(at: Coordinate(lat: -34.44076, lon: -58.70521)!)
        #expect(place?.name == "El Triángulo")
        #expect(place?.region == "Buenos Aires")
        #expect(place?.countryCode == "AR")
        #expect(server.queries(path: "/reverse").first?["accept-language"] == "es")
    }

    @Test func unableToGeocodeWith200IsNoPlace() async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-error-unable-to-geocode.json"))]
        ])
        defer { server.stop() }
        let place = try await client(server).place(at: Coordinate(lat: 0, lon: -30)!)
        #expect(place == nil)
        #expect(server.requestCount(path: "/reverse") == 1)
    }

    @Test func status400IsAnErrorWithNominatimsMessage() async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [.file(PlaceTestData.fixture("nominatim-error-400.json"), status: 400)]
        ])
        defer { server.stop() }
        await #expect(throws: PlaceError.status(service: "Nominatim", code: 400, detail: "Parameter 'lon' missing.")) {
            try await client(server).place(at: Self.cologne)
        }
    }

    @Test func garbageIsAnInvalidResponse() async throws {
        let server = try FixtureServer.started(routes: [
            "/reverse": [.body("<html>overloaded</html>", headers: ["Content-Type": "text/html"])]
        ])
        defer { server.stop() }
        do {
            _ = try await client(server).place(at: Self.cologne)
            Issue.record("expected an error")
        } catch {
            guard case .invalidResponse(let service, _) = error else {
                Issue.record("got \(error)")
                return
            }
            #expect(service == "Nominatim")
            #expect(error.message.hasPrefix("place: "))
        }
    }

    @Test func aServerThatIsGoneIsATransportError() async throws {
        let server = try FixtureServer.started(routes: [:])
        let base = server.baseURL
        server.stop()
        do {
            _ = try await NominatimPlaces(
                http: URLSessionFetcher(), baseURL: base, language: "en", limiter: NominatimLimiter()
            )
            .place(at: Self.cologne)
            Issue.record("expected an error")
        } catch {
            guard case .transport = error else {
                Issue.record("got \(error)")
                return
            }
        }
    }

    @Test func aBaseURLWithAPathPrefixAndTrailingSlash() async throws {
        let server = try FixtureServer.started(routes: [
            "/mirror/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-jsonv2-zoom12.json"))]
        ])
        defer { server.stop() }
        let place = try await client(server, base: server.baseURL + "/mirror/").place(at: Self.cologne)
        #expect(place?.name == "Cologne")
    }

    @Test func anEmptyBaseURLMeansThePublicEndpoint() {
        let client = NominatimPlaces(
            http: URLSessionFetcher(), baseURL: "", language: "en", limiter: NominatimLimiter())
        #expect(
            client.request(for: Self.cologne).url.hasPrefix(
                "https://nominatim.openstreetmap.org/reverse?format=jsonv2&"))
    }
}
