import FixcastTables

/// The bundled GeoNames place table as places: "nearest place", "the place that names this point" and a
/// folded-name search, answered as the domain's `Place`, `PlaceMatch` and `Coordinate`. The file format,
/// its k-d tree and its text source are the FixcastTables leaf's (`PlaceTableImage`, `PlaceTableText`):
/// share/fixcast/places.bin, made by scripts/build-places.py, mapped read-only (through
/// `PlaceTableStorage`): loading builds nothing, and a loaded table costs only the pages its lookups
/// touched (a few hundred kB) instead of ~18 MB of arrays and tree. The text form (places.tsv, the
/// image's source) is still read by `init(bytes:)`, which converts it.
public struct OfflinePlaceTable: Sendable {
    /// Why the bytes are not a place table; the tail of a sentence. `line` is 0 for the binary form.
    public struct FormatError: Error, Sendable, Hashable {
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }

        init(_ error: TableFormatError) { self.init(line: error.line, reason: error.reason) }
    }

    public struct Country: Sendable, Hashable {
        public let code: String
        public let name: String
    }

    private let image: PlaceTableImage
    public var regions: [String] { image.regions }
    public let countries: [Country]

    public var count: Int { image.count }

    /// The binary table in `storage` (a damaged or truncated image throws). fixcast passes a read-only
    /// mapping of places.bin (`OfflinePlaceTable(mappingFile:)` in the adapters); the table keeps `storage`.
    public init(storage: any PlaceTableStorage) throws(FormatError) {
        do {
            image = try PlaceTableImage(storage: storage)
        } catch {
            throw FormatError(error)
        }
        countries = image.countries.map { Country(code: $0.code, name: $0.name) }
    }

    /// A binary table held in memory (tests; a damaged or truncated image throws).
    public init(imageBytes: [UInt8]) throws(FormatError) {
        try self.init(storage: InMemoryPlaceTableStorage(copying: imageBytes))
    }

    /// The binary form of a text table (what places.bin holds for places.tsv).
    public static func encodeImage(fromText bytes: [UInt8]) throws(FormatError) -> [UInt8] {
        do {
            let parsed = try PlaceTableText.parse(bytes)
            return PlaceTableImage.encode(countries: parsed.countries, regions: parsed.regions, rows: parsed.rows)
        } catch {
            throw FormatError(error)
        }
    }

    /// Parses the text table; throws on anything that is not the version-1 format.
    public init(bytes: [UInt8]) throws(FormatError) {
        try self.init(imageBytes: Self.encodeImage(fromText: bytes))
    }

    // MARK: - Rows

    public func name(_ row: Int) -> String { text(image.nameRanges(row).name) }

    /// The ASCII spelling when it differs from the display name ("Koeln" for "Köln").
    public func alternateName(_ row: Int) -> String? {
        let alt = image.nameRanges(row).alt
        return alt.isEmpty ? nil : text(alt)
    }

    public func coordinate(_ row: Int) -> Coordinate? {
        let position = image.treePosition(row)
        guard position < count else { return nil }
        let e4 = image.nodeE4(position)
        return Coordinate(lat: Double(e4.lat) / 10_000, lon: Double(e4.lon) / 10_000)
    }

    public func region(_ row: Int) -> String? {
        let r = Int(image.regionIndex(row))
        return r >= 0 && r < image.regions.count ? image.regions[r] : nil
    }

    public func country(_ row: Int) -> Country {
        let c = Int(image.countryIndex(row))
        return c < countries.count ? countries[c] : Country(code: "", name: "")
    }

    public func population(_ row: Int) -> Int? {
        let p = image.population(row)
        return p >= 0 ? Int(p) : nil
    }

    public func place(_ row: Int) -> Place {
        let c = country(row)
        return Place(
            name: name(row), region: region(row), country: c.name.isEmpty ? nil : c.name,
            countryCode: c.code.isEmpty ? nil : c.code, source: .offline)
    }

    public func match(_ row: Int) -> PlaceMatch? {
        guard let coordinate = coordinate(row) else { return nil }
        let c = country(row)
        return PlaceMatch(
            name: name(row), region: region(row), country: c.name.isEmpty ? nil : c.name,
            countryCode: c.code.isEmpty ? nil : c.code, coordinate: coordinate, population: population(row),
            source: .offline)
    }

    // MARK: - Questions

    /// The binary table's format version ("FXPLACE2"): names it gave are cached under it, so a new
    /// format's rules are not hidden behind names an older one gave.
    public static let formatVersion = String(decoding: PlaceTableImage.magic, as: UTF8.self)

    /// The row of the populated place nearest to `coordinate` and how far it is.
    public func nearest(to coordinate: Coordinate) -> (row: Int, distanceKm: Double)? {
        image.nearest(lat: coordinate.lat, lon: coordinate.lon).map { ($0.row, $0.radians * GreatCircle.earthRadiusKm) }
    }

    /// The row that names `coordinate` for a person: the nearest populated place, unless that is a district
    /// of a much larger city around it (GeoNames lists "Mitte" a few metres from Berlin's own point, and
    /// "Altstadt Nord" inside Köln); then the city. See `CityDistrictRule`.
    public func settlement(at coordinate: Coordinate) -> (row: Int, distanceKm: Double)? {
        nearest(to: coordinate).map { settlement(at: coordinate, from: $0) }
    }

    /// The same from `nearest`, the place to start from: the nearest, or the nearest on this side of
    /// the borders (`BorderSide`).
    public func settlement(at coordinate: Coordinate, from nearest: (row: Int, distanceKm: Double)) -> (
        row: Int, distanceKm: Double
    ) {
        let candidates = image.within(
            lat: coordinate.lat, lon: coordinate.lon,
            radians: CityDistrictRule.maximumRadiusKm / GreatCircle.earthRadiusKm)
        var best = nearest
        var bestPopulation = CityDistrictRule.population(population(nearest.row))
        for row in candidates where row != nearest.row {
            guard let c = self.coordinate(row) else { continue }
            let d = GreatCircle.distanceKm(coordinate, c)
            let p = CityDistrictRule.population(population(row))
            guard image.countryIndex(row) == image.countryIndex(nearest.row),
                image.regionIndex(row) == image.regionIndex(nearest.row),
                CityDistrictRule.mayContain(cityArea: image.area(row), placeArea: image.area(nearest.row)),
                CityDistrictRule.contains(cityPopulation: p, distanceKm: d),
                CityDistrictRule.isMuchLarger(p, than: CityDistrictRule.population(population(nearest.row))),
                p > bestPopulation
            else { continue }
            best = (row, d)
            bestPopulation = p
        }
        return best
    }

    /// The row that tells the country at `coordinate` (nil beyond `withinKm` of any place): the nearest
    /// place, unless a place of another country lies within `BorderSide.reachKm` more and the way to
    /// the nearest crosses a land border (`borders`: the bundled base map, asked for only then; nil
    /// without it); then the nearest place whose way crosses none (`BorderSide`).
    public func countryRow(at coordinate: Coordinate, withinKm: Double, borders: () -> BasemapImage?) -> (
        row: Int, distanceKm: Double
    )? {
        guard let nearest = nearest(to: coordinate), nearest.distanceKm <= withinKm else { return nil }
        let reach = min(withinKm, nearest.distanceKm + BorderSide.reachKm)
        let around = nearestOfEachCountry(around: coordinate, withinKm: reach)
        guard around.count > 1, let basemap = borders(),
            let lines = Self.borderLines(around: [coordinate] + around.map(\.coordinate), in: basemap),
            let i = BorderSide.firstOnThisSide(of: coordinate, candidates: around.map(\.coordinate), borders: lines)
        else { return nearest }
        return (around[i].row, around[i].distanceKm)
    }

    /// The land borders in the box around `points`; nil for a box across the antimeridian (no land
    /// border runs there).
    static func borderLines(around points: [Coordinate], in basemap: BasemapImage) -> [[Coordinate]]? {
        let pad = 0.01
        let box = GeoBox(
            minLon: (points.map(\.lon).min() ?? 0) - pad, minLat: (points.map(\.lat).min() ?? 0) - pad,
            maxLon: (points.map(\.lon).max() ?? 0) + pad, maxLat: (points.map(\.lat).max() ?? 0) + pad)
        guard box.maxLon - box.minLon < 180 else { return nil }
        return basemap.lines(in: [box], kinds: [.border]).lines.map { line in
            zip(line.lats, line.lons).compactMap { Coordinate(lat: $0, lon: $1) }
        }
    }

    /// The nearest place of each country within `withinKm` of `coordinate`, nearest first: the
    /// candidates `BorderSide` chooses among near a border (one country: no border near enough to matter).
    public func nearestOfEachCountry(around coordinate: Coordinate, withinKm: Double) -> [(
        row: Int, distanceKm: Double, coordinate: Coordinate
    )] {
        var best: [UInt16: (row: Int, distanceKm: Double, coordinate: Coordinate)] = [:]
        let rows = image.within(
            lat: coordinate.lat, lon: coordinate.lon, radians: max(0, withinKm) / GreatCircle.earthRadiusKm)
        for row in rows {
            guard let c = self.coordinate(row) else { continue }
            let d = GreatCircle.distanceKm(coordinate, c)
            let country = image.countryIndex(row)
            if let b = best[country], b.distanceKm <= d { continue }
            best[country] = (row, d, c)
        }
        return best.values.sorted { ($0.distanceKm, $0.row) < ($1.distanceKm, $1.row) }
    }

    /// The same by scanning every row (the benchmark's and the tests' reference).
    public func nearestByScan(to coordinate: Coordinate) -> (row: Int, distanceKm: Double)? {
        image.nearestByScan(lat: coordinate.lat, lon: coordinate.lon)
            .map { ($0.row, $0.radians * GreatCircle.earthRadiusKm) }
    }

    /// Rows whose name (or ASCII spelling) starts with `query`, compared case- and diacritics-insensitively.
    /// Whole-name matches come first ("York" before "Yorkton"), then by population, largest first (a place
    /// without a known population counts as the smallest), then by name.
    ///
    /// `romanizing`: a query in Cyrillic is also tried in each romanization (`CyrillicRomanization`), since the
    /// table's names are in Latin letters. For a list a person reads (`fixcast search`), not for picking
    /// one place unseen (`--place`): "Москва" romanized is "Moskva", a village in Tajikistan, while
    /// GeoNames lists Moscow as "Moscow".
    public func search(_ query: String, limit: Int, romanizing: Bool = false) -> [Int] {
        let key = Array(SearchText.fold(query).utf8)
        guard !key.isEmpty, limit > 0 else { return [] }
        var keys = [key]
        if romanizing {
            for latin in CyrillicRomanization.romanizations(query) {
                let romanized = Array(SearchText.fold(latin).utf8)
                if !romanized.isEmpty, !keys.contains(romanized) { keys.append(romanized) }
            }
        }
        image.willScanRows()
        var hits: [(row: Int, exact: Bool)] = []
        var scratch: [UInt8] = []
        for row in 0..<count {
            let ranges = image.nameRanges(row)
            var best = Comparison.none
            for key in keys where best != .exact {
                for range in [ranges.name, ranges.alt] where best != .exact && !range.isEmpty {
                    let c = compare(key, range, &scratch)
                    if c == .exact || best == .none { best = c }
                }
            }
            if best != .none { hits.append((row, best == .exact)) }
        }
        hits.sort { a, b in
            if a.exact != b.exact { return a.exact }
            let pa = image.population(a.row)
            let pb = image.population(b.row)
            if pa != pb { return pa > pb }
            return a.row < b.row
        }
        return hits.prefix(limit).map(\.row)
    }

    // MARK: - Internals

    private enum Comparison { case none, prefix, exact }

    /// Compares the folded `key` with the name at `range`. ASCII names are lower-cased byte by byte; only
    /// names with other characters (about one in ten) go through the full fold.
    private func compare(_ key: [UInt8], _ range: Range<Int>, _ scratch: inout [UInt8]) -> Comparison {
        let bytes = image.strings
        var ascii = true
        for i in range where bytes[i] >= 0x80 || bytes[i] == UInt8(ascii: "`") {
            ascii = false
            break
        }
        if ascii {
            guard range.count >= key.count else { return .none }
            for (offset, k) in key.enumerated() {
                var b = bytes[range.lowerBound + offset]
                if b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") { b += 32 }
                if b != k { return .none }
            }
            return range.count == key.count ? .exact : .prefix
        }
        scratch = Array(SearchText.fold(text(range)).utf8)
        guard scratch.starts(with: key) else { return .none }
        return scratch.count == key.count ? .exact : .prefix
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: image.strings[range]), as: UTF8.self)
    }
}
