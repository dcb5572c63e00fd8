import FixcastCore
import FixcastTables
import FoundationEssentials

/// The bundled binary tables (places.bin, alert-areas.bin, basemap.bin) and the place table's text
/// source: damaged bytes must give a `TableFormatError` at load, or answers that stay inside the bytes.
extension FuzzTargets {
    /// The first `places` places of a places.tsv, with every country and region (a table small enough
    /// that a mutation lands in each section often; the header's count made to match).
    static func smallPlaceText(_ tsv: [UInt8], places: Int) -> [UInt8]? {
        let lines = tsv.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.starts(with: Array("#places".utf8)) }) else { return nil }
        var body: [ArraySlice<UInt8>] = []
        var count = 0
        for line in lines[(header + 1)...] {
            if line.first != UInt8(ascii: "@") {
                guard count < places, !line.isEmpty else { break }
                count += 1
            }
            body.append(line)
        }
        while body.last?.first == UInt8(ascii: "@") { body.removeLast() }
        let head = lines[..<header] + [ArraySlice(Array("#places\t\(count)".utf8))]
        return Array((head + body).joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
    }

    /// Where lookups are asked: cities, the antimeridian, the poles, the open sea.
    static let tablePoints: [Coordinate] = [
        (52.52, 13.41), (42.51, 1.52), (48.85, 2.35), (40.71, -74.0), (0, 180), (0, -180), (90, 0), (-90, 0),
        (-33.9, 18.4), (0, 0), (35.68, 139.69), (64.1, -21.9),
    ].compactMap { Coordinate(lat: $0.0, lon: $0.1) }

    static let placesText = FuzzTarget(
        name: "places-tsv", about: "the place table's text source (places.tsv), converted to places.bin",
        seedNames: ["places.tsv"]
    ) { files, setup in
        let seeds = files.compactMap { smallPlaceText($0, places: 300) }
        let mutator = LineMutator(seeds: seeds)
        return FuzzCampaign(
            seeds: seeds,
            mutator: { g in
                g.oneIn(2) ? mutator.mutate(&g) : ByteMutator.mutateText(g.pick(seeds), &g)
            }
        ) { bytes in
            FuzzCheck.judge { (check) throws(OfflinePlaceTable.FormatError) in
                check.placeTable(try OfflinePlaceTable(bytes: bytes), hash: fnv(bytes))
            }
        }
    }

    /// places.bin's header fields: counts (u32 at 8, 12, 16) and section offsets and lengths (u64 from 24).
    static let placeFields = [(8, 4), (12, 4), (16, 4), (24, 8), (32, 8), (40, 8), (48, 8), (56, 8)].map {
        (offset: $0.0, width: $0.1)
    }

    static let placesBinary = FuzzTarget(
        name: "places-bin", about: "places.bin, the offline place table and its k-d tree",
        seedNames: ["places.tsv", "places.bin"]
    ) { files, setup in
        // Mostly a small image made from the text (every section often hit), sometimes the bundled one.
        let small = files.filter { !$0.starts(with: PlaceTableImage.magic) }.compactMap {
            smallPlaceText($0, places: 300).flatMap { try? OfflinePlaceTable.encodeImage(fromText: $0) }
        }
        let bundled = files.filter { $0.starts(with: PlaceTableImage.magic) }
        let seeds = small + bundled
        return FuzzCampaign(
            seeds: seeds,
            mutator: { g in
                let seed =
                    bundled.isEmpty || small.isEmpty || !g.oneIn(16)
                    ? g.pick(small.isEmpty ? bundled : small) : g.pick(bundled)
                return ByteMutator.mutateTable(seed, fields: placeFields, &g)
            }
        ) { bytes in
            FuzzCheck.judge { (check) throws(OfflinePlaceTable.FormatError) in
                check.placeTable(try OfflinePlaceTable(storage: setup.storage(bytes)), hash: fnv(bytes))
            }
        }
    }

    /// alert-areas.bin's header fields: version and counts (u32 from 8 to 44), section offsets (u64 from 48).
    static let areaFields =
        stride(from: 8, through: 44, by: 4).map { (offset: $0, width: 4) }
        + stride(from: 48, through: 104, by: 8).map { (offset: $0, width: 8) }

    static let alertAreas = FuzzTarget(
        name: "alert-areas-bin", about: "alert-areas.bin, MeteoAlarm's areas and their grid and geocode index",
        seedNames: ["alert-areas.bin"]
    ) { seeds, setup in
        FuzzCampaign(seeds: seeds, mutator: { g in ByteMutator.mutateTable(g.pick(seeds), fields: areaFields, &g) }) {
            bytes in
            FuzzCheck.judge { (check) throws(AlertAreaTable.FormatError) in
                check.areaTable(try AlertAreaTable(storage: setup.storage(bytes)), hash: fnv(bytes))
            }
        }
    }

    static let basemapFields = [(8, 4), (12, 4), (16, 4)].map { (offset: $0.0, width: $0.1) }

    static let basemap = FuzzTarget(
        name: "basemap-bin", about: "basemap.bin, the trip report's coasts, lakes and borders",
        seedNames: ["basemap.bin"]
    ) { seeds, setup in
        FuzzCampaign(seeds: seeds, mutator: { g in ByteMutator.mutateTable(g.pick(seeds), fields: basemapFields, &g) })
        { bytes in
            FuzzCheck.judge { (check) throws(TableFormatError) in
                let image = try BasemapImage(storage: setup.storage(bytes))
                let h = fnv(bytes)
                let west = Double(Int(h % 340)) - 170
                let south = Double(Int(h / 340 % 160)) - 80
                let boxes = [
                    GeoBox(minLon: west, minLat: south, maxLon: west + 10, maxLat: south + 8),
                    GeoBox(minLon: 5, minLat: 45, maxLon: 15, maxLat: 55),
                ]
                let (lines, _) = image.lines(in: boxes, pointLimit: 100_000)
                for line in lines {
                    check.require(
                        line.lons.count == line.lats.count && line.lons.count >= 2,
                        "a base map line has \(line.lons.count) points")
                    for (lon, lat) in zip(line.lons, line.lats) where !lon.isFinite || !lat.isFinite {
                        check.require(false, "a base map point is \(lon), \(lat)")
                        break
                    }
                }
            }
        }
    }
}

