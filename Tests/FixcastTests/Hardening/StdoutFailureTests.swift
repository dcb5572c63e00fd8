import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issue 23 item 8 through the binary: a write to stdout that is lost (stdout on /dev/full, or
/// closed) is exit 1 with one sentence on stderr, as `cat` and `jq` do; a reader that went away
/// (EPIPE, `| head -1`) stays quiet and exits 0.
@Suite(.serialized, .scratch) struct StdoutFailureTests {
    /// How stdout is wired, as a bash redirection of the fixcast process.
    enum Stdout: String {
        case full = ">/dev/full"
        case closed = ">&-"
        /// A pipe whose only reader is gone before fixcast writes (fixcast takes longer to start than
        /// `true` to end): every write is EPIPE.
        case readerGone = "| true"
    }

    /// `fixcast args…` with stdout wired as `stdout`, stderr captured; exit status of fixcast itself.
    static func run(_ args: [String], stdout: Stdout, env: [String: String], home: AcceptanceHome) throws -> CLIResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        let script =
            stdout == .readerGone
            ? "\"$0\" \"$@\" \(stdout.rawValue); exit ${PIPESTATUS[0]}"
            : "exec \"$0\" \"$@\" \(stdout.rawValue)"
        p.arguments = ["-c", script, TestPaths.fixcastBinary] + args
        p.environment = fixcastEnvironment(home: home.dir, adding: env)
        let err = Pipe()
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(60)
        while p.isRunning, Date() < deadline { usleep(10_000) }
        let timedOut = p.isRunning
        if timedOut { stopProcess(p) }
        p.waitUntilExit()
        return CLIResult(
            status: p.terminationStatus, stdout: "", stderr: String(decoding: errData, as: UTF8.self),
            timedOut: timedOut)
    }

    /// Every command that prints on stdout, with what it needs from the loopback server.
    static func commands(_ home: AcceptanceHome) -> [[String]] {
        let db = ["--db", home.db]
        return [
            ["--help"],
            ["now", "--help"],
            ["now", "--json", "--at", "52.52,13.405"] + db,
            ["now", "--at", "52.52,13.405"] + db,
            ["trips"] + db,
            ["trips", "--json"] + db,
            ["status", "--gpsd", "127.0.0.1:9"] + db,
            ["alerts", "--at", "48.85,2.35"] + db,
            ["search", "Berlin"] + db,
            ["search", "Berlin", "--json"] + db,
            ["forecast", "--at", "52.52,13.405"] + db,
            ["--version"],
        ]
    }

    static func env(_ server: FixtureServer) -> [String: String] {
        Acceptance.env(
            server,
            [
                "FIXCAST_ALERTS_ENABLED": "true", "FIXCAST_ALERTS_NWS_BASE_URL": server.baseURL,
                "FIXCAST_ALERTS_METALERTS_BASE_URL": server.baseURL,
                // Berlin and Paris are MeteoAlarm's, which the recorded server does not serve: "not covered"
                // still prints (what these tests need), without a request.
                "FIXCAST_ALERTS_SOURCE": "none",
            ])
    }

    @Test(
        "stdout on /dev/full or closed: exit 1 and one sentence naming standard output",
        arguments: [Stdout.full, .closed])
    func lostOutputIsAFailure(_ stdout: Stdout) throws {
        let home = AcceptanceHome("stdout-lost")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        for args in Self.commands(home) {
            let r = try Self.run(args, stdout: stdout, env: Self.env(server), home: home)
            #expect(!r.timedOut, "\(args)")
            #expect(r.status == 1, "\(args) \(stdout): exit \(r.status), stderr: \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            let sentence = lines.last.map(String.init) ?? ""
            #expect(sentence.hasPrefix("fixcast: could not write to standard output: "), "\(args): \(r.stderr)")
            #expect(
                sentence.contains(stdout == .full ? "No space left on device" : "Bad file descriptor"),
                "\(args): \(r.stderr)")
            #expect(
                r.stderr.components(separatedBy: "could not write to standard output").count == 2,
                "said once: \(r.stderr)")
        }
    }

    /// `export` and `report -o -` write through their own sink, not `Console`: a closed stdout (with
    /// /dev/null standing in) passed for written, exit 0. As `> /dev/full` did not, nor does it now.
    @Test(
        "export and report -o - to a closed stdout or /dev/full: exit 1, naming standard output",
        arguments: [
            Stdout.full, .closed,
        ])
    func lostExportIsAFailure(_ stdout: Stdout) async throws {
        let home = AcceptanceHome("stdout-lost-export")
        defer { home.remove() }
        let store = try SQLiteStore(path: home.db)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        try await store.appendTrackPoints(
            (0..<5).map { i in
                Fix(
                    time: t0.addingTimeInterval(Double(i) * 10), receivedAt: t0.addingTimeInterval(Double(i) * 10),
                    coordinate: Coordinate(lat: 52 + Double(i) * 0.001, lon: 13)!, mode: .threeD)
            })
        // `-o /dev/stdout` and `/dev/fd/1` name stdout as `-` does (a closed one was /dev/null and passed).
        for args in [
            ["export", "--format", "gpx"], ["export", "--format", "csv"], ["report", "-o", "-"],
            ["export", "--format", "gpx", "-o", "/dev/stdout"], ["export", "--format", "csv", "-o", "/dev/fd/1"],
        ] {
            let r = try Self.run(args + ["--db", home.db], stdout: stdout, env: Acceptance.env(nil), home: home)
            #expect(r.status == 1, "\(args) \(stdout): exit \(r.status), stderr: \(r.stderr)")
            #expect(r.stderr.contains("standard output") || r.stderr.contains(" /dev/"), "\(args): \(r.stderr)")
            #expect(
                r.stderr.contains(stdout == .full ? "No space left on device" : "Bad file descriptor"),
                "\(args): \(r.stderr)")
        }
    }

    /// `fixcast export | head` once said "writing the export to standard output failed (Broken pipe);
    /// check free space" with exit 1: export and report write through their own sink, which now takes
    /// a reader gone as every other command does.
    @Test("export and report -o - to a reader that went away: exit 0, nothing on stderr")
    func exportToAReaderGoneStaysQuiet() async throws {
        let home = AcceptanceHome("stdout-epipe-export")
        defer { home.remove() }
        let store = try SQLiteStore(path: home.db)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        // More than the sink's 64 KiB chunk: the pipe breaks mid-export, not only at the last write.
        try await store.appendTrackPoints(
            (0..<2000).map { i in
                Fix(
                    time: t0.addingTimeInterval(Double(i)), receivedAt: t0.addingTimeInterval(Double(i)),
                    coordinate: Coordinate(lat: 52 + Double(i) * 0.0001, lon: 13)!, mode: .threeD)
            })
        for args in [["export", "--format", "gpx"], ["export", "--format", "geojson"], ["report", "-o", "-"]] {
            let r = try Self.run(args + ["--db", home.db], stdout: .readerGone, env: Acceptance.env(nil), home: home)
            #expect(r.status == 0, "\(args): exit \(r.status), stderr: \(r.stderr)")
            #expect(r.stderr.isEmpty, "\(args): \(r.stderr)")
        }
    }

    @Test("a reader that went away (EPIPE) is no failure: exit 0, nothing on stderr")
    func closedPipeStaysQuiet() throws {
        let home = AcceptanceHome("stdout-epipe")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        for args in Self.commands(home) {
            let r = try Self.run(args, stdout: .readerGone, env: Self.env(server), home: home)
            #expect(r.status == 0, "\(args): exit \(r.status), stderr: \(r.stderr)")
            #expect(r.stderr.isEmpty, "\(args): \(r.stderr)")
        }
    }
}
