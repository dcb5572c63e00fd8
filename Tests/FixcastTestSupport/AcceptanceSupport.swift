import FixcastAdapters
import FixcastApp
import FixcastCore
import Foundation
import Testing

/// What the acceptance tests share: a fresh home and store per test, an environment in which every
/// network endpoint of fixcast is a loopback address, and JSON read the way a script would read it.
struct AcceptanceHome {
    let dir: URL
    /// The `--db` file (a temp file, never the user's store).
    let db: String

    init(_ label: String) {
        dir = TestPaths.temporaryDirectory("accept-\(label)")
        db = dir.appendingPathComponent("fixcast.sqlite").path
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// `fixcast args…`; `--db` is added unless the arguments name one.
    func run(_ args: [String], env: [String: String], timeout: Double = 60) throws -> CLIResult {
        let withDB = args.contains("--db") ? args : args + ["--db", db]
        return try CLIRunner.run(withDB, env: env, home: dir, timeout: timeout)
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}

enum Acceptance {
    static let forecastFixture = TestPaths.fixture("api/open-meteo-forecast.json")
    static let cologneFixture = TestPaths.fixture("api/nominatim-reverse-jsonv2-zoom12.json")
    static let geocodingFixture = TestPaths.fixture("api/open-meteo-geocoding.json")
    static let geocodingEmptyFixture = TestPaths.fixture("api/open-meteo-geocoding-empty.json")

    /// Every base URL fixcast has pointed at `server` (or, without one, at a loopback port where
    /// nothing listens), so a test can never send a request anywhere but 127.0.0.1.
    static func env(_ server: FixtureServer?, _ extra: [String: String] = [:]) -> [String: String] {
        let base = server?.baseURL ?? "http://127.0.0.1:\(freeLoopbackPort())"
        var e = [
            "FIXCAST_WEATHER_BASE_URL": base,
            "FIXCAST_PLACES_BASE_URL": base,
            "FIXCAST_PLACES_SEARCH_URL": base,
        ]
        e.merge(extra) { _, new in new }
        return e
    }

    /// A server answering weather with the recorded Open-Meteo forecast and places with the recorded
    /// Cologne reverse lookup and the recorded geocoding search.
    static func recordedServer(forecast: [FixtureResponse]? = nil) throws -> FixtureServer {
        try FixtureServer.started(routes: [
            "/v1/forecast": forecast ?? [.file(forecastFixture)],
            "/reverse": [.file(cologneFixture)],
            "/v1/search": [.file(geocodingFixture)],
        ])
    }

    /// The one JSON object a `--json` run printed on stdout.
    static func object(_ r: CLIResult) throws -> [String: Any] {
        let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8), options: [.fragmentsAllowed])
        return try #require(obj as? [String: Any], "stdout is not one JSON object: \(r.stdout) / stderr: \(r.stderr)")
    }

    static func array(_ r: CLIResult) throws -> [[String: Any]] {
        let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return try #require(obj as? [[String: Any]], "stdout is not a JSON array: \(r.stdout) / stderr: \(r.stderr)")
    }

    static func fileObject(_ path: String) throws -> [String: Any] {
        let obj = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return try #require(obj as? [String: Any])
    }

    /// stderr as a user sees it: lines that are not empty.
    static func stderrLines(_ r: CLIResult) -> [String] {
        r.stderr.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
    }

    /// Runs a program to its end; (status, stdout, stderr).
    @discardableResult
    static func runProgram(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
        try ExportTestSupport.run(executable, arguments)
    }
}

extension Dictionary where Key == String, Value == Any {
    func dict(_ key: String) -> [String: Any]? { self[key] as? [String: Any] }
    func string(_ key: String) -> String? { self[key] as? String }
    func double(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
    func bool(_ key: String) -> Bool? { self[key] as? Bool }
    func isNull(_ key: String) -> Bool { self[key] is NSNull }
}
