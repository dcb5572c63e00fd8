import FixcastCore

extension AlertAreaTable {
    /// The bundled table's file name in share/fixcast (found with `DataFiles`).
    public static let fileName = "alert-areas.bin"

    /// Maps the binary table at `path` read-only (the way fixcast loads alert-areas.bin): nothing is copied,
    /// and a lookup makes resident only the pages it touches.
    public init(mappingFile path: String) throws(FormatError) {
        guard let storage = MappedPlaceTableFile(path: path) else {
            throw FormatError(reason: "the file could not be opened or mapped")
        }
        try self.init(storage: storage)
    }
}
