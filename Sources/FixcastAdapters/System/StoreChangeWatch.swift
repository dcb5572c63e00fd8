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
    public convenience init?(storePath: String) {
        let (folder, name) = Self.split(storePath)
        self.init(folder: folder, name: name)
    }

    /// Watches `folder` for entries whose names start with `name`: the store's files, or
    /// (`waitForFolder`) a folder on the store's path made again.
    init?(folder: String, name: String) {
        fileName = name
        let fd = csystem_watch_folder_writes(folder)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    /// A path's folder ("." for a bare name, "/" at the root) and last component.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        return (folder, String(path[path.index(after: slash)...]))
    }

    /// Whether the folder that holds `storePath` exists.
    public static func folderExists(of storePath: String) -> Bool { FileSystemPaths.isFolder(split(storePath).folder) }

    /// Blocks until the folder that holds `storePath` exists (made again after it was removed, or
    /// made for the first time), without waking otherwise: it watches the nearest folder above it
    /// that exists for the next one down being made, and so on down. false when inotify fails, or
    /// when a file that is not a folder stands on the path (no folder can be made there).
    public static func waitForFolder(of storePath: String) -> Bool {
        let folder = split(storePath).folder
        while !FileSystemPaths.isFolder(folder) {
            if FileSystemPaths.exists(folder) { return false }
            var above = split(folder)
            while !FileSystemPaths.isFolder(above.folder), above.folder != "/", above.folder != "." {
                if FileSystemPaths.exists(above.folder) { return false }
                above = split(above.folder)
            }
            guard let watch = StoreChangeWatch(folder: above.folder, name: above.name) else { return false }
            // Made between the look and the watch: no event will say so.
            if FileSystemPaths.isFolder(FileSystemPaths.join(above.folder, above.name)) { continue }
            if watch.wait(deadline: nil) == .failed { return false }
        }
        return true
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
