import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Issue 11 item 2 through the binary: `export -o` writes devices and FIFOs in place, replaces a
/// regular file atomically, follows a symlink, and `-` is standard output.
@Suite(.serialized, .scratch) struct ExportTargetTests {
    /// A home and a store with readings (ExportTestSupport's), for `--db`.
    static func setUp(_ label: String) async throws -> (AcceptanceHome, String) {
        let home = AcceptanceHome(label)
        let store = try await ExportTestSupport.populatedStore()
        return (home, store.path)
    }

    static func export(_ home: AcceptanceHome, db: String, _ extra: [String]) throws -> CLIResult {
        try home.run(["export", "--format", "csv", "--db", db] + extra, env: Acceptance.env(nil), timeout: 30)
    }

    static func fileType(_ path: String) -> mode_t {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0 }
        return st.st_mode & S_IFMT
    }

    static func leftovers(in dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.contains(".fixcast-") || $0.hasSuffix(".partial")
        }
    }

    @Test("a regular file is replaced whole and keeps its mode; no temporary file is left")
    func regularFileReplaced() async throws {
        let (home, db) = try await Self.setUp("export-regular")
        defer { home.remove() }
        let out = home.path("out.csv")
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        chmod(out, 0o640)
        let r = try Self.export(home, db: db, ["-o", out])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("time,trigger,"))
        var st = stat()
        #expect(stat(out, &st) == 0 && st.st_mode & 0o7777 == 0o640)
        #expect(try Self.leftovers(in: home.dir.path).isEmpty)
    }

    @Test("-o naming the store itself, a link to it or its -wal is exit 2, and the store is left whole")
    func theStoreItselfIsRefused() async throws {
        let (home, db) = try await Self.setUp("export-over-store")
        defer { home.remove() }
        let before = try Self.export(home, db: db, [])
        #expect(before.status == 0)
        let link = home.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: db)
        // The -wal beside it: a writer left it (a reader's open would not).
        #expect(FileManager.default.createFile(atPath: db + "-wal", contents: Data()))
        for target in [db, link, db + "-wal"] {
            let r = try Self.export(home, db: db, ["-o", target])
            #expect(r.status == 2, "\(target): \(r.stderr)")
            #expect(
                r.stderr.hasPrefix("fixcast: -o ") && r.stderr.contains("is the store being read"), "\(r.stderr)")
        }
        #expect(Self.fileType(link) == S_IFLNK)
        let after = try Self.export(home, db: db, [])
        #expect(after.status == 0 && after.stdout == before.stdout, "the store still holds every reading")
    }

    /// `-journal` (and `-wal`) exist only while the store is written: an export left under that name
    /// was a hot journal to SQLite, every reading command failed, and the next writer deleted it.
    @Test("-o naming the store's -journal or -wal that is not there yet is exit 2 too, by another spelling as well")
    func aJournalNotThereYetIsRefused() async throws {
        let (home, db) = try await Self.setUp("export-over-journal")
        defer { home.remove() }
        let folder = (db as NSString).deletingLastPathComponent
        let name = (db as NSString).lastPathComponent
        for target in [db + "-journal", db + "-wal", folder + "/./" + name + "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: target))
            let r = try Self.export(home, db: db, ["-o", target])
            #expect(r.status == 2, "\(target): \(r.stderr)")
            #expect(r.stderr.contains("is the store being read"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        let other = try Self.export(home, db: db, ["-o", db + "-export.csv"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try Self.export(home, db: db, []).status == 0)
    }

    @Test("a stored row that cannot be read is left out and said: exit 1, the rest written, never 'move it aside'")
    func anUnreadableRowIsLeftOutAndSaid() async throws {
        let (home, db) = try await Self.setUp("export-bad-row")
        defer { home.remove() }
        // A position off the globe, and a reading whose JSON this fixcast cannot read.
        _ = try StoreTestData.sqlite3(
            db,
            "INSERT INTO track_points(time, lat, lon, mode, fix_time) VALUES (1.8e9, 95, 10, '3d', 1.8e9); "
                + "UPDATE readings SET json = '{\"trigger\":\"future\"}' WHERE id = 2;")
        let out = home.path("out.gpx")
        let r = try home.run(
            ["export", "--format", "gpx", "--db", db, "-o", out], env: Acceptance.env(nil), timeout: 30)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix("storage: 2 stored rows of \(db) could not be read and were left out"), "\(r.stderr)")
        #expect(!r.stderr.contains("move it aside"))
        let gpx = try String(contentsOfFile: out, encoding: .utf8)
        #expect(gpx.components(separatedBy: "<trkpt").count - 1 == 20, "the 20 good points")
        #expect(gpx.components(separatedBy: "<wpt").count - 1 == 1, "the one readable reading with a position")
    }

    @Test("a new path is created")
    func newPathCreated() async throws {
        let (home, db) = try await Self.setUp("export-new")
        defer { home.remove() }
        let out = home.path("new.csv")
        let r = try Self.export(home, db: db, ["-o", out])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(Self.fileType(out) == S_IFREG)
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("time,trigger,"))
    }

    @Test("a symlink is followed: its target is written and the link stays a link (also when the target is new)")
    func symlinkFollowed() async throws {
        let (home, db) = try await Self.setUp("export-link")
        defer { home.remove() }
        let sub = home.path("real")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let target = sub + "/target.csv"
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        let link = home.path("link.csv")
        #expect(symlink("real/target.csv", link) == 0)
        let r = try Self.export(home, db: db, ["-o", link])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("time,trigger,"))

        let dangling = home.path("dangling.csv")
        #expect(symlink(sub + "/later.csv", dangling) == 0)
        let r2 = try Self.export(home, db: db, ["-o", dangling])
        #expect(r2.status == 0, "stderr: \(r2.stderr)")
        #expect(Self.fileType(dangling) == S_IFLNK)
        #expect(try String(contentsOfFile: sub + "/later.csv", encoding: .utf8).hasPrefix("time,trigger,"))
    }

    @Test("a FIFO is written through to its reader and stays a FIFO")
    func fifoWrittenThrough() async throws {
        let (home, db) = try await Self.setUp("export-fifo")
        defer { home.remove() }
        let fifo = home.path("pipe.csv")
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = LockedData()
        let reader = Thread {
            // Opening a FIFO for reading waits for the writer; reading ends at the writer's close.
            if let h = FileHandle(forReadingAtPath: fifo) { received.set(h.readDataToEndOfFile()) }
        }
        reader.start()
        let r = try Self.export(home, db: db, ["-o", fifo])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let deadline = Date().addingTimeInterval(10)
        while !reader.isFinished, Date() < deadline { usleep(10_000) }
        #expect(String(decoding: received.get(), as: UTF8.self).hasPrefix("time,trigger,"))
        #expect(Self.fileType(fifo) == S_IFIFO)
    }

    @Test("/dev/full is written through, stays a device, and the write error is exit 1 with one sentence")
    func devFull() async throws {
        let (home, db) = try await Self.setUp("export-full")
        defer { home.remove() }
        let r = try Self.export(home, db: db, ["-o", "/dev/full"])
        #expect(r.status == 1)
        let lines = Acceptance.stderrLines(r)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("storage: ") == true && lines.first?.contains("/dev/full") == true)
        #expect(Self.fileType("/dev/full") == S_IFCHR)
    }

    @Test("-o - writes to standard output and creates no file named -")
    func dashIsStdout() async throws {
        let (home, db) = try await Self.setUp("export-dash")
        defer { home.remove() }
        let cwdDash = FileManager.default.currentDirectoryPath + "/-"
        let existed = FileManager.default.fileExists(atPath: cwdDash)
        let r = try Self.export(home, db: db, ["-o", "-"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.hasPrefix("time,trigger,"))
        #expect(FileManager.default.fileExists(atPath: cwdDash) == existed)
    }

    @Test("-o /dev/stdout (a pipe here) is written through to standard output")
    func devStdout() async throws {
        let (home, db) = try await Self.setUp("export-devstdout")
        defer { home.remove() }
        let r = try Self.export(home, db: db, ["-o", "/dev/stdout"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.hasPrefix("time,trigger,"))
        #expect(Self.fileType("/dev/stdout") == S_IFLNK)
    }

    @Test("a regular file of its own under /dev (tmpfs /dev/shm) is replaced, not appended to")
    func fileUnderDevIsReplaced() async throws {
        let (home, db) = try await Self.setUp("export-devshm")
        defer { home.remove() }
        // /dev/shm is a tmpfs on every Linux this runs on (glibc's shm_open needs it).
        let out = "/dev/shm/fixcast-export-\(getpid()).csv"
        defer { unlink(out) }
        for _ in 0..<2 {
            let r = try Self.export(home, db: db, ["-o", out])
            #expect(r.status == 0, "stderr: \(r.stderr)")
        }
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.components(separatedBy: "time,trigger,").count == 2, "one header, one export: \(text.prefix(200))")
        #expect(Self.fileType(out) == S_IFREG)
    }

    @Test(arguments: [
        ("/dev/stdout", true), ("/dev/stderr", true), ("/dev/stdin", true), ("/dev/fd/3", true),
        ("/proc/self/fd/1", true), ("/proc/thread-self/fd/12", true), ("/proc/4242/fd/0", true),
        ("/dev//stdout", true), ("/dev/./fd/1", true), ("/proc/self/task/4243/fd/1", true),
        ("/dev/shm/trip.gpx", false), ("/dev/fd/x", false), ("/dev/fd/", false), ("/proc/self/fd/1/x", false),
        ("/proc/self/environ", false), ("/home/me/dev/fd/1", false), ("dev/fd/1", false),
        ("/dev/../dev/stdout", false),
    ])
    func descriptorPaths(path: String, isDescriptor: Bool) {
        #expect(ExportTarget.namesADescriptor(path) == isDescriptor)
    }

    @Test("-o '' is exit 2 naming -o; a folder is exit 1 and the folder is left alone")
    func emptyAndFolder() async throws {
        let (home, db) = try await Self.setUp("export-empty")
        defer { home.remove() }
        let empty = try Self.export(home, db: db, ["-o", ""])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("-o"), "\(empty.stderr)")
        let folder = home.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = try Self.export(home, db: db, ["-o", folder])
        #expect(r.status == 1)
        #expect(Self.fileType(folder) == S_IFDIR)
        #expect(r.stderr.hasPrefix("storage: "), "\(r.stderr)")
    }

    @Test("a failed export leaves the old file as it was")
    func failedExportKeepsOldFile() async throws {
        let (home, _) = try await Self.setUp("export-fail")
        defer { home.remove() }
        let out = home.path("out.csv")
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        // A store that is not SQLite: the export fails after the target was chosen.
        let bad = home.path("not-a-store.sqlite")
        try String(repeating: "garbage ", count: 1000).write(toFile: bad, atomically: false, encoding: .utf8)
        let r = try Self.export(home, db: bad, ["-o", out])
        #expect(r.status == 1)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
        #expect(try Self.leftovers(in: home.dir.path).isEmpty)
    }

    @Test("an export that fails after writing part of the file leaves the old file and no temporary file")
    func failureMidWriteKeepsOldFile() throws {
        let dir = TestPaths.temporaryDirectory("export-midfail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.gpx").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        #expect(throws: ExportError.self) {
            try withExportSink(.file(path: out)) { (sink: ExportSink) throws(ExportError) in
                try sink.write(String(repeating: "new data\n", count: 20_000))  // past one 64 KiB chunk
                try sink.flush()
                throw ExportError.writeFailed(target: out, detail: "injected")
            }
        }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
        #expect(try Self.leftovers(in: dir.path).isEmpty)
    }
}
