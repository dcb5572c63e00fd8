import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// Issues 23 (items 2, 4, 7, 10) and 24 (items 6, 9) through the binary: one judgement of a store for
/// every command, made before a byte is written; reading commands that read only and never create; an
/// unreadable store that says so; one `run` per store.
@Suite(.serialized, .scratch) struct StoreJudgementTests {
    /// The reading commands, each with what it needs to run offline.
    static let readingCommands: [[String]] = [
        ["trips"], ["trips", "--json"], ["export", "--format", "gpx"], ["export", "--format", "csv"],
        ["report", "-o", "-"], ["status", "--gpsd", "127.0.0.1:9"],
    ]
    /// The writing commands (no network: a fixed position, offline).
    static let writingCommands: [[String]] = [["now", "--at", "52.52,13.405", "--offline"]]

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func sidecars(_ path: String) -> [String] {
        ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    /// A store made by fixcast itself, with a short trip (3 track points) and one reading.
    static func fixcastStore(_ home: AcceptanceHome) throws -> String {
        let r = try home.run(["now", "--at", "52.52,13.405", "--offline"], env: Acceptance.env(nil))
        #expect(FileManager.default.fileExists(atPath: home.db), "stderr: \(r.stderr)")
        let t = 1_800_000_000
        _ = try StoreTestData.sqlite3(
            home.db,
            "INSERT INTO track_points (time, lat, lon, mode) VALUES (\(t), 52.5, 13.4, '3d'), (\(t + 10), 52.501, 13.4, '3d'), (\(t + 20), 52.502, 13.4, '3d');"
        )
        return home.db
    }

    @Test(
        "another program's database, random bytes and a truncated store are refused and left byte for byte as they were"
    )
    func foreignFilesAreLeftAsTheyWere() throws {
        let home = AcceptanceHome("judge-foreign")
        defer { home.remove() }
        let foreign = home.path("other.db")
        _ = try StoreTestData.sqlite3(
            foreign,
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');")
        #expect(try StoreTestData.sqlite3(foreign, "PRAGMA journal_mode") == "delete")
        let random = home.path("random.db")
        var generator = SeededBytes(seed: 23)
        try Data((0..<40_000).map { _ in generator.next() }).write(to: URL(fileURLWithPath: random))
        let storePath = try Self.fixcastStore(home)
        let whole = try #require(Self.bytes(storePath))
        let truncated = home.path("truncated.sqlite")
        try whole.prefix(100 + whole.count / 3).write(to: URL(fileURLWithPath: truncated))

        for (file, says) in [
            (foreign, "another program's SQLite database"), (random, "storage: "), (truncated, "storage: "),
        ] {
            let before = try #require(Self.bytes(file))
            for command in Self.readingCommands + Self.writingCommands + [
                ["run", "--at", "52.52,13.405", "--offline", "--json"]
            ] {
                let r = try home.run(command + ["--db", file], env: Acceptance.env(nil), timeout: 30)
                #expect(!r.timedOut)
                #expect(r.status == 1, "\(command) on \(file): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains(says), "\(command) on \(file): \(r.stderr)")
                #expect(Self.bytes(file) == before, "\(command) changed \(file)")
                #expect(Self.sidecars(file).isEmpty, "\(command) left \(Self.sidecars(file)) beside \(file)")
            }
        }
        #expect(try StoreTestData.sqlite3(foreign, "PRAGMA journal_mode") == "delete")
    }

    @Test(
        "reading commands on a mistyped --db create nothing: export exits 1 saying there is no store, status says no store yet"
    )
    func readingCommandsNeverCreateAStore() throws {
        let home = AcceptanceHome("judge-missing")
        defer { home.remove() }
        let missing = home.path("typo/fixcast.sqlit")
        for command in Self.readingCommands {
            let r = try home.run(command + ["--db", missing], env: Acceptance.env(nil))
            #expect(!FileManager.default.fileExists(atPath: missing), "\(command) created a store")
            #expect(!FileManager.default.fileExists(atPath: home.path("typo")), "\(command) created its folder")
            switch command[0] {
            case "export":
                #expect(r.status == 1)
                #expect(Acceptance.stderrLines(r) == [StorageError.missing(path: missing).message])
            case "status":
                #expect(r.status == 0, "\(r.stderr)")
                #expect(r.stdout.contains("no store yet"), "\(r.stdout)")
            case "report":
                #expect(r.status == 1)
            default:
                #expect(r.status == 0, "\(r.stderr)")
            }
        }
    }

    @Test(
        "a WAL store on read-only media is read and exported, not called read-only",
        .enabled(if: getuid() == 0, "mounting a read-only tmpfs needs root"))
    func readOnlyMediaIsRead() throws {
        let home = AcceptanceHome("judge-ro")
        defer { home.remove() }
        let media = home.path("media")
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        #expect(Self.shell(["/bin/mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", media]) == 0)
        defer { _ = Self.shell(["/bin/umount", media]) }
        let db = media + "/fixcast.sqlite"
        let setUp = AcceptanceHome("judge-ro-setup")
        defer { setUp.remove() }
        _ = try Self.fixcastStore(setUp)
        try FileManager.default.copyItem(atPath: setUp.db, toPath: db)
        #expect(try StoreTestData.sqlite3(db, "PRAGMA journal_mode") == "wal")
        #expect(Self.shell(["/bin/mount", "-o", "remount,ro", media]) == 0)
        #expect(Self.shell(["/usr/bin/touch", media + "/probe"]) != 0, "the media is not read-only")

        let trips = try home.run(["trips", "--json", "--db", db], env: Acceptance.env(nil))
        #expect(trips.status == 0, "\(trips.stderr)")
        #expect(try Acceptance.array(trips).count == 1)
        let gpx = try home.run(["export", "--format", "gpx", "--db", db], env: Acceptance.env(nil))
        #expect(gpx.status == 0, "\(gpx.stderr)")
        #expect(gpx.stdout.components(separatedBy: "<trkpt").count - 1 == 3)
        #expect(!gpx.stderr.contains("read-only"))
        let status = try home.run(["status", "--gpsd", "127.0.0.1:9", "--db", db], env: Acceptance.env(nil))
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains(" bytes, 1 reading\n"), "\(status.stdout)")
        let report = try home.run(["report", "-o", "-", "--db", db], env: Acceptance.env(nil))
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.hasPrefix("<?xml") || report.stdout.hasPrefix("<svg"))
        // Read from the main file alone, so `line --watch` opens it again for each look.
        #expect(try SQLiteStore.forGlance(path: db).readsMainFileAlone)
        #expect(try !SQLiteStore.forGlance(path: setUp.db).readsMainFileAlone)
    }