extension FuzzCheck {
    /// A loaded place table answers every question about any of its rows and any point from its own
    /// bytes: rows in range, coordinates real, searches bounded.
    mutating func placeTable(_ table: OfflinePlaceTable, hash: UInt64) {
        let count = table.count
        var rows = Array(0..<min(count, 400))
        if count > 400 {
            rows += (0..<200).map { Int((hash &+ UInt64($0) &* 0x9E37_79B9) % UInt64(count)) } + [count - 1]
        }
        for row in rows {
            let place = table.place(row)
            _ = table.alternateName(row)
            _ = table.coordinate(row)
            _ = table.match(row)
            if let population = table.population(row) {
                require(population >= 0, "row \(row)'s population is \(population)")
            }
            require(place.name.utf8.count <= TextCap.placeName, "row \(row)'s name is \(place.name.utf8.count) bytes")
        }
        for point in FuzzTargets.tablePoints {
            if let hit = table.nearest(to: point) {
                require(hit.row >= 0 && hit.row < count, "nearest gave row \(hit.row) of \(count)")
                finite(hit.distanceKm, "nearest's distance")
            }
            if let hit = table.settlement(at: point) {
                require(hit.row >= 0 && hit.row < count, "settlement gave row \(hit.row) of \(count)")
            }
        }
        for query in ["a", "berlin", "ab", "Москва", "é"] {
            for row in table.search(query, limit: 5, romanizing: true) {
                require(row >= 0 && row < count, "search gave row \(row) of \(count)")
            }
        }
    }

    /// A loaded area table answers for any point and any of its areas from its own bytes.
    mutating func areaTable(_ table: AlertAreaTable, hash: UInt64) {
        let count = table.count
        var indices = Array(0..<min(count, 300))
        if count > 300 { indices += (0..<100).map { Int((hash &+ UInt64($0) &* 0x9E37_79B9) % UInt64(count)) } }
        var points = FuzzTargets.tablePoints
        for index in indices {
            let area = table.area(at: index)
            let b = table.bounds(at: index)
            if let centre = Coordinate(lat: (b.south + b.north) / 2, lon: (b.west + b.east) / 2), points.count < 40 {
                points.append(centre)
            }
            if let found = table.areaIndex(code: area.geocode.code, scheme: area.geocode.scheme) {
                require(found >= 0 && found < count, "the geocode index gave area \(found) of \(count)")
            }
        }
        for point in points {
            for index in table.areaIndices(containing: point) {
                require(index >= 0 && index < count, "containment gave area \(index) of \(count)")
            }
        }
    }
}
