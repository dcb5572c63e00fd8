import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// fixcast's own store code in a separate process, killed with SIGKILL mid-write.
///
/// The child is this test bundle run again with a filter that selects `killWriterLoop` and an
/// environment variable naming the database: it inserts readings and records track fixes through
/// `SQLiteStore` and `TrackWriter` as the agent does, printing what is committed after each
/// commit. The parent kills it without warning, then checks the file.
@Suite(.scratch) struct StoreKillTests {
    static let databaseVariable = "FIXCAST_TEST_KILL_WRITER_DB"

    @Test func aStoreKilledMidWriteKeepsEveryCommittedRowAndIsIntact() async throws {
        let dir = TestPaths.temporaryDirectory("kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("fixcast.sqlite").path
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "killWriterLoop"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = path
        child.environment = environment
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        TestScratch.own(child)

        let handle = out.fileHandleForReading
        var text = ""
        var last: (readings: Int, track: Int) = (0, 0)
        func parse() {
            for line in text.split(separator: "\n") where line.hasPrefix("COMMITTED ") {
                let parts = line.split(separator: " ")
                if parts.count == 3, let r = Int(parts[1]), let t = Int(parts[2]) { last = (r, t) }
            }
        }
        while last.readings < 150 || last.track < 50 {
            let chunk = handle.availableData
            if chunk.isEmpty { break }  // the child ended on its own: the expectations below fail
            text += String(decoding: chunk, as: UTF8.self)
            parse()
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        text += String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        parse()
        #expect(last.readings >= 150 && last.track >= 50, "the writer did not get going: \(text.suffix(500))")

        let store = try SQLiteStore(path: path)
        #expect(try await store.integrityCheck())
        #expect(try await store.readingCount() >= last.readings)
        #expect(try await store.trackPointCount() >= last.track)
        var times: [Date] = []
        var aheads: [AheadForecast?] = []
        try await store.forEachReading(since: nil, until: nil) {
            times.append($0.time)
            aheads.append($0.ahead)
        }
        // Readings 1...n with none missing in between, each with the forecast it carried.
        #expect(times == (1...times.count).map { StoreTestData.t0.addingTimeInterval(Double($0)) })
        let carried: [AheadForecast?] = (1...times.count).map { i -> AheadForecast? in
            i % 2 == 0 ? StoreTestData.aheadForecast(at: Double(i)) : nil
        }
        #expect(aheads == carried)
    }

    /// The child's work; does nothing in an ordinary test run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[databaseVariable] != nil))
    func killWriterLoop() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.databaseVariable])
        let store = try SQLiteStore(path: path)
        let writer = TrackWriter(store: store, report: { _ in })
        let deadline = Date().addingTimeInterval(60)  // never outlive a parent that died
        var i = 0
        while Date() < deadline {
            i += 1
            for k in 0..<5 { writer.record(StoreTestData.fix(at: Double(i * 5 + k))) }
            _ = writer.finish(timeoutS: 10)
            // Every other reading carries an ahead forecast, stored in the reading's transaction.
            try await store.insertReading(
                StoreTestData.reading(
                    at: Double(i), ahead: i % 2 == 0 ? StoreTestData.aheadForecast(at: Double(i)) : nil))
            let track = try await store.trackPointCount()
            Console.out("COMMITTED \(i) \(track)\n")
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