    /// The service's store opened to a group, with the -wal and -shm the service made still 0600: a
    /// reader in the group cannot use the -wal, where everything since the last checkpoint is. It used
    /// to read the main file alone (`immutable`) and answer from an old snapshot, exit 0 ("No trips"
    /// beside a recorded track); now it says that it cannot read the store's newest writes, exit 1.
    @Test(.enabled(if: getuid() == 0, "running as another user needs root"))
    func aWalThisUserCannotReadIsSaidNotSkipped() throws {
        let home = AcceptanceHome("judge-wal-unreadable")
        defer { home.remove() }
        chmod(home.dir.path, 0o755)
        let db = try Self.fixcastStore(home)
        // A writer killed with its track in the -wal (as a service is, mid-drive, seen from outside).
        _ = try StoreTestData.sqlite3(
            db,
            "PRAGMA wal_autocheckpoint=0; INSERT INTO track_points (time, lat, lon, mode) VALUES (1800003600, 52.6, 13.4, '3d'), (1800003610, 52.601, 13.4, '3d'); .system kill -9 $PPID"
        )
        let wal = db + "-wal"
        #expect((try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? 0) > 0, "no -wal left")
        chmod(db, 0o644)
        chmod(wal, 0o600)
        chmod(db + "-shm", 0o600)
        for command in [["trips"], ["line"], ["status", "--gpsd", "127.0.0.1:9"]] {
            let r = try Self.runAsNobody(command + ["--db", db], home: home)
            #expect(r.status == 1, "\(command): \(r.status) \(r.stdout) \(r.stderr)")
            #expect(r.stderr.contains("the database \(wal) cannot be read"), "\(command): \(r.stderr)")
            #expect(!r.stdout.contains("No trips"), "\(command): \(r.stdout)")
        }
        // Readable, it is read: both trips, the one in the -wal too.
        chmod(wal, 0o644)
        chmod(db + "-shm", 0o644)
        let trips = try Self.runAsNobody(["trips", "--json", "--db", db], home: home)
        #expect(trips.status == 0, "\(trips.stderr)")
        #expect(trips.stdout.components(separatedBy: "\"trip\":").count - 1 == 2, "\(trips.stdout)")
    }

