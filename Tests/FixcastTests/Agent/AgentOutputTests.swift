import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Where `fixcast run --json`'s stdout goes, and what happens when it stops taking the readings:
/// a reader that went away (`| head -1`) ends the agent as SIGTERM does (exit 0, nothing lost); a
/// stdout that refuses writes (`> /dev/full`) is a loss: one sentence and exit 1.
@Suite(.serialized, .scratch) struct AgentOutputTests {
    /// `fixcast run --json --at …` (no gpsd needed) with stdout on `stdout`; stderr to a pipe.
    static func start(stdout: Any, home: URL, server: FixtureServer) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.fixcastBinary)
        p.arguments = FixedPositionAgent.arguments(db: home.appendingPathComponent("f.sqlite").path)
        p.environment = fixcastEnvironment(home: home, adding: FixedPositionAgent.environment(server))
        let err = Pipe()
        p.standardOutput = stdout
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return (p, err)
    }

    /// Waits for the exit (SIGKILL after `seconds`); the status, or nil when it had to be killed.
    static func exitStatus(_ p: Process, seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            return nil
        }
        return p.terminationReason == .exit ? p.terminationStatus : -p.terminationStatus
    }

    static func storedReadings(_ home: URL) async throws -> Int {
        try await SQLiteStore(path: home.appendingPathComponent("f.sqlite").path).readingCount()
    }

    @Test func aReaderThatGoesAwayEndsTheAgentAsAStopDoes() async throws {
        let home = TestPaths.temporaryDirectory("agent-head")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let out = Pipe()
        let (p, err) = try Self.start(stdout: out, home: home, server: server)
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }

        // `head -1`: read one line, then close the pipe.
        var line = Data()
        let reader = out.fileHandleForReading
        while !line.contains(10) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        #expect(try JSONValue.parse(String(decoding: line, as: UTF8.self))["trigger"]?.stringValue == "startup")
        try reader.close()
        try out.fileHandleForWriting.close()
        let closedAt = Date()

        let status = Self.exitStatus(p, seconds: 20)
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 0, "exit 0 once its reader is gone; stderr: \(errText)")
        #expect(Date().timeIntervalSince(closedAt) < 5, "ended at once, not at the next reading 30 min on")
        #expect(errText.isEmpty, "a closed pipe stays quiet: \(errText)")
        #expect(try await Self.storedReadings(home) == 1, "the reading printed is stored")
    }

    @Test func aStdoutThatRefusesWritesIsALossExitOne() async throws {
        let home = TestPaths.temporaryDirectory("agent-devfull")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let (p, err) = try Self.start(stdout: full, home: home, server: server)
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }

        let status = Self.exitStatus(p, seconds: 30)
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 1, "stderr: \(errText)")
        let lines = errText.split(separator: "\n")
        #expect(lines.count == 1, "one sentence: \(errText)")
        #expect(
            lines.first?.contains("could not write to standard output (No space left on device)") == true, "\(errText)")
        #expect(try await Self.storedReadings(home) == 1, "the reading is stored all the same")
    }
}
