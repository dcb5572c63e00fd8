import FixcastCore

/// Why an export did not finish (component: storage, which is where the data comes from).
public enum ExportError: UserFacingError, Hashable {
    case cannotCreate(path: String, detail: String)
    case writeFailed(target: String, detail: String)
    /// The reader of a pipe (or a terminal) went away before the end (`export | head`): the reader's
    /// choice, not a loss; the command ends quietly with its own status.
    case readerGone(target: String)
    case storage(StorageError)

    public var component: Component { .storage }

    public var message: String {
        switch self {
        case .cannotCreate(let p, let d):
            return
                "storage: cannot create the export file \(p) (\(d)); check the folder exists and is writable, or use -o with another path."
        case .writeFailed(let t, let d):
            return "storage: writing the export to \(t) failed (\(d)); check free space and try again."
        case .readerGone(let t):
            return "storage: the reader of \(t) went away before the end of the export."
        case .storage(let e):
            return e.message
        }
    }
}
