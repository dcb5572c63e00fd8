internal import CSystem
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Wakes when the store file or its `-wal` is written, created or removed, or the folder itself goes,
/// and at no other time (`fixcast line --watch`).
///
/// inotify on the store's folder (the `-wal` appears and goes with the writer's connections, so the
/// folder is what can be watched from the start), filtered to the store's own files. A commit from
/// `run` or `now` is a write to the `-wal`; readers' reads write nothing. The thread blocks in read(2)
/// (or poll(2) with a deadline) the whole time between changes: zero wake-ups while nothing is stored.
public final class StoreChangeWatch: Sendable {
    private let fd: Int32
    private let fileName: String

    /// nil when inotify cannot watch the folder (it does not exist, or the inotify limit is reached).
    public init?(storePath: String) {
        let slash = storePath.lastIndex(of: "/")
        let folder = slash.map { $0 == storePath.startIndex ? "/" : String(storePath[..<$0]) } ?? "."
        fileName = slash.map { String(storePath[storePath.index(after: $0)...]) } ?? storePath
        let fd = csystem_watch_folder_writes(folder)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    deinit { close(fd) }

    /// `folderGone`: the folder was deleted or moved away; the watch ended with it, so no change
    /// will wake this again.
    public enum Wake: Sendable, Equatable { case changed, deadline, folderGone, failed }

    /// Blocks until the store's files are written, or `deadline` seconds pass (nil: no limit).
    public func wait(deadline seconds: Double?) -> Wake {
        let ms = seconds.map { Int32(clamping: Int(max(0, min($0, 86_400 * 24)) * 1000)) } ?? -1
        while true {
            let r = csystem_wait_for_write(fd, fileName, ms)
            if r == 1 { return .changed }
            if r == 0 { return .deadline }
            if r == 2 { return .folderGone }
            if errno == EINTR { continue }
            return .failed
        }
    }
}