    @Test(
        "a store in a folder this user cannot enter is 'cannot be read', exit 1, for every command",
        .enabled(if: getuid() == 0, "running as another user needs root"))
    func unreadableStoreSaysSo() throws {
        let home = AcceptanceHome("judge-unreadable")
        defer { home.remove() }
        chmod(home.dir.path, 0o755)
        let privateDir = home.path("private")
        try FileManager.default.createDirectory(atPath: privateDir, withIntermediateDirectories: true)
        let db = privateDir + "/fixcast.sqlite"
        let setUp = AcceptanceHome("judge-unreadable-setup")
        defer { setUp.remove() }
        _ = try Self.fixcastStore(setUp)
        try FileManager.default.copyItem(atPath: setUp.db, toPath: db)
        chmod(privateDir, 0o700)
        let commands =
            Self.readingCommands + Self.writingCommands + [["run", "--at", "52.52,13.405", "--offline", "--json"]]
        for command in commands {
            let r = try Self.runAsNobody(command + ["--db", db], home: home)
            #expect(!r.timedOut)
            #expect(r.status == 1, "\(command): \(r.status) \(r.stdout) \(r.stderr)")
            #expect(
                r.stderr.contains("cannot be read (permission denied on the folder \(privateDir))"),
                "\(command): \(r.stderr)")
            #expect(!r.stdout.contains("No trips"), "\(command): \(r.stdout)")
        }
        // A command that only uses the store as a cache says so too: the forecast is shown, and exit 1.
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let forecast = try Self.runAsNobody(
            ["forecast", "--at", "52.52,13.405", "--db", db], home: home, env: Acceptance.env(server))
        #expect(forecast.status == 1, "\(forecast.stderr)")
        #expect(!forecast.stdout.isEmpty)
        #expect(forecast.stderr.contains("cannot be read"), "\(forecast.stderr)")
        let readable = try home.run(["forecast", "--at", "52.52,13.405", "--db", db], env: Acceptance.env(server))
        #expect(readable.status == 0, "the same forecast as the owner: \(readable.stderr)")
    }

    @Test("an empty file (as touch or mktemp leaves) is no store yet to a reading command, as a missing path is")
    func anEmptyFileIsNoStoreYet() throws {
        let home = AcceptanceHome("judge-empty")
        defer { home.remove() }
        let empty = home.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let missing = home.path("missing.sqlite")
        for command in Self.readingCommands + [["line"]] {
            let a = try home.run(command + ["--db", empty], env: Acceptance.env(nil))
            let b = try home.run(command + ["--db", missing], env: Acceptance.env(nil))
            #expect(a.status == b.status, "\(command): \(a.stderr)")
            #expect(a.stdout.replacingOccurrences(of: empty, with: missing) == b.stdout, "\(command)")
            #expect(a.stderr.replacingOccurrences(of: empty, with: missing) == b.stderr, "\(command)")
            #expect(!a.stderr.contains("older schema"), "\(command): \(a.stderr)")
        }
        // Read only: still 0 bytes, nothing beside it; a writing command then claims it.
        #expect(Self.bytes(empty)?.isEmpty == true)
        #expect(Self.sidecars(empty).isEmpty)
        _ = try home.run(Self.writingCommands[0] + ["--db", empty], env: Acceptance.env(nil))
        #expect(try StoreTestData.sqlite3(empty, "PRAGMA user_version") == String(StoreSchema.currentVersion))
    }

    @Test("a store that quick_check finds damaged is refused by now as by trips and export (one judgement)")
    func damagedStoreIsOneJudgement() throws {
        let home = AcceptanceHome("judge-damaged")
        defer { home.remove() }
        let db = try Self.fixcastStore(home)
        // Enough track points for a table of many pages, then one leaf page far from where new rows go is zeroed.
        _ = try StoreTestData.sqlite3(
            db,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO track_points (time, lat, lon, mode) SELECT 1700000000 + i, 50 + i * 0.0001, 10, '3d' FROM n;"
        )
        try StoreTestData.zeroPage(
            db,
            "SELECT pageno FROM dbstat WHERE name = 'track_points' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 5"
        )
        #expect(try StoreTestData.sqlite3(db, "PRAGMA integrity_check") != "ok")

        for command in Self.writingCommands + [["trips"], ["export", "--format", "csv"], ["report", "-o", "-"]] {
            let r = try home.run(command + ["--db", db], env: Acceptance.env(nil))
            #expect(r.status == 1, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("is damaged"), "\(command): \(r.stderr)")
        }
        let run = try home.run(
            ["run", "--at", "52.52,13.405", "--offline", "--json", "--db", db], env: Acceptance.env(nil), timeout: 30)
        #expect(run.status == 1 && !run.timedOut)
        #expect(Acceptance.stderrLines(run).count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("is damaged"))
        // SQLite's own report is summed up, never cut mid-word: "(SQLite's check found N problems)".
        #expect(run.stderr.contains("SQLite's check"), "\(run.stderr)")
        // status says the store is damaged, and does not claim it holds no reading.
        let status = try home.run(["status", "--gpsd", "127.0.0.1:9", "--db", db], env: Acceptance.env(nil))
        #expect(status.stdout.contains("reading   unknown: the store could not be read"), "\(status.stdout)")
        #expect(!status.stdout.contains("none stored yet"), "\(status.stdout)")
    }

    @Test("a second run on a store names the first and exits 1; now, trips, export and status work beside it")
    func secondRunIsRefused() throws {
        let home = AcceptanceHome("judge-lock")
        defer { home.remove() }
        let server = try Acceptance.recordedServer()
        defer { server.stop() }
        let env = Acceptance.env(server)
        let first = try RunningFixcast(
            ["run", "--at", "52.52,13.405", "--json", "--db", home.db], env: env, home: home.dir)
        defer {
            first.signal(SIGTERM)
            _ = first.waitForExit()
        }
        #expect(first.waitForLines(1, seconds: 30), "\(first.stderr)")
        let second = try home.run(["run", "--at", "52.52,13.405", "--json"], env: env, timeout: 30)
        #expect(second.status == 1 && !second.timedOut)
        #expect(
            Acceptance.stderrLines(second)
                == [StorageError.heldByRun(path: home.db, pid: Int(first.process.processIdentifier)).message])
        #expect(second.stdout.isEmpty)
        for command in [
            ["now", "--at", "52.52,13.405"], ["trips"], ["export", "--format", "csv"],
            ["status", "--gpsd", "127.0.0.1:9"],
        ] {
            let r = try home.run(command, env: env)
            #expect(r.status == 0, "\(command) beside a run: \(r.stderr)")
        }
        first.signal(SIGTERM)
        #expect(first.waitForExit() == 0)
        // The lock goes with its holder: a run after it starts.
        let third = try RunningFixcast(
            ["run", "--at", "52.52,13.405", "--json", "--db", home.db], env: env, home: home.dir)
        #expect(third.waitForLines(1, seconds: 30), "\(third.stderr)")
        third.signal(SIGTERM)
        #expect(third.waitForExit() == 0)
    }

    /// A store this user may read but not write (another user's, read-only media): SQLite opens it
    /// for reading, and a writer that can store nothing stops at once, exit 1, saying so: `run` used to
    /// keep running for days printing readings with `"id": null`. The reading commands still read it.
    @Test(.enabled(if: getuid() == 0, "running as another user needs root"))
    func aWriterStopsAtOnceOnAStoreItCannotWrite() throws {
        let home = AcceptanceHome("judge-read-only")
        defer { home.remove() }
        chmod(home.dir.path, 0o755)
        let db = try Self.fixcastStore(home)
        // Without a WAL, reading needs no -shm beside it (the folder is not this user's to write).
        _ = try StoreTestData.sqlite3(db, "PRAGMA journal_mode=DELETE;")
        chmod(db, 0o644)
        for command in Self.writingCommands + [["run", "--at", "52.52,13.405", "--offline", "--json"]] {
            let r = try Self.runAsNobody(command + ["--db", db], home: home)
            #expect(!r.timedOut && r.status == 1, "\(command): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(StorageError.readOnly(path: db).message), "\(command): \(r.stderr)")
        }
        let trips = try Self.runAsNobody(["trips", "--db", db], home: home)
        #expect(trips.status == 0 && trips.stdout.contains("0.2 km"), "\(trips.stdout) \(trips.stderr)")
    }

    /// A writer ends with its store closed: SQLite's last close copies the -wal into the file and
    /// removes the side files, so the store is one file again (a `cp` of it holds every reading).
    /// `now` left its -wal one time in two (the process `_exit`s), `run` stopped by SIGTERM too.
    @Test func aWriterLeavesTheStoreOneFile() throws {
        let home = AcceptanceHome("judge-closed")
        defer { home.remove() }
        for k in 0..<6 {
            let r = try home.run(["now", "--at", "52.5\(k),13.4", "--offline"], env: Acceptance.env(nil))
            #expect(FileManager.default.fileExists(atPath: home.db), "\(r.stderr)")
            #expect(Self.sidecars(home.db).isEmpty, "after now \(k): \(Self.sidecars(home.db))")
        }
        for _ in 0..<2 {
            let run = try RunningFixcast(
                ["run", "--at", "52.52,13.405", "--offline", "--json", "--db", home.db], env: Acceptance.env(nil),
                home: home.dir)
            #expect(run.waitForLines(1, seconds: 30), "\(run.stderr)")
            run.signal(SIGTERM)
            #expect(run.waitForExit() == 0)
            #expect(Self.sidecars(home.db).isEmpty, "after run: \(Self.sidecars(home.db))")
        }
        #expect(try StoreTestData.sqlite3(home.db, "SELECT count(*) FROM readings") == "8")
    }

    // MARK: Support

    static func shell(_ argv: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// `fixcast args…` as the user nobody (runuser), with the test's clean environment.
    static func runAsNobody(_ args: [String], home: AcceptanceHome, env extra: [String: String] = Acceptance.env(nil))
        throws -> CLIResult
    {
        var env = fixcastEnvironment(home: home.dir, adding: extra)
        env["HOME"] = "/nonexistent"
        let envArgs = env.map { "\($0.key)=\($0.value)" }
        return try CLIRunner.run(
            executable: "/usr/sbin/runuser",
            // `timeout` inside: a fixcast that does not end is killed (runuser's own end would leave it).
            arguments: ["-u", "nobody", "--", "/usr/bin/timeout", "25", "/usr/bin/env", "-i"] + envArgs
                + [TestPaths.fixcastBinary] + args,
            environment: nil, timeout: 30)
    }
}

/// A deterministic byte source (xorshift64*), so a "random" file is the same in every run.
struct SeededBytes {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func nextWord() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func next() -> UInt8 { UInt8(truncatingIfNeeded: nextWord() >> 32) }
}
