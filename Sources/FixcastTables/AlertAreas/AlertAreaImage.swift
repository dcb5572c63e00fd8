internal import CMath

/// MeteoAlarm's warning-area table as bytes (share/fixcast/alert-areas.bin, built by
/// scripts/build-alert-areas.py, whose header documents the layout): which areas contain a point given in
/// the table's integer micro-degrees, which area index a geocode names, and each area's text fields and
/// bounding box. Read straight from the bytes (a read-only mapping: the adapters' `MappedPlaceTableFile`);
/// every offset, count and index is checked once at load, so a truncated or hostile file throws there and
/// a lookup never reads out of bounds. FixcastCore's `AlertAreaTable` turns indices into `AlertArea`s.
package struct AlertAreaImage: @unchecked Sendable {
    // @unchecked: the buffers point into `storage`'s bytes, which never change while it lives.

    package static let magic: [UInt8] = Array("FXAREAS1".utf8)
    package static let version: UInt32 = 1
    package static let headerSize = 112
    package static let areaSize = 32
    package static let holeFlag: UInt32 = 1 << 31
    /// Whole-degree grid bounds the reader accepts: anything beyond ±540° (a ring unwrapped across the
    /// antimeridian) or ±90° is not the Earth, and bounding the grid keeps its cell count small.
    package static let maxGridColumns = 1080
    package static let maxGridRows = 180
    package static let e6 = 1_000_000.0
    /// The order in which a geocode without a scheme is tried: the areas' own schemes first.
    package static let schemesByPreference = ["EMMA_ID", "WARNCELLID", "NUTS3", "NUTS2", "FIPS"]

    package let storage: any TableStorage
    package let count: Int
    package let areas: UnsafeRawBufferPointer
    package let rings: UnsafeRawBufferPointer
    package let points: UnsafeRawBufferPointer
    package let codes: UnsafeRawBufferPointer
    package let grid: UnsafeRawBufferPointer
    package let cells: UnsafeRawBufferPointer
    package let strings: UnsafeRawBufferPointer
    package let gridWest: Int
    package let gridSouth: Int
    package let columns: Int
    package let rows: Int

    package init(storage: any TableStorage) throws(TableFormatError) {
        let b = storage.bytes
        func fail(_ reason: String) -> TableFormatError { TableFormatError(reason: reason) }
        guard b.count >= Self.headerSize, Array(b[0..<8]) == Self.magic else {
            throw fail("the file is not a fixcast alert area table (no \"FXAREAS1\" header)")
        }
        guard b.u32(8) == Self.version else { throw fail("the file is an alert area table of another version") }
        let areaCount = Int(b.u32(12))
        let ringCount = Int(b.u32(16))
        let pointCount = Int(b.u32(20))
        let codeCount = Int(b.u32(24))
        let west = Int(Int32(bitPattern: b.u32(28)))
        let south = Int(Int32(bitPattern: b.u32(32)))
        let columns = Int(b.u32(36))
        let rows = Int(b.u32(40))
        guard columns <= Self.maxGridColumns, rows <= Self.maxGridRows, west >= -540, west + columns <= 540,
            south >= -90, south + rows <= 90
        else { throw fail("the header announces an impossible grid") }
        let cellCount = columns * rows
        func section(_ at: Int, _ length: UInt64) throws(TableFormatError) -> UnsafeRawBufferPointer {
            let offset = b.u64(at)
            guard offset <= UInt64(b.count), length <= UInt64(b.count) - offset else {
                throw fail("the file is truncated or damaged (a section ends past its \(b.count) bytes)")
            }
            return UnsafeRawBufferPointer(rebasing: b[Int(offset)..<Int(offset + length)])
        }
        // Counts are u32, so these products cannot overflow a UInt64.
        let areas = try section(48, UInt64(areaCount) * UInt64(Self.areaSize))
        let rings = try section(56, UInt64(ringCount) * 8)
        let points = try section(64, UInt64(pointCount) * 8)
        let codes = try section(72, UInt64(codeCount) * 8)
        let grid = try section(80, UInt64(cellCount + 1) * 4)
        let cellsLength = UInt64(grid.u32(cellCount * 4)) * 4
        let cells = try section(88, cellsLength)
        let strings = try section(96, b.u64(104))

        // The checks below read every section but the points: ask for them in one read-ahead each
        // rather than one page fault at a time (a mapping is advised MADV_RANDOM).
        if let base = b.baseAddress {
            for part in [areas, rings, codes, grid, cells, strings] {
                if let start = part.baseAddress { storage.willRead(start - base..<start - base + part.count) }
            }
        }
        func text(_ offset: Int) -> Range<Int>? {
            guard offset >= 0, offset <= strings.count - 2 else { return nil }
            let end = offset + 2 + Int(strings.u16(offset))
            return end <= strings.count ? offset + 2..<end : nil
        }
        for area in 0..<areaCount {
            let o = area * Self.areaSize
            let firstRing = Int(areas.u32(o + 16))
            let ringsHere = Int(areas.u32(o + 20))
            guard ringsHere >= 1, firstRing <= ringCount, ringsHere <= ringCount - firstRing else {
                throw fail("the file is damaged (area \(area) names rings it does not have)")
            }
            guard rings.u32(firstRing * 8 + 4) & Self.holeFlag == 0 else {
                throw fail("the file is damaged (area \(area) begins with a hole)")
            }
            var offset = Int(areas.u32(o + 24))
            let fields = Int(areas.u16(o + 28))
            guard fields >= 4, fields % 2 == 0 else { throw fail("the file is damaged (area \(area)'s names)") }
            for _ in 0..<fields {
                guard let range = text(offset) else { throw fail("the file is damaged (area \(area)'s names)") }
                offset = range.upperBound
            }
        }
        for ring in 0..<ringCount {
            let first = Int(rings.u32(ring * 8))
            let n = Int(rings.u32(ring * 8 + 4) & ~Self.holeFlag)
            guard n >= 3, first <= pointCount, n <= pointCount - first else {
                throw fail("the file is damaged (ring \(ring) names points it does not have)")
            }
        }
        var previousEnd = 0
        for cell in 0..<cellCount {
            let end = Int(grid.u32((cell + 1) * 4))
            guard Int(grid.u32(cell * 4)) == previousEnd, end >= previousEnd else {
                throw fail("the file is damaged (its grid index)")
            }
            previousEnd = end
        }
        for i in 0..<cells.count / 4 where Int(cells.u32(i * 4)) >= areaCount {
            throw fail("the file is damaged (its grid names an area it does not have)")
        }
        var previous: Range<Int>? = nil
        for i in 0..<codeCount {
            guard let key = text(Int(codes.u32(i * 8))), Int(codes.u32(i * 8 + 4)) < areaCount else {
                throw fail("the file is damaged (its geocode index)")
            }
            if let p = previous, !strings[p].lexicographicallyPrecedes(strings[key]) {
                throw fail("the file is damaged (its geocode index is not sorted)")
            }
            previous = key
        }
        self.storage = storage
        self.count = areaCount
        self.areas = areas
        self.rings = rings
        self.points = points
        self.codes = codes
        self.grid = grid
        self.cells = cells
        self.strings = strings
        self.gridWest = west
        self.gridSouth = south
        self.columns = columns
        self.rows = rows
    }

    // MARK: - Lookups

    /// The indices of the areas that contain (`lat`, `lon`) in degrees, ascending (a point on an area's
    /// border is in it). Areas overlap (coastal and inland ones, Paris in two French areas), so this may be
    /// several. The point is rounded to the table's micro-degrees and compared exactly.
    package func areaIndices(containingLat lat: Double, lon: Double) -> [Int] {
        let y = Int64((lat * Self.e6).rounded())
        let x0 = Int64((lon * Self.e6).rounded())
        var found: [Int] = []
        // A ring unwrapped across the antimeridian has longitudes beyond ±180°: try the point there too.
        for x in [x0, x0 + 360_000_000, x0 - 360_000_000] {
            let column = Int(Self.wholeDegrees(x)) - gridWest
            let row = Int(Self.wholeDegrees(y)) - gridSouth
            // An area is listed in every cell its bounding box touches (floor of each corner), so the
            // point's own cell holds every area whose box contains it, borders included.
            guard column >= 0, column < columns, row >= 0, row < rows else { continue }
            let cell = row * columns + column
            for i in Int(grid.u32(cell * 4))..<Int(grid.u32(cell * 4 + 4)) {
                let index = Int(cells.u32(i * 4))
                if !found.contains(index), contains(area: index, x: x, y: y) { found.append(index) }
            }
        }
        return found.sorted()
    }

    /// The indices of the areas whose border passes within `km` of (`lat`, `lon`), ascending: for a point
    /// that lies in no area (a coastal town the coarse geometry leaves in the sea, a sliver between two
    /// areas). Distances on a local flat projection of the point's latitude, good to a few per cent at
    /// the few km this is for.
    package func areaIndices(nearLat lat: Double, lon: Double, withinKm km: Double) -> [Int] {
        guard km > 0, km.isFinite, abs(lat) < 89 else { return [] }
        let kmPerDegreeLat = 110.57
        let kmPerDegreeLon = 111.32 * cmath_cos(lat * .pi / 180)
        let dLat = km / kmPerDegreeLat
        let dLon = km / kmPerDegreeLon
        var candidates: [Int] = []
        for shift in [0.0, 360, -360] {
            let west = Int(Self.wholeDegrees(Int64(((lon + shift - dLon) * Self.e6).rounded()))) - gridWest
            let east = Int(Self.wholeDegrees(Int64(((lon + shift + dLon) * Self.e6).rounded()))) - gridWest
            let south = Int(Self.wholeDegrees(Int64(((lat - dLat) * Self.e6).rounded()))) - gridSouth
            let north = Int(Self.wholeDegrees(Int64(((lat + dLat) * Self.e6).rounded()))) - gridSouth
            guard east >= 0, west < columns, north >= 0, south < rows else { continue }
            for row in max(0, south)...min(rows - 1, north) {
                for column in max(0, west)...min(columns - 1, east) {
                    let cell = row * columns + column
                    for i in Int(grid.u32(cell * 4))..<Int(grid.u32(cell * 4 + 4)) {
                        let index = Int(cells.u32(i * 4))
                        if !candidates.contains(index) { candidates.append(index) }
                    }
                }
            }
        }
        var found: [Int] = []
        for index in candidates {
            let o = index * Self.areaSize
            let first = Int(areas.u32(o + 16))
            let end = first + Int(areas.u32(o + 20))
            var near = false
            for ring in first..<end where !near {
                let start = Int(rings.u32(ring * 8))
                let n = Int(rings.u32(ring * 8 + 4) & ~Self.holeFlag)
                guard n > 0 else { continue }
                func point(_ k: Int) -> (x: Double, y: Double) {
                    let at = (start + k % n) * 8
                    var x = Double(Int32(bitPattern: points.u32(at))) / Self.e6
                    let y = Double(Int32(bitPattern: points.u32(at + 4))) / Self.e6
                    // A ring unwrapped across the antimeridian: measured on the point's side.
                    while x - lon > 180 { x -= 360 }
                    while lon - x > 180 { x += 360 }
                    return ((x - lon) * kmPerDegreeLon, (y - lat) * kmPerDegreeLat)
                }
                var a = point(0)
                for k in 1...n {
                    let b = point(k)
                    if PlaneSegment.nearestToOrigin(a, b).distance <= km {
                        near = true
                        break
                    }
                    a = b
                }
            }
            if near { found.append(index) }
        }
        return found.sorted()
    }

    /// The index of the area a warning's geocode names: by its scheme when given (EMMA_ID, WARNCELLID,
    /// NUTS3, NUTS2, FIPS, as CAP's `valueName`), else the first scheme in which `code` exists (the areas'
    /// own codes before aliases). nil when the table does not know it.
    package func areaIndex(code: String, scheme: String? = nil) -> Int? {
        if let scheme { return index(scheme: scheme, code: code) }
        for s in Self.schemesByPreference {
            if let i = index(scheme: s, code: code) { return i }
        }
        return nil
    }

    /// The text fields of the area at `index` (0 ..< count): scheme, code, country, name, then scheme and
    /// code of each alias (at least four, an even number: checked at load).
    package func fields(at index: Int) -> [String] {
        let o = index * Self.areaSize
        var offset = Int(areas.u32(o + 24))
        let fields = Int(areas.u16(o + 28))
        var texts: [String] = []
        texts.reserveCapacity(fields)
        for _ in 0..<fields {
            let length = Int(strings.u16(offset))
            texts.append(String(decoding: strings[offset + 2..<offset + 2 + length], as: UTF8.self))
            offset += 2 + length
        }
        return texts
    }

    /// The bounding box of the area at `index` (0 ..< count), in degrees (east may pass 180 for an area
    /// across the antimeridian).
    package func bounds(at index: Int) -> (west: Double, south: Double, east: Double, north: Double) {
        let o = index * Self.areaSize
        func degrees(_ at: Int) -> Double { Double(Int32(bitPattern: areas.u32(o + at))) / Self.e6 }
        return (degrees(0), degrees(4), degrees(8), degrees(12))
    }

    // MARK: - Internals

    /// floor(v / 1e6), exactly (the build script's `v // 1_000_000`).
    package static func wholeDegrees(_ v: Int64) -> Int64 {
        let q = v / 1_000_000
        return v % 1_000_000 < 0 ? q - 1 : q
    }

    package func index(scheme: String, code: String) -> Int? {
        let key = Array(scheme.utf8) + [0x09] + Array(code.utf8)
        var low = 0
        var high = codes.count / 8
        while low < high {
            let mid = (low + high) / 2
            let offset = Int(codes.u32(mid * 8))
            let entry = strings[offset + 2..<offset + 2 + Int(strings.u16(offset))]
            if entry.lexicographicallyPrecedes(key) {
                low = mid + 1
            } else if key.lexicographicallyPrecedes(entry) {
                high = mid
            } else {
                return Int(codes.u32(mid * 8 + 4))
            }
        }
        return nil
    }

    /// Whether area `index` contains (x, y) in 1e-6 degrees: in a polygon's outer ring (or on it) and not
    /// strictly inside one of its holes (a hole's border is the area's border, so it counts as inside).
    package func contains(area index: Int, x: Int64, y: Int64) -> Bool {
        let o = index * Self.areaSize
        guard Int64(Int32(bitPattern: areas.u32(o))) <= x, x <= Int64(Int32(bitPattern: areas.u32(o + 8))),
            Int64(Int32(bitPattern: areas.u32(o + 4))) <= y, y <= Int64(Int32(bitPattern: areas.u32(o + 12)))
        else { return false }
        let first = Int(areas.u32(o + 16))
        let end = first + Int(areas.u32(o + 20))
        var ring = first
        while ring < end {
            let outer = locate(ring: ring, x: x, y: y)
            ring += 1
            var inPolygon = outer != .outside
            var onBorder = outer == .boundary
            while ring < end, rings.u32(ring * 8 + 4) & Self.holeFlag != 0 {
                if inPolygon, !onBorder {
                    switch locate(ring: ring, x: x, y: y) {
                    case .inside: inPolygon = false
                    case .boundary: onBorder = true
                    case .outside: break
                    }
                }
                ring += 1
            }
            if inPolygon { return true }
        }
        return false
    }

    package func locate(ring: Int, x: Int64, y: Int64) -> RingContainment {
        let first = Int(rings.u32(ring * 8))
        let n = Int(rings.u32(ring * 8 + 4) & ~Self.holeFlag)
        let slice = UnsafeRawBufferPointer(rebasing: points[first * 8..<(first + n) * 8])
        return RingContainment.locate(x: x, y: y, ring: slice, count: n)
    }
}
