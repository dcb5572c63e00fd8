import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Nominatim's one request per second held across processes that share a store: two limiters with two
/// connections to one SQLite file (as two processes have), and two real `fixcast now` processes.
@Suite(.serialized, .scratch) struct PlaceServiceSharedLimitTests {
    static let cologne = Coordinate(lat: 50.9373, lon: 6.9592)!
    /// 5 km east: beyond the 1 km reuse distance, so it needs its own request.
    static let eastOfCologne = cologne.movedEast(metres: 5_000)

    static let cologneRoute: [String: [FixtureResponse]] = [
        "/reverse": [.file(PlaceTestData.fixture("nominatim-reverse-jsonv2-zoom12.json"))]
    ]

    /// A place service as one process builds it: its own limiter and its own connection to `dbPath`.
    static func process(_ server: FixtureServer, dbPath: String) throws -> (PlaceService, SQLiteStore) {
        let store = try SQLiteStore(path: dbPath)
        let places = PlaceService(
            reverse: NominatimPlaces(
                http: URLSessionFetcher(), baseURL: server.baseURL, language: "en", limiter: NominatimLimiter(),
                sharedLimit: store),
            searcher: nil, offline: PlaceTestData.offline, cache: store)
        return (places, store)
    }

    @Test func twoConnectionsOnOneStoreSendASecondApart() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory("shared-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("fixcast.sqlite").path
        let (first, store) = try Self.process(server, dbPath: path)
        let (second, _) = try Self.process(server, dbPath: path)
        async let a = first.place(at: Self.cologne, offline: false)
        async let b = second.place(at: Self.eastOfCologne, offline: false)
        let (outcomeA, outcomeB) = await (a, b)
        #expect(outcomeA.place?.source == .nominatim && outcomeA.issue == nil)
        #expect(outcomeB.place?.source == .nominatim && outcomeB.issue == nil)
        let times = server.requestTimes(path: "/reverse")
        #expect(times.count == 2)
        for (x, y) in zip(times, times.dropFirst()) {
            #expect(y - x >= 1.0, "Nominatim requests \(y - x) s apart")
        }
        // The latest request is recorded where the next process will look.
        let stored = NominatimRateGate.sharedStateTime(try await store.state(NominatimRateGate.sharedStateKey))
        let last = try #require(times.last)
        #expect(try #require(stored).timeIntervalSince1970 >= last - 1.0)
    }

    @Test func twoFixcastNowProcessesStartedTogetherSendASecondApart() throws {
        let home = AcceptanceHome("shared-limit-now")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        // Create the store first, so both processes start on a migrated file like two later runs do.
        _ = try SQLiteStore(path: home.db)
        let spots = [Self.cologne, Self.eastOfCologne]
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var values: [Result<CLIResult, Error>] = []
            func add(_ r: Result<CLIResult, Error>) {
                lock.lock()
                defer { lock.unlock() }
                values.append(r)
            }
        }
        let results = Results()
        let env = Acceptance.env(server)
        DispatchQueue.concurrentPerform(iterations: spots.count) { i in
            let c = spots[i]
            results.add(Result { try home.run(["now", "--at", "\(c.lat),\(c.lon)", "--json"], env: env) })
        }
        #expect(results.values.count == 2)
        for result in results.values {
            let r = try result.get()
            #expect(r.status == 0, "stderr: \(r.stderr)")
            #expect(try Acceptance.object(r).dict("place")?.string("source") == "nominatim")
        }
        let times = server.requestTimes(path: "/reverse")
        #expect(times.count == 2)
        for (x, y) in zip(times, times.dropFirst()) {
            #expect(y - x >= 1.0, "Nominatim requests of two processes \(y - x) s apart")
        }
    }

    @Test func aReadOnlyStoreLeavesTheRequestToTheProcessLimit() async throws {
        let server = try FixtureServer.started(routes: Self.cologneRoute)
        defer { server.stop() }
        let dir = TestPaths.temporaryDirectory("shared-limit-ro")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("fixcast.sqlite").path
        _ = try SQLiteStore(path: path)
        let readOnly = try SQLiteStore(path: path, readOnly: true)
        let places = PlaceService(
            reverse: NominatimPlaces(
                http: URLSessionFetcher(), baseURL: server.baseURL, language: "en", limiter: NominatimLimiter(),
                sharedLimit: readOnly),
            searcher: nil, offline: PlaceTestData.offline, cache: nil)
        let outcome = await places.place(at: Self.cologne, offline: false)
        #expect(outcome.place?.source == .nominatim && outcome.issue == nil)
        #expect(server.requestCount(path: "/reverse") == 1)
        #expect(try await readOnly.state(NominatimRateGate.sharedStateKey) == nil)
    }
}
