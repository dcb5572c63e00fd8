import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// What a reader or writer sees when the disk refuses: read-only, and a process killed mid-write.
@Suite(.scratch) struct StoreFailureTests {
    /// A read-only connection (root ignores file modes, so the read-only open flag is what works
    /// everywhere) reads what is there and turns every write into `StorageError.readOnly`.
    @Test func aReadOnlyStoreReadsAndRefusesWrites() async throws {
        let path = StoreTestData.temporaryStorePath()
        let reading = StoreTestData.reading()
        try await SQLiteStore(path: path).insertReading(reading)
        let ro = try SQLiteStore(path: path, readOnly: true)
        #expect(try await ro.lastReading() == reading)
        await #expect(throws: StorageError.readOnly(path: path)) { try await ro.insertReading(reading) }
        await #expect(throws: StorageError.readOnly(path: path)) {
            try await ro.appendTrackPoints([StoreTestData.fix(at: 0)])
        }
        await #expect(throws: StorageError.readOnly(path: path)) { try await ro.setState("k", "v") }
        #expect(StorageError.readOnly(path: path).message.contains(path))
    }

    /// The same through the file's mode, as a non-root user meets it (root bypasses modes).
    @Test(.enabled(if: geteuid() != 0, "root ignores file permissions; covered by the read-only open above"))
    func aWriteProtectedFileGivesReadOnly() async throws {
        let path = StoreTestData.temporaryStorePath()
        try await SQLiteStore(path: path).insertReading(StoreTestData.reading())
        chmod(path, 0o444)
        defer { chmod(path, 0o644) }
        // Refused at the open: a writer that can store nothing says so at once (`run` stops at start).
        #expect(throws: StorageError.readOnly(path: path)) { _ = try SQLiteStore(path: path) }
    }

    /// After a checkpoint the -wal is cut back to 4 MiB: one grown by a big write (a migration) used to
    /// keep its size for the life of `run`.
    @Test func aLargeWalIsCutBackAfterACheckpoint() async throws {
        let path = StoreTestData.temporaryStorePath()
        let store = try SQLiteStore(path: path)
        let blob = String(repeating: "x", count: 4_000)
        try await store.executeForTest("CREATE TABLE t (b TEXT)")
        try await store.executeForTest("BEGIN")
        for _ in 0..<3_000 { try await store.executeForTest("INSERT INTO t VALUES ('\(blob)')") }
        try await store.executeForTest("COMMIT")
        func walSize() -> Int {
            (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        }
        #expect(walSize() > 8 * 1024 * 1024, "\(walSize())")
        try await store.executeForTest("PRAGMA wal_checkpoint(PASSIVE)")
        try await store.executeForTest("INSERT INTO t VALUES ('y')")
        #expect(walSize() <= StoreOpening.walSizeLimitBytes + 65_536, "\(walSize())")
    }

    /// A full disk (here: the file at its page limit) is `diskFull`, rolls back the whole batch,
    /// and the store keeps working once there is room again.
    @Test func aFullFileIsDiskFullAndLosesNothingCommitted() async throws {
        let path = StoreTestData.temporaryStorePath()
        let store = try SQLiteStore(path: path)
        try await store.insertReading(StoreTestData.reading())
        try await store.limitFileSize(pages: try await store.pageCount())
        let batch = (0..<2_000).map { StoreTestData.fix(at: Double($0)) }
        await #expect(throws: StorageError.diskFull(path: path)) { try await store.appendTrackPoints(batch) }
        #expect(try await store.trackPointCount() == 0)
        #expect(try await store.readingCount() == 1)
        #expect(StorageError.diskFull(path: path).message.contains("full"))
        try await store.limitFileSize(pages: 1_000_000)
        try await store.appendTrackPoints(batch)
        #expect(try await store.trackPointCount() == 2_000)
        #expect(try await store.integrityCheck())
    }

    /// A read-only open of a file that still needs its schema cannot migrate it, and says what would.
    @Test func aReadOnlyOpenOfAnOldFileIsReadOnly() throws {
        let path = StoreTestData.temporaryStorePath()
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // A fixcast store of an older schema: its tables, an earlier version.
        _ = try SQLiteStore(path: path)
        _ = try StoreTestData.sqlite3(path, "PRAGMA user_version = 1;")
        #expect(throws: StorageError.needsUpgrade(path: path, version: 1, current: StoreSchema.currentVersion)) {
            _ = try SQLiteStore(path: path, readOnly: true)
        }
        // An empty SQLite database (no table, version 0) holds no store yet: "no store", not "older schema".
        let empty = StoreTestData.temporaryStorePath()
        try FileManager.default.createDirectory(
            atPath: (empty as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try StoreTestData.sqlite3(empty, "CREATE TABLE t(x); DROP TABLE t; PRAGMA user_version = 0;")
        #expect(throws: StorageError.missing(path: empty)) { _ = try SQLiteStore(path: empty, readOnly: true) }
    }

    /// What a kill -9 leaves is the database and WAL files as they are at that instant. Copying
    /// them while the writer still has them open (after each commit) is that instant; each copy
    /// must pass integrity_check and hold every committed row.
    @Test func filesAsLeftMidRunAreIntactAndHoldEveryCommit() async throws {
        let path = StoreTestData.temporaryStorePath()
        let store = try SQLiteStore(path: path)
        let snapshots = TestPaths.temporaryDirectory("snapshots")
        for i in 1...30 {
            try await store.insertReading(StoreTestData.reading(at: Double(i)))
            try await store.appendTrackPoints((0..<10).map { StoreTestData.fix(at: Double(i * 10 + $0)) })
            guard i % 5 == 0 else { continue }
            let copy = snapshots.appendingPathComponent("copy-\(i).sqlite").path
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            if FileManager.default.fileExists(atPath: path + "-wal") {
                try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
            }
            let recovered = try SQLiteStore(path: copy)
            #expect(try await recovered.integrityCheck())
            #expect(try await recovered.readingCount() == i)
            #expect(try await recovered.trackPointCount() == i * 10)
        }
    }

    /// A separate writer process in WAL mode with synchronous=NORMAL (the store's settings) on a
    /// file fixcast created, committing one row at a time and printing each committed id, is
    /// killed with SIGKILL mid-loop; the store then opens the file, finds it intact, and every
    /// printed row is there. (The writer is python3's sqlite3 module: until the CLI exists there
    /// is no fixcast process to kill; the lead's CLI-level kill test covers fixcast itself.)
    @Test func aWriterKilledWithSIGKILLLosesNoCommittedRow() async throws {
        let path = StoreTestData.temporaryStorePath()
        _ = try SQLiteStore(path: path)
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=NORMAL")
            i = 0
            while True:
                i += 1
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT INTO track_points (time, lat, lon, mode) VALUES (?, ?, ?, '3d')",
                               [(i + k / 100.0, 52.5, 13.4) for k in range(20)])
                db.execute("COMMIT")
                print(i, flush=True)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        TestScratch.own(process)
        // Read committed ids until a few hundred are in, then kill without warning.
        var committed = 0
        var buffer = Data()
        let handle = out.fileHandleForReading
        while committed < 300 {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            committed = lines.last.flatMap { Int($0) } ?? committed
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        // Anything printed after our last read was committed too; take the final count from the pipe.
        let rest = handle.readDataToEndOfFile()
        buffer.append(rest)
        let lastPrinted = String(decoding: buffer, as: UTF8.self).split(separator: "\n").last.flatMap { Int($0) } ?? 0
        #expect(lastPrinted >= 300)

        let store = try SQLiteStore(path: path)
        #expect(try await store.integrityCheck())
        let rows = try await store.trackPointCount()
        // Every committed transaction is there (one more may have committed before its print).
        #expect(rows >= lastPrinted * 20)
        #expect(rows % 20 == 0, "a transaction was half applied")
    }
}

extension SQLiteStore {
    /// One statement on the store's connection, for a test that needs SQL the store has no call for.
    fileprivate func executeForTest(_ sql: String) throws {
        _ = try db.scalarText(sql)
    }
}
