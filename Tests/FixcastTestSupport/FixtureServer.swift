import Foundation

/// One canned answer of the loopback fixture server (Tests/Support/fixture_server.py).
struct FixtureResponse {
    var status = 200
    var file: String? = nil
    var body: String? = nil
    var headers: [String: String] = [:]
    var delay: Double = 0
    var truncate = false
    var close = false
    var size = 0
    /// Send the body gzip-compressed (`Content-Encoding: gzip`).
    var gzip = false
    /// Open-Meteo's multi-location form: one copy of the recorded `file`'s location per requested one.
    var multiLocation = false
    /// With `multiLocation`: the recorded hours shifted to start at the current UTC hour.
    var rebaseHours = false

    static func file(_ path: String, status: Int = 200, headers: [String: String] = [:]) -> FixtureResponse {
        FixtureResponse(status: status, file: path, headers: headers)
    }

    /// The multi-location answer built from the recorded answer at `path` (fixture_server.py).
    static func multiLocation(_ path: String, rebaseHours: Bool = false) -> FixtureResponse {
        FixtureResponse(file: path, multiLocation: true, rebaseHours: rebaseHours)
    }

    static func body(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> FixtureResponse {
        FixtureResponse(status: status, body: text, headers: headers)
    }

    var json: [String: Any] {
        var d: [String: Any] = [
            "status": status, "headers": headers, "delay": delay, "truncate": truncate, "close": close, "size": size,
        ]
        if let file { d["file"] = file }
        if let body { d["body"] = body }
        if gzip { d["gzip"] = true }
        if multiLocation { d["multi_location"] = true }
        if rebaseHours { d["rebase_hours"] = true }
        return d
    }
}

/// A real HTTP server on 127.0.0.1 (or another loopback address, `host`) that serves recorded responses
/// and injected faults, and logs every request it gets so a test can count them. Stopped by `stop()`, on
/// deinit and at the end of the test's `TestScratch`; its folder (config, port file, request log) is the
/// scratch's.
final class FixtureServer: @unchecked Sendable {
    let host: String
    let port: Int
    let dir: URL
    private let process: Process
    private let logPath: String

    var baseURL: String { "http://\(host):\(port)" }

    /// `routes`: path → answers in order (the last one repeats). `host`: a 127.0.0.0/8 address.
    init(routes: [String: [FixtureResponse]], host: String = "127.0.0.1") throws {
        self.host = host
        dir = TestPaths.temporaryDirectory("fixture-server")
        logPath = dir.appendingPathComponent("requests.jsonl").path
        let portFile = dir.appendingPathComponent("port").path
        let config: [String: Any] = [
            "host": host, "port": 0, "port_file": portFile, "log": logPath,
            "routes": routes.mapValues { $0.map(\.json) },
        ]
        let configPath = dir.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configPath)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            TestPaths.repoRoot.appendingPathComponent("Tests/Support/fixture_server.py").path, configPath.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        TestScratch.own(process)
        let deadline = Date().addingTimeInterval(10)
        var found: Int?
        while Date() < deadline {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let p = Int(text) {
                found = p
                break
            }
            usleep(20_000)
        }
        guard let found else {
            process.terminate()
            throw FixtureServerError.didNotStart
        }
        port = found
    }

    /// The requests received so far, oldest first.
    func requests() -> [(path: String, query: String, headers: [String: String])] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return (
                obj["path"] as? String ?? "", obj["query"] as? String ?? "", obj["headers"] as? [String: String] ?? [:]
            )
        }
    }

    func requestCount(path: String? = nil) -> Int {
        requests().filter { path == nil || $0.path == path }.count
    }

    /// SIGKILL: a process spawned from a Swift concurrency thread can inherit a mask that blocks
    /// SIGTERM, and the server keeps no state worth a graceful stop.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

enum FixtureServerError: Error { case didNotStart }
