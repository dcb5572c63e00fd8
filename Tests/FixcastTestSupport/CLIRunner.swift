import Foundation

/// Runs the built `fixcast` binary as a user would, and captures what it printed and its exit code.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool
}

/// A clean environment for a fixcast process: HOME and the XDG dirs inside `home` (no user config or
/// store is touched), the bundled data from the checkout, plus `env`.
func fixcastEnvironment(home: URL, adding env: [String: String]) -> [String: String] {
    var environment: [String: String] = [
        "PATH": "/usr/bin:/bin",
        "HOME": home.path,
        "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
        "XDG_DATA_HOME": home.appendingPathComponent("data").path,
        "FIXCAST_DATA_DIR": TestPaths.repoRoot.appendingPathComponent("share/fixcast").path,
        // Alerts are off unless a test turns them on, and their services point at a loopback port
        // where nothing listens: a test at a US or Norwegian position must never reach the internet.
        "FIXCAST_ALERTS_ENABLED": "false",
        "FIXCAST_ALERTS_NWS_BASE_URL": "http://127.0.0.1:9",
        "FIXCAST_ALERTS_METALERTS_BASE_URL": "http://127.0.0.1:9",
        // Weather ahead likewise: off unless a test turns it on, and never the public endpoint.
        "FIXCAST_AHEAD_ENABLED": "false",
        "FIXCAST_AHEAD_BASE_URL": "http://127.0.0.1:9",
    ]
    environment.merge(env) { _, new in new }
    return environment
}

enum CLIRunner {
    /// Runs `fixcast args…` with a clean environment (HOME and XDG dirs in `home`, so no user config
    /// or store is touched) plus `env`. Kills it after `timeout` seconds.
    static func run(_ args: [String], env: [String: String] = [:], home: URL, timeout: Double = 60) throws -> CLIResult
    {
        try run(
            executable: TestPaths.fixcastBinary, arguments: args,
            environment: fixcastEnvironment(home: home, adding: env),
            timeout: timeout)
    }

    /// Runs `executable arguments…` with exactly `environment` (nil: this process's), stdin from
    /// /dev/null, both outputs captured; killed after `timeout` seconds.
    static func run(executable: String, arguments: [String], environment: [String: String]?, timeout: Double)
        throws -> CLIResult
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Drain both pipes while the process runs, so a large output cannot block it.
        let outData = LockedData()
        let errData = LockedData()
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while p.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(p.processIdentifier, SIGKILL)
                break
            }
            usleep(10_000)
        }
        p.waitUntilExit()
        group.wait()
        return CLIResult(
            status: p.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self), timedOut: timedOut)
    }
}

final class LockedData: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    func set(_ d: Data) {
        lock.lock()
        data = d
        lock.unlock()
    }
    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
