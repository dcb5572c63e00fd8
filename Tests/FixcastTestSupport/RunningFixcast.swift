import Foundation

/// `fixcast …` running in the background (the agent), with its stdout read line by line as it comes.
final class RunningFixcast: @unchecked Sendable {
    let process = Process()
    private final class Shared: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        var errText = ""
        var errLines: [(at: Date, line: String)] = []
        func with<T>(_ body: (Shared) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }
    private let shared = Shared()
    private let readers = DispatchGroup()

    /// `executable` is fixcast unless a test runs it through another program (`script`, for a terminal).
    init(_ args: [String], env: [String: String], home: URL, executable: String = TestPaths.fixcastBinary) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        process.environment = fixcastEnvironment(home: home, adding: env)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        TestScratch.own(process)
        let shared = self.shared
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
                    shared.with { $0.lines.append(line) }
                }
            }
            readers.leave()
        }
        readers.enter()
        DispatchQueue.global().async { [readers] in
            // As it comes, each line with when it came (a test measures how soon the agent said so).
            var buffer = Data()
            let handle = err.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                let now = Date()
                shared.with { $0.errText += String(decoding: chunk, as: UTF8.self) }
                while let nl = buffer.firstIndex(of: 10) {
                    let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...nl)
                    shared.with { $0.errLines.append((now, line)) }
                }
            }
            readers.leave()
        }
    }

    var stdoutLines: [String] { shared.with { $0.lines } }
    var stderr: String { shared.with { $0.errText } }
    /// stderr's lines so far, each with when it was read.
    var stderrLines: [(at: Date, line: String)] { shared.with { $0.errLines } }

    /// Waits until a stderr line contains `text`; the line and when it came, nil after `seconds`.
    func waitForStderr(containing text: String, after: Date = .distantPast, seconds: Double = 20) -> (
        at: Date, line: String
    )? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let hit = stderrLines.first(where: { $0.at >= after && $0.line.contains(text) }) { return hit }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return stderrLines.first { $0.at >= after && $0.line.contains(text) }
    }

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
