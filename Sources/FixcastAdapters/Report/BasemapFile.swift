import FixcastCore
import FixcastTables

/// The bundled base map (share/fixcast/basemap.bin: coast, lakes and land borders from Natural Earth),
/// mapped read-only the way places.bin is (`MappedPlaceTableFile`: nothing copied, only the pages a
/// report's view touches become resident).
public enum BasemapFile {
    public static let fileName = "basemap.bin"

    /// The base map where `dataFiles` finds it, or why not (a sentence's middle: where it looked, or what
    /// is wrong with the file).
    public static func load(_ dataFiles: DataFiles) -> Result<BasemapImage, BasemapUnavailable> {
        guard let path = dataFiles.locate(fileName) else {
            let looked = dataFiles.candidateDirectories().prefix(3).joined(separator: ", ")
            return .failure(BasemapUnavailable(detail: "\(fileName) is not in \(looked) …"))
        }
        let storage: MappedPlaceTableFile
        do { storage = try MappedPlaceTableFile(path: path) } catch {
            return .failure(BasemapUnavailable(detail: "\(path): \(error.reason)"))
        }
        do {
            return .success(try BasemapImage(storage: storage))
        } catch {
            return .failure(BasemapUnavailable(detail: "\(path) is damaged: \(error.reason)"))
        }
    }
}

/// Why the report's map is drawn without its base map; the report itself is still made.
public struct BasemapUnavailable: Error, Sendable, Hashable {
    public let detail: String

    public init(detail: String) { self.detail = detail }

    /// One sentence naming the component and what to do.
    public var message: String {
        "report: the base map (coast, lakes, borders) is missing or incomplete on this report (\(detail)); reinstall fixcast's share/fixcast or set FIXCAST_DATA_DIR to where basemap.bin is."
    }
}
