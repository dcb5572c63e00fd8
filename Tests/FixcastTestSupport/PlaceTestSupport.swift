import FixcastAdapters
import FixcastApp
import FixcastCore
import Foundation

/// A place cache in memory, standing in for the SQLite store (written elsewhere) in place tests.
actor InMemoryPlaceCache: PlaceCacheStore {
    private(set) var entries: [(coordinate: Coordinate, place: Place, language: String?)] = []
    private(set) var saves = 0

    func cachedPlace(near coordinate: Coordinate, withinKm: Double, source: PlaceSource, language: String?)
        async throws(StorageError) -> Place?
    {
        entries.filter {
            $0.place.source == source && GreatCircle.distanceKm($0.coordinate, coordinate) <= withinKm
                && (language == nil || $0.language == language)
        }
        .min {
            GreatCircle.distanceKm($0.coordinate, coordinate) < GreatCircle.distanceKm($1.coordinate, coordinate)
        }?
        .place
    }

    func savePlace(_ place: Place, at coordinate: Coordinate, language: String?) async throws(StorageError) {
        saves += 1
        entries.append((coordinate, place, language))
    }

    private(set) var noPlaces: [(coordinate: Coordinate, language: String?)] = []

    func knowsNoPlace(near coordinate: Coordinate, withinKm: Double, language: String?, since: Date)
        async throws(StorageError) -> Bool
    {
        noPlaces.contains { $0.language == language && GreatCircle.distanceKm($0.coordinate, coordinate) <= withinKm }
    }

    func saveNoPlace(at coordinate: Coordinate, language: String?) async throws(StorageError) {
        noPlaces.append((coordinate, language))
    }
}

enum PlaceTestData {
    /// The repository's bundled table, found through FIXCAST_DATA_DIR-style lookup.
    static let dataFiles = DataFiles(
        environment: ["FIXCAST_DATA_DIR": TestPaths.repoRoot.appendingPathComponent("share/fixcast").path],
        executablePath: nil)
    /// Loaded once for all tests (about 0.1-1 s in a debug build).
    static let offline = OfflinePlaces(dataFiles: dataFiles)

    static func fixture(_ name: String) -> String { TestPaths.fixture("api/\(name)") }
}

extension FixtureServer {
    /// Starts a fixture server from a fresh thread whose signal mask is empty.
    ///
    /// Why: a child process inherits the signal mask of the thread that spawns it, and Swift's concurrency
    /// and Dispatch threads block SIGTERM/SIGINT; a server spawned from a test's task then ignores
    /// `stop()`'s SIGTERM and `stop()` waits forever. (Reported to the lead; FixtureServer itself should
    /// spawn with an empty mask or stop with SIGKILL.)
    static func started(routes: [String: [FixtureResponse]], host: String = "127.0.0.1") throws -> FixtureServer {
        final class Box: @unchecked Sendable { var result: Result<FixtureServer, Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        // A thread does not see the test's task-locals: hand it the test's scratch.
        let scratch = TestScratch.current
        let thread = Thread {
            var empty = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, nil)
            box.result = TestScratch.$current.withValue(scratch) {
                Result { try FixtureServer(routes: routes, host: host) }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        guard let result = box.result else { throw FixtureServerError.didNotStart }
        return try result.get()
    }

    /// When the server received each request (seconds since 1970), oldest first, read from its log.
    func requestTimes(path: String) -> [Double] {
        let log = dir.appendingPathComponent("requests.jsonl").path
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                obj["path"] as? String == path
            else { return nil }
            return obj["time"] as? Double
        }
    }

    /// The decoded query parameters of the requests to `path`.
    func queries(path: String) -> [[String: String]] {
        requests().filter { $0.path == path }.map { request in
            var items: [String: String] = [:]
            for pair in request.query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { continue }
                items[String(parts[0])] = String(parts[1]).removingPercentEncoding
            }
            return items
        }
    }
}

extension Coordinate {
    /// A point `metres` east of this one (for "readings 100 m apart").
    func movedEast(metres: Double) -> Coordinate {
        let dLon = metres / (111_320 * cos(lat * .pi / 180))
        return Coordinate(lat: lat, lon: lon + dLon)!
    }
}
