import FixcastTables

/// MeteoAlarm's warning areas (share/fixcast/alert-areas.bin) as the domain asks about them: which
/// `AlertArea`s contain a position, and which area a warning's geocode names — offline, so that a warning
/// that names its areas only by code can be matched to where fixcast is. The file format, its
/// bounds-checked reader and the exact-integer ring containment are the FixcastTables leaf's
/// (`AlertAreaImage`, `RingContainment`); this turns its indices and text fields into areas.
public struct AlertAreaTable: @unchecked Sendable {
    // @unchecked: the image's buffers point into its storage's bytes, which never change while it lives.

    /// Why a file is not a usable area table, as one clause ("the file is truncated ...").
    public struct FormatError: Error, Equatable, Sendable {
        public let reason: String

        public init(reason: String) { self.reason = reason }
    }

    let image: AlertAreaImage
    public var count: Int { image.count }

    /// The table in `storage` (a truncated or damaged image throws); the table keeps `storage`.
    public init(storage: any PlaceTableStorage) throws(FormatError) {
        do {
            image = try AlertAreaImage(storage: storage)
        } catch {
            throw FormatError(reason: error.reason)
        }
    }

    // MARK: - Lookups

    /// Every area that contains `point` (a point on an area's border is in it), in the table's order.
    /// Areas overlap (coastal and inland ones, Paris in two French areas), so this may be several.
    public func areas(containing point: Coordinate) -> [AlertArea] {
        areaIndices(containing: point).map(area(at:))
    }

    /// The indices of the areas that contain `point`, ascending (the same answer as `areas(containing:)`
    /// without making the values).
    public func areaIndices(containing point: Coordinate) -> [Int] {
        image.areaIndices(containingLat: point.lat, lon: point.lon)
    }

    /// The indices of the areas whose border passes within `km` of `point`, ascending.
    public func areaIndices(near point: Coordinate, withinKm km: Double) -> [Int] {
        image.areaIndices(nearLat: point.lat, lon: point.lon, withinKm: km)
    }

    /// The area a warning's geocode names: by its scheme when given (EMMA_ID, WARNCELLID, NUTS3, NUTS2,
    /// FIPS, as CAP's `valueName`), else the first scheme in which `code` exists (the areas' own codes
    /// before aliases). nil when the table does not know it: the caller counts it as unplaced.
    public func area(code: String, scheme: String? = nil) -> AlertArea? {
        areaIndex(code: code, scheme: scheme).map(area(at:))
    }

    /// The index of the area `area(code:scheme:)` answers, for comparing with `areaIndices(containing:)`.
    public func areaIndex(code: String, scheme: String? = nil) -> Int? {
        image.areaIndex(code: code, scheme: scheme)
    }

    /// The area at `index` (0 ..< count).
    public func area(at index: Int) -> AlertArea {
        let texts = image.fields(at: index)
        var aliases: [AlertGeocode] = []
        var k = 4
        while k + 1 < texts.count {
            aliases.append(AlertGeocode(scheme: texts[k], code: texts[k + 1]))
            k += 2
        }
        return AlertArea(
            geocode: AlertGeocode(scheme: texts[0], code: texts[1]), aliases: aliases, country: texts[2],
            name: texts[3])
    }

    /// The bounding box of the area at `index` (0 ..< count), in degrees (east may pass 180 for an area
    /// across the antimeridian).
    public func bounds(at index: Int) -> (west: Double, south: Double, east: Double, north: Double) {
        image.bounds(at: index)
    }
}
