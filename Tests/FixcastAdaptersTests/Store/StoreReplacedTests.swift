import FixcastCore
import Foundation
import Synchronization
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// A store whose file is deleted or replaced while it is open to write (`SQLiteStore.followPath`): the
/// next reading and the next track go to the file now at the path, not into the deleted one, and the
/// store says so once per replacement.
@Suite(.scratch) struct StoreReplacedTests {
    typealias D = StoreTestData

    static func folder(_ name: String) -> URL { TestPaths.temporaryDirectory("fixcast-replaced-" + name) }

    /// The paths a store reported replaced, in order.
    final class Replacements: Sendable {
        private let seen = Mutex<[String]>([])
        func add(_ path: String) { seen.withLock { $0.append(path) } }
        var paths: [String] { seen.withLock { $0 } }
    }

    /// A store at `path`, keeping the replacements it reports.
    static func store(_ path: String) throws -> (SQLiteStore, Replacements) {
        let store = try SQLiteStore(path: path)
        let seen = Replacements()
        store.onReplaced { seen.add($0) }
        return (store, seen)
    }

    @Test func aDeletedFolderIsMadeAgainAndTheReadingGoesThere() async throws {
        let folder = Self.folder("folder").appendingPathComponent("store")
        let path = folder.appendingPathComponent("f.sqlite").path
        let (store, replaced) = try Self.store(path)
        try await store.insertReading(D.reading(at: 0))
        try FileManager.default.removeItem(at: folder)

        try await store.insertReading(D.reading(at: 60, placeName: "Potsdam"))
        #expect(replaced.paths == [path])
        // Another process opening the path sees the new file and only what came after.
        let other = try SQLiteStore.forReading(path: path)
        #expect(try await other.lastReading()?.place?.name == "Potsdam")
        #expect(try await other.readingCount() == 1)
        #expect(try await other.integrityCheck())

        try await store.appendTrackPoints([D.fix(at: 61), D.fix(at: 62, lat: 52.6)])
        #expect(try await other.trackPointCount() == 2)
        #expect(replaced.paths == [path], "said once per replacement")
    }

    /// Only the file deleted: its -wal and -shm were the deleted file's, and the new file must not
    /// replay them (its pages would be the old store's).
    @Test func aDeletedFileLeavesNoOldPagesInTheNewOne() async throws {
        let folder = Self.folder("file")
        let path = folder.appendingPathComponent("f.sqlite").path
        let (store, replaced) = try Self.store(path)
        for k in 0..<50 { try await store.insertReading(D.reading(at: Double(k) * 60)) }
        try await store.appendTrackPoints((0..<500).map { D.fix(at: Double($0)) })
        try FileManager.default.removeItem(atPath: path)

        try await store.appendTrackPoints([D.fix(at: 600)])
        #expect(replaced.paths == [path])
        let other = try SQLiteStore.forReading(path: path)
        #expect(try await other.integrityCheck())
        #expect(try await other.trackPointCount() == 1)
        #expect(try await other.readingCount() == 0)
    }

    /// Another store put in its place (a backup restored with `mv`): the next reading is added to it.
    @Test func aFilePutInItsPlaceIsWrittenTo() async throws {
        let folder = Self.folder("moved")
        let path = folder.appendingPathComponent("f.sqlite").path
        let backup = folder.appendingPathComponent("backup.sqlite").path
        let (store, replaced) = try Self.store(path)
        try await store.insertReading(D.reading(at: 0))
        do {
            let old = try SQLiteStore(path: backup)
            for k in 1...3 { try await old.insertReading(D.reading(at: Double(k) * -3600, placeName: "Old \(k)")) }
        }
        #expect(rename(backup, path) == 0)

        try await store.insertReading(D.reading(at: 120, placeName: "After"))
        #expect(replaced.paths == [path])
        let other = try SQLiteStore.forReading(path: path)
        #expect(try await other.readingCount() == 4)
        #expect(try await other.lastReading()?.place?.name == "After")
    }

    /// The file unchanged: nothing is reopened or said.
    @Test func anUnchangedFileIsKept() async throws {
        let path = Self.folder("same").appendingPathComponent("f.sqlite").path
        let (store, replaced) = try Self.store(path)
        for k in 0..<3 { try await store.insertReading(D.reading(at: Double(k) * 60)) }
        try await store.appendTrackPoints([D.fix(at: 1)])
        #expect(replaced.paths.isEmpty)
        #expect(try await store.readingCount() == 3)
    }

    /// The folder gone and not to be made again (its parent is now a file): the write fails with the
    /// reason, and works once the path can hold a store again.
    @Test func aPathThatCannotHoldAStoreFailsEachWriteUntilItCan() async throws {
        let base = Self.folder("blocked")
        let folder = base.appendingPathComponent("store")
        let path = folder.appendingPathComponent("f.sqlite").path
        let (store, replaced) = try Self.store(path)
        try await store.insertReading(D.reading(at: 0))
        try FileManager.default.removeItem(at: folder)
        #expect(FileManager.default.createFile(atPath: folder.path, contents: Data("x".utf8)))

        await #expect(throws: StorageError.self) { try await store.insertReading(D.reading(at: 60)) }
        await #expect(throws: StorageError.self) { try await store.appendTrackPoints([D.fix(at: 61)]) }
        #expect(replaced.paths.isEmpty)

        try FileManager.default.removeItem(at: folder)
        try await store.insertReading(D.reading(at: 120, placeName: "Back"))
        #expect(replaced.paths == [path])
        #expect(try await SQLiteStore.forReading(path: path).lastReading()?.place?.name == "Back")
    }
}
