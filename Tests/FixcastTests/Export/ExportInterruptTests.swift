import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 24 item 7 through the binary: `export -o FILE` interrupted by SIGINT, SIGTERM or SIGHUP while
/// it writes leaves no hidden partial file (`.FILE.fixcast-XXXXXX`) and the old file as it was.
@Suite(.serialized, .scratch) struct ExportInterruptTests {
    /// An export of a long track into `out` (holding "old"), caught while it writes its partial file.
    struct Writing {
        let dir: URL
        let out: String
        let export: RunningFixcast

        func partials() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".fixcast-") }
        }
    }

    /// Starts `export -o` (through `/bin/sh -c script` when given: `"$0" "$@"` is fixcast and its
    /// arguments) and returns once it is well inside writing.
    func writing(_ label: String, shell script: String? = nil) throws -> Writing {
        let dir = TestPaths.temporaryDirectory(label)
        let db = dir.appendingPathComponent("fixcast.sqlite").path
        _ = try SQLiteStore(path: db)
        // Enough points that the export is still writing when the signal comes (seconds, not milliseconds).
        _ = try StoreTestData.sqlite3(
            db,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400000) INSERT INTO track_points (time, lat, lon, alt_m, mode, fix_time) SELECT 1800000000 + i, 50 + i * 0.000001, 10, 100, '3d', 1800000000 + i FROM n;"
        )
        let out = dir.appendingPathComponent("trip.gpx").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        let arguments = ["export", "--format", "gpx", "-o", out, "--db", db]
        let export =
            try script.map {
                try RunningFixcast(
                    ["-c", $0, TestPaths.fixcastBinary] + arguments, env: [:], home: dir, executable: "/bin/sh")
            } ?? RunningFixcast(arguments, env: [:], home: dir)
        let started = Writing(dir: dir, out: out, export: export)
        let deadline = Date().addingTimeInterval(30)
        while started.partials().isEmpty, export.process.isRunning, Date() < deadline { usleep(2_000) }
        #expect(!started.partials().isEmpty, "the export never began writing: \(export.stderr)")
        usleep(50_000)  // well inside the writing
        #expect(export.process.isRunning, "the export finished before the signal; the test needs more points")
        return started
    }

    @Test("an interrupted export -o removes its partial file", arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptedExportLeavesNoPartialFile(signal: Int32) async throws {
        let w = try writing("export-interrupt")
        defer {
            _ = w.export.waitForExit(seconds: 5)
            try? FileManager.default.removeItem(at: w.dir)
        }
        w.export.signal(signal)
        let status = w.export.waitForExit(seconds: 20)
        #expect(status == -signal, "exit \(String(describing: status)): \(w.export.stderr)")
        #expect(w.partials().isEmpty, "left behind: \(w.partials())")
        #expect(try String(contentsOfFile: w.out, encoding: .utf8) == "old")
    }

    /// Under `nohup` (SIGHUP ignored) a hang-up does not end the export: it finishes and writes the
    /// file. The partial-file handler went over the ignored SIGHUP and then died of it.
    @Test func aHangUpUnderNohupDoesNotEndTheExport() async throws {
        // As nohup leaves it: SIGHUP ignored, and the ignoring kept across exec.
        let w = try writing("export-nohup", shell: "trap '' HUP; exec \"$0\" \"$@\"")
        defer {
            _ = w.export.waitForExit(seconds: 5)
            try? FileManager.default.removeItem(at: w.dir)
        }
        w.export.signal(SIGHUP)
        #expect(w.export.waitForExit(seconds: 60) == 0, "\(w.export.stderr)")
        #expect(w.partials().isEmpty)
        let written = try String(contentsOfFile: w.out, encoding: .utf8)
        #expect(written.hasPrefix("<?xml") && written.contains("</gpx>"))
    }
}
