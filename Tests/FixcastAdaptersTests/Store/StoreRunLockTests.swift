import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// One `run` per store (`StoreRunLock`): a second lock is refused, naming the holder, and the lock
/// follows a store that was deleted or replaced. `flock` locks taken on two opens of one file refuse
/// each other inside one process too, so a second `acquire` here stands for a second `run`.
@Suite(.scratch) struct StoreRunLockTests {
    static func storePath(_ name: String) throws -> String {
        let folder = TestPaths.temporaryDirectory("fixcast-runlock-" + name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("f.sqlite").path
    }

    static func refusal(_ path: String) -> StorageError? {
        do {
            _ = try StoreRunLock.acquire(storePath: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSecondLockIsRefusedNamingTheHolder() throws {
        let path = try Self.storePath("second")
        var lock: StoreRunLock? = try #require(try StoreRunLock.acquire(storePath: path))
        #expect(Self.refusal(path) == .heldByRun(path: path, pid: Int(getpid())))
        #expect(lock != nil)
        lock = nil
        #expect(Self.refusal(path) == nil, "the lock goes with its holder")
    }

    /// `mv new.sqlite f.sqlite` or `rm f.sqlite` leave the lock file: the run still holds the lock
    /// beside the store, and retaking it must not find itself the rival.
    @Test func retakingALockFileThatStayedKeepsTheLock() throws {
        let path = try Self.storePath("stayed")
        let lock = try #require(try StoreRunLock.acquire(storePath: path))
        #expect(throws: Never.self) { try lock.retake() }
        #expect(Self.refusal(path) == .heldByRun(path: path, pid: Int(getpid())))
        withExtendedLifetime(lock) {}
    }

    @Test func aLockFileThatWentIsMadeAgainAndHeld() throws {
        let path = try Self.storePath("went")
        let lock = try #require(try StoreRunLock.acquire(storePath: path))
        try FileManager.default.removeItem(atPath: path + ".run-lock")
        #expect(Self.refusal(path) == nil, "with its file gone, nothing holds the new one yet")
        try lock.retake()
        #expect(Self.refusal(path) == .heldByRun(path: path, pid: Int(getpid())))
        #expect(FileManager.default.fileExists(atPath: path + ".run-lock"))
        withExtendedLifetime(lock) {}
    }

    /// A store named through a symlink and by its own path is one store: one lock.
    @Test func aStoreNamedThroughALinkTakesTheSameLock() throws {
        let path = try Self.storePath("link")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let link = (path as NSString).deletingLastPathComponent + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let lock = try #require(try StoreRunLock.acquire(storePath: link))
        #expect(Self.refusal(path) == .heldByRun(path: path, pid: Int(getpid())))
        withExtendedLifetime(lock) {}
    }

    /// A lock file that is there but cannot be opened (a symlink here; one left by root for the
    /// service's user) is said, naming it; the run went on without a lock, and without a word.
    @Test func aLockFileThatCannotBeOpenedIsSaid() throws {
        let path = try Self.storePath("unopenable")
        try FileManager.default.createSymbolicLink(atPath: path + ".run-lock", withDestinationPath: "/dev/null")
        #expect(Self.refusal(path) == .runLock(path: path + ".run-lock", detail: "it is a symbolic link"))
        #expect(StorageError.runLock(path: "/s.run-lock", detail: "x").message.contains("remove it"))
    }

    /// `sudo fixcast run` on the service's store makes the lock file as root: it is given to the
    /// store's owner, so the service's own run can take it at its next start (it was refused).
    @Test(.enabled(if: geteuid() == 0, "giving a file away needs root"))
    func aLockMadeByRootBelongsToTheStoresOwner() throws {
        let path = try Self.storePath("owned")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(chown(path, 65534, 65534) == 0)
        let lock = try #require(try StoreRunLock.acquire(storePath: path))
        var info = stat()
        #expect(stat(path + ".run-lock", &info) == 0)
        #expect(info.st_uid == 65534 && info.st_gid == 65534)
        withExtendedLifetime(lock) {}
    }
}
