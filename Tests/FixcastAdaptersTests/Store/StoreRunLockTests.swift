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
}
