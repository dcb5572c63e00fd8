import FixcastCore

/// Why an export did not finish (component: storage, which is where the data comes from).
public enum ExportError: UserFacingError, Hashable {
    case cannotCreate(path: String, detail: String)
    case writeFailed(target: String, detail: String)
    case storage(StorageError)

    public var component: Component { .storage }

    public var message: String {
        switch self {
        case .cannotCreate(let p, let d):
            return
                "storage: cannot create the export file \(p) (\(d)); check the folder exists and is writable, or use -o with another path."
        case .writeFailed(let t, let d):
            return "storage: writing the export to \(t) failed (\(d)); check free space and try again."
        case .storage(let e):
            return e.message
        }
    }
}
