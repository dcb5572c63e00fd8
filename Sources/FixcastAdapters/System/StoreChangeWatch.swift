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
/// `run` or `now` is a write to the `-wal`; readers' reads write nothing. The thread blocks in poll(2)
/// the whole time between changes (and a timer's moment, when one is asked): zero wake-ups while
/// nothing is stored.
public final class StoreChangeWatch: Sendable {
    private let fd: Int32
    private let fileName: String

    /// nil when inotify cannot watch the folder (it does not exist, or the inotify limit is reached).
    public convenience init?(storePath: String) {
        let (folder, name) = FileSystemPaths.split(storePath)
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

    /// Whether the folder that holds `storePath` exists.
    public static func folderExists(of storePath: String) -> Bool {
        FileSystemPaths.isFolder(FileSystemPaths.split(storePath).folder)
    }

    /// What ended `waitForFolder`.
    public enum FolderWait: Sendable, Equatable {
        /// The folder is there.
        case exists
        /// It cannot come: inotify failed, or a file that is not a folder stands on the path.
        case impossible
        /// The reader of `output` went away while waiting.
        case outputGone
    }

    /// Blocks until the folder that holds `storePath` exists (made again after it was removed, or
    /// made for the first time), without waking otherwise: it watches the nearest folder above it
    /// that exists for the next one down being made, and so on down. `output`, when given, ends the
    /// wait when its reader goes.
    public static func waitForFolder(of storePath: String, output: Int32? = nil) -> FolderWait {
        let folder = FileSystemPaths.split(storePath).folder
        while !FileSystemPaths.isFolder(folder) {
            if FileSystemPaths.exists(folder) { return .impossible }
            var above = FileSystemPaths.split(folder)
            while !FileSystemPaths.isFolder(above.folder), above.folder != "/", above.folder != "." {
                if FileSystemPaths.exists(above.folder) { return .impossible }
                above = FileSystemPaths.split(above.folder)
            }
            guard let watch = StoreChangeWatch(folder: above.folder, name: above.name) else { return .impossible }
            // Made between the look and the watch: no event will say so.
            if FileSystemPaths.isFolder(FileSystemPaths.join(above.folder, above.name)) { continue }
            switch watch.wait(until: nil, output: output) {
            case .failed: return .impossible
            case .outputGone: return .outputGone
            case .changed, .deadline, .folderGone: break
            }
        }
        return .exists
    }

    deinit { close(fd) }

    /// `folderGone`: the folder was deleted or moved away; the watch ended with it, so no change
    /// will wake this again. `outputGone`: the reader of the output watched went away.
    public enum Wake: Sendable, Equatable { case changed, deadline, folderGone, outputGone, failed }

    /// Blocks until the store's files are written, or the wall clock reaches `until` (nil: no limit;
    /// a machine's sleep counts, and a clock set anew ends the wait as a deadline, to be measured
    /// again), or (`output`) the reader of that descriptor goes.
    public func wait(until: Date?, output: Int32? = nil) -> Wake {
        let ms =
            until.map { Int64(Int(clamping: $0.timeIntervalSince1970 * 1000, to: 0...Int.max, rounding: .up)) } ?? -1
        while true {
            let r = csystem_wait_for_write(fd, fileName, ms, output ?? -1)
            if r == 1 { return .changed }
            if r == 0 { return .deadline }
            if r == 2 { return .folderGone }
            if r == 3 { return .outputGone }
            if errno == EINTR { continue }
            return .failed
        }
    }

    /// `wait(until:)` for a span from now.
    public func wait(seconds: Double, output: Int32? = nil) -> Wake {
        wait(until: Date().addingTimeInterval(seconds), output: output)
    }
}
