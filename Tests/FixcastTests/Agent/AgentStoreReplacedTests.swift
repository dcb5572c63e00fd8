import FixcastText
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `fixcast run --json` whose store folder is deleted while it records (a person starting afresh):
/// SQLite would go on writing into the deleted file and every reading would read as stored. The next
/// reading goes to a new store at the path, stderr says so once, nothing is reported lost, and the
/// run lock is taken again on the new store.
@Suite(.serialized, .scratch) struct AgentStoreReplacedTests {
    @Test func aStoreDeletedWhileRecordingIsMadeAgainAndSaidOnce() async throws {
        let home = TestPaths.temporaryDirectory("agent-store-replaced")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try FixedPositionAgent.weatherServer()
        defer { server.stop() }
        let folder = home.appendingPathComponent("store")
        let db = folder.appendingPathComponent("f.sqlite").path
        let agent = try FixedPositionAgent.start(db: db, server: server, home: home)
        #expect(agent.waitForLines(1, seconds: 30), "the startup reading; stderr: \(agent.stderr)")

        try FileManager.default.removeItem(at: folder)
        for n in 2...3 {
            // A forced request within 2 s of the last one joins it (ReadingScheduler.forcedJoinWindowS).
            if n > 2 { usleep(2_200_000) }
            agent.signal(SIGUSR1)
            #expect(agent.waitForLines(n, seconds: 30), "reading \(n); stderr: \(agent.stderr)")
        }
        // The lock went with the folder and was taken again on the new store: a second run is refused.
        let second = try CLIRunner.run(
            FixedPositionAgent.arguments(db: db), env: FixedPositionAgent.environment(server), home: home, timeout: 30)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(
            second.stderr.contains(
                "already recording into \(db)"), "\(second.stderr)")
        agent.signal(SIGTERM)
        let status = agent.waitForExit(seconds: 20)

        let readings = agent.stdoutLines.compactMap { try? JSONValue.parse($0) }
        #expect(readings.map { $0["id"]?.stringValue != nil } == [true, true, true], "\(agent.stdoutLines)")
        let storageLines = agent.stderrLines.map(\.line).filter { $0.hasPrefix("storage:") }
        #expect(
            storageLines == [
                "storage: the store \(db) was deleted or replaced while recording; what is recorded from now on goes to the file now at that path."
            ], "\(agent.stderr)")
        #expect(status == 0, "nothing was lost; stderr: \(agent.stderr)")
        let store = try SQLiteStore.forReading(path: db)
        #expect(try await store.readingCount() == 2, "the two readings after the deletion, in the new store")
        #expect(try await store.integrityCheck())
    }
}
