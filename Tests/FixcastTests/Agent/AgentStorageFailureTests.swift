import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `fixcast run --json` on a store that stops taking writes while it runs (here: another program
/// holds the store's write lock past the busy timeout), then takes them again: every reading printed
/// meanwhile says `storage` in `errors`, stderr says it once and once when it works again, and the
/// exit status is 1 (a reading was lost).
@Suite(.serialized, .scratch) struct AgentStorageFailureTests {
    /// A python3 sqlite3 client holding an exclusive lock on `db` until its stdin closes.
    final class LockHolder: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(db: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read(); c.execute('COMMIT')",
                db,
            ]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            _ = output.fileHandleForReading.availableData  // "locked"
        }

        func release() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
    }

    @Test func aStoreThatRefusesWritesIsSaidOnceAndTheExitIsOne() async throws {
        let home = TestPaths.temporaryDirectory("agent-store-fails")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let db = home.appendingPathComponent("f.sqlite").path
        let agent = try FixedPositionAgent.start(db: db, server: server, home: home)
        #expect(agent.waitForLines(1, seconds: 30), "the startup reading; stderr: \(agent.stderr)")

        let lock = try LockHolder(db: db)
        defer { lock.release() }
        // Two readings while the store refuses. Each is printed once its write has waited out the 5 s
        // busy timeout, so the next request comes well after the 2 s in which a forced request would
        // join the last one (ReadingScheduler.forcedJoinWindowS): no sleep needed to keep them apart.
        for n in 2...3 {
            agent.signal(SIGUSR1)
            #expect(agent.waitForLines(n, seconds: 30), "reading \(n); stderr: \(agent.stderr)")
        }
        lock.release()
        agent.signal(SIGUSR1)
        #expect(agent.waitForLines(4, seconds: 30), "a reading once the store takes writes again")
        let back = agent.waitForStderr(containing: "storage: writing to the store works again", seconds: 10)
        agent.signal(SIGTERM)
        let status = agent.waitForExit(seconds: 20)

        let readings = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        func storageErrors(_ r: JSONValue) -> Int {
            (r["errors"]?.arrayValue ?? []).filter { $0["component"]?.stringValue == "storage" }.count
        }
        #expect(readings.map(storageErrors) == [0, 1, 1, 0], "the readings not stored say so")
        #expect(readings.map { $0["id"]?.stringValue == nil } == [false, true, true, false])
        let storageLines = agent.stderrLines.filter { $0.line.hasPrefix("storage:") }
        #expect(storageLines.count == 2, "once failing, once working again: \(agent.stderr)")
        #expect(back != nil)
        #expect(status == 1, "two readings were lost; stderr: \(agent.stderr)")
    }
}
