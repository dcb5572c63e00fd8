import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 24 item 7 through the binary: `export -o FILE` interrupted by SIGINT, SIGTERM or SIGHUP while
/// it writes leaves no hidden partial file (`.FILE.fixcast-XXXXXX`) and the old file as it was.
@Suite(.serialized, .scratch) struct ExportInterruptTests {
    @Test("an interrupted export -o removes its partial file", arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptedExportLeavesNoPartialFile(signal: Int32) async throws {
        let dir = TestPaths.temporaryDirectory("export-interrupt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fixcast.sqlite").path
        _ = try SQLiteStore(path: db)
        // Enough points that the export is still writing when the signal comes (seconds, not milliseconds).
        _ = try StoreTestData.sqlite3(
            db,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400000) INSERT INTO track_points (time, lat, lon, alt_m, mode, fix_time) SELECT 1800000000 + i, 50 + i * 0.000001, 10, 100, '3d', 1800000000 + i FROM n;"
        )
        let out = dir.appendingPathComponent("trip.gpx").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        let export = try RunningFixcast(["export", "--format", "gpx", "-o", out, "--db", db], env: [:], home: dir)
        defer { _ = export.waitForExit(seconds: 5) }
        func partials() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".fixcast-") }
        }
        let deadline = Date().addingTimeInterval(30)
        while partials().isEmpty, export.process.isRunning, Date() < deadline { usleep(2_000) }
        #expect(!partials().isEmpty, "the export never began writing: \(export.stderr)")
        usleep(50_000)  // well inside the writing
        #expect(export.process.isRunning, "the export finished before the signal; the test needs more points")
        export.signal(signal)
        let status = export.waitForExit(seconds: 20)
        #expect(status == -signal, "exit \(String(describing: status)): \(export.stderr)")
        #expect(partials().isEmpty, "left behind: \(partials())")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
    }

    /// Under `nohup` (SIGHUP ignored) a hang-up does not end the export: it finishes and writes the
    /// file. The partial-file handler went over the ignored SIGHUP and then died of it.
    @Test func aHangUpUnderNohupDoesNotEndTheExport() async throws {
        let dir = TestPaths.temporaryDirectory("export-nohup")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("fixcast.sqlite").path
        _ = try SQLiteStore(path: db)
        _ = try StoreTestData.sqlite3(
            db,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400000) INSERT INTO track_points (time, lat, lon, alt_m, mode, fix_time) SELECT 1800000000 + i, 50 + i * 0.000001, 10, 100, '3d', 1800000000 + i FROM n;"
        )
        let out = dir.appendingPathComponent("trip.gpx").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        // As nohup leaves it: SIGHUP ignored, and the ignoring kept across exec.
        let export = try RunningFixcast(
            [
                "-c", "trap '' HUP; exec \"$0\" \"$@\"", TestPaths.fixcastBinary, "export", "--format", "gpx", "-o",
                out, "--db", db,
            ],
            env: [:], home: dir, executable: "/bin/sh")
        defer { _ = export.waitForExit(seconds: 5) }
        func partials() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".fixcast-") }
        }
        let deadline = Date().addingTimeInterval(30)
        while partials().isEmpty, export.process.isRunning, Date() < deadline { usleep(2_000) }
        #expect(!partials().isEmpty, "the export never began writing: \(export.stderr)")
        usleep(50_000)
        #expect(export.process.isRunning, "the export finished before the signal; the test needs more points")
        export.signal(SIGHUP)
        #expect(export.waitForExit(seconds: 60) == 0, "\(export.stderr)")
        #expect(partials().isEmpty)
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.hasPrefix("<?xml") && written.contains("</gpx>"))
    }
}
