import FixcastCore
import Synchronization

extension AlertAreaTable {
    /// The bundled table's file name in share/fixcast (found with `DataFiles`).
    public static let fileName = "alert-areas.bin"

    /// Maps the binary table at `path` read-only (the way fixcast loads alert-areas.bin): nothing is copied,
    /// and a lookup makes resident only the pages it touches.
    public init(mappingFile path: String) throws(FormatError) {
        let storage: MappedPlaceTableFile
        do { storage = try MappedPlaceTableFile(path: path) } catch { throw FormatError(reason: error.reason) }
        try self.init(storage: storage)
    }
}

/// Gives the MeteoAlarm area table to whoever places warnings; a failure is a sentence's clause.
public protocol AlertAreaProviding: Sendable {
    /// The table, or why there is none ("alert-areas.bin not found in …").
    func areaTable() -> Result<AlertAreaTable, AlertAreaUnavailable>
}

/// Why the bundled area table cannot be used (missing, damaged), as one clause.
public struct AlertAreaUnavailable: Error, Sendable, Hashable {
    public let detail: String
    public init(detail: String) { self.detail = detail }
}

/// The bundled `alert-areas.bin`, mapped read-only on first use (where `DataFiles` finds it) and kept
/// for the process, like the place table.
public final class BundledAlertAreas: AlertAreaProviding {
    private let state: Mutex<Result<AlertAreaTable, AlertAreaUnavailable>?>
    private let dataFiles: DataFiles

    public init(dataFiles: DataFiles = .current()) {
        self.dataFiles = dataFiles
        state = Mutex(nil)
    }

    /// Uses an already-loaded table.
    public init(table: AlertAreaTable) {
        dataFiles = DataFiles(environment: [:], executablePath: nil)
        state = Mutex(.success(table))
    }

    public func areaTable() -> Result<AlertAreaTable, AlertAreaUnavailable> {
        state.withLock { current in
            if let current { return current }
            let loaded = Self.load(dataFiles)
            current = loaded
            return loaded
        }
    }

    static func load(_ dataFiles: DataFiles) -> Result<AlertAreaTable, AlertAreaUnavailable> {
        let name = AlertAreaTable.fileName
        guard let path = dataFiles.locate(name) else {
            let looked = dataFiles.candidateDirectories().prefix(4).joined(separator: ", ")
            return .failure(AlertAreaUnavailable(detail: "\(name) not found in \(looked) …"))
        }
        do {
            return .success(try AlertAreaTable(mappingFile: path))
        } catch {
            return .failure(AlertAreaUnavailable(detail: "\(path): \(error.reason)"))
        }
    }
}
