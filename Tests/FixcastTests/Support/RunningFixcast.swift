import Foundation
import Synchronization

/// `fixcast …` running in the background (the agent), with its stdout read line by line as it comes.
final class RunningFixcast: @unchecked Sendable {
    let process = Process()
    private let lines = Mutex<[String]>([])
    private let errText = Mutex<String>("")
    private let readers = DispatchGroup()

    init(_ args: [String], env: [String: String], home: URL) throws {
        process.executableURL = URL(fileURLWithPath: TestPaths.fixcastBinary)
        process.arguments = args
        var environment: [String: String] = [
            "PATH": "/usr/bin:/bin", "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "FIXCAST_DATA_DIR": TestPaths.repoRoot.appendingPathComponent("share/fixcast").path,
        ]
        environment.merge(env) { _, new in new }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let lines = self.lines
        let errText = self.errText
        readers.enter()
        DispatchQueue.global().async { [readers] in
            var buffer = Data()
            let handle = out.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let nl = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...nl)
                    lines.withLock { $0.append(line) }
                }
            }
            readers.leave()
        }
        readers.enter()
        DispatchQueue.global().async { [readers] in
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errText.withLock { $0 = String(decoding: data, as: UTF8.self) }
            readers.leave()
        }
    }

    var stdoutLines: [String] { lines.withLock { $0 } }
    var stderr: String { errText.withLock { $0 } }

    /// Waits until at least `count` lines were printed (or the guard time passes, so a broken build cannot hang).
    @discardableResult
    func waitForLines(_ count: Int, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if stdoutLines.count >= count { return true }
            if !process.isRunning { return stdoutLines.count >= count }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    /// Waits for the exit; SIGKILL after the guard time. Returns the exit status (nil if it had to be killed).
    func waitForExit(seconds: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            readers.wait()
            return nil
        }
        process.waitUntilExit()
        readers.wait()
        return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
