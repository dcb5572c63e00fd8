import FixcastCore
import FixcastTables
import FoundationEssentials
import Synchronization

/// Place names without a network: the nearest populated place of the bundled GeoNames table (source
/// `.offline`), and search over it. The table (places.bin) is mapped read-only once, on first use, and kept
/// for the process; only the pages lookups touch become resident.
public final class OfflinePlaces: ReverseGeocoding, PlaceSearching {
    /// Beyond this the nearest populated place is too far to name a position by (the open sea, the
    /// middle of a desert); then the answer is "no place here". 200 km covers the sparsest inhabited
    /// regions of the table (northern Siberia, the Sahara) while refusing mid-ocean points.
    public static let maximumDistanceKm = 200.0
    public static let fileName = "places.bin"
    /// The attribution the GeoNames licence (CC BY 4.0) asks for; shown by `--version` and in the README.
    public static let credit =
        "Offline place names: GeoNames (https://www.geonames.org/), licensed under CC BY 4.0."

    private let state: Mutex<Result<OfflinePlaceTable, PlaceError>?>
    private let dataFiles: DataFiles
    /// The bundled borders (basemap.bin), mapped on first need (a place of another country near
    /// enough to matter); `.none` when it could not be: the nearest place then decides, as before.
    private let borders = Mutex<BasemapImage??>(nil)

    /// Maps `places.bin` from where `dataFiles` finds it, when first needed.
    public init(dataFiles: DataFiles = .current()) {
        self.dataFiles = dataFiles
        self.state = Mutex(nil)
    }

    /// Uses an already-loaded table.
    public init(table: OfflinePlaceTable) {
        self.dataFiles = DataFiles(environment: [:], executablePath: nil)
        self.state = Mutex(.success(table))
    }

    /// The table, loading it on first call; the error says where fixcast looked.
    public func table() throws(PlaceError) -> OfflinePlaceTable {
        let result = state.withLock { current -> Result<OfflinePlaceTable, PlaceError> in
            if let current { return current }
            let loaded = OfflinePlaces.load(dataFiles)
            current = loaded
            return loaded
        }
        return try result.get()
    }

    /// Loads the table from the first place `dataFiles` finds it.
    public static func load(_ dataFiles: DataFiles) -> Result<OfflinePlaceTable, PlaceError> {
        guard let path = dataFiles.locate(fileName) else {
            let looked = dataFiles.candidateDirectories().prefix(4).joined(separator: ", ")
            return .failure(.offlineDataMissing(detail: "\(fileName) not found in \(looked) …"))
        }
        do {
            return .success(try OfflinePlaceTable(mappingFile: path))
        } catch {
            let at = error.line > 0 ? " line \(error.line)" : ""
            return .failure(.offlineDataMissing(detail: "\(path)\(at): \(error.reason)"))
        }
    }

    public func place(at coordinate: Coordinate) async throws(PlaceError) -> Place? {
        try nearestPlace(to: coordinate)
    }

    /// The synchronous form of `place(at:)`. Near a border, the place is named from this side of it
    /// (`countryRow`): on Windsor's riverfront, Windsor, not Detroit across the river.
    public func nearestPlace(to coordinate: Coordinate) throws(PlaceError) -> Place? {
        let table = try table()
        guard let start = countryRow(at: coordinate, in: table) else { return nil }
        let hit = table.settlement(at: coordinate, from: start)
        guard hit.distanceKm <= OfflinePlaces.maximumDistanceKm else { return nil }
        // A row whose name the file does not hold (a damaged places.bin) names nothing: no place, not "".
        let place = table.place(hit.row)
        return place.name.isEmpty ? nil : place
    }

    /// The row that tells the country at `coordinate` (`OfflinePlaceTable.countryRow`), with the
    /// bundled borders mapped when first needed.
    func countryRow(at coordinate: Coordinate, in table: OfflinePlaceTable) -> (row: Int, distanceKm: Double)? {
        table.countryRow(at: coordinate, withinKm: Self.maximumDistanceKm, borders: borderMap)
    }

    private func borderMap() -> BasemapImage? {
        borders.withLock { current in
            if let current { return current }
            let loaded = try? BasemapFile.load(dataFiles).get()
            current = .some(loaded)
            return loaded
        }
    }

    public func search(_ query: String, limit: Int) async throws(PlaceError) -> [PlaceMatch] {
        try await search(query, limit: limit, romanizing: false)
    }

    /// `romanizing`: a Cyrillic query is tried in Latin letters too (`OfflinePlaceTable.search`).
    public func search(_ query: String, limit: Int, romanizing: Bool) async throws(PlaceError) -> [PlaceMatch] {
        let table = try table()
        return table.search(query, limit: limit, romanizing: romanizing).compactMap { table.match($0) }
    }
}
