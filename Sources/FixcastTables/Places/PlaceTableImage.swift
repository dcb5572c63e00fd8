/// The offline place table in its compact binary form (share/fixcast/places.bin), laid out so that it can
/// be used straight from a read-only `mmap` (the adapters' `MappedPlaceTableFile`; here only the bytes, through
/// `TableStorage`): nothing is parsed or built at load, and only the pages a
/// lookup touches become resident (clean file pages the kernel may drop again). The text table (TSV) is
/// the source it is made from (`PlaceTableText`); FixcastCore's `OfflinePlaceTable` converts it with
/// `PlaceTableImage.encode` and turns rows into places.
///
/// Layout, little-endian, offsets from the start of the file:
///
///     header (64 bytes)  "FXPLACE2", u32 places, u32 countries, u32 regions, u32 0,
///                        u64 tree offset, u64 records offset, u64 strings offset, u64 strings length,
///                        u64 lists offset
///     tree               per place, in implicit k-d tree order (node = median of its range):
///                        i32 lat E4, i32 lon E4, u32 row | split axis << 30
///     records            per row (the text table's order): u32 name offset (into strings),
///                        i32 population (-1: unknown), i16 region (-1: none), u16 country, u32 tree position,
///                        u16 area (the second-level division, county or département: rows with the same
///                        value share it; 0xFFFF: not known), u16 0
///     strings            per row: u16 name length, u16 alternate name length, name, alternate name (UTF-8)
///     lists              per country: 2-byte code, u16 length, name; then per region: u16 length, name
package struct PlaceTableImage: @unchecked Sendable {
    /// A country of the table: its ISO 3166-1 alpha-2 code and its name.
    package struct Country: Sendable, Hashable {
        package let code: String
        package let name: String

        package init(code: String, name: String) {
            self.code = code
            self.name = name
        }
    }

    package static let magic: [UInt8] = Array("FXPLACE2".utf8)
    package static let headerSize = 64
    package static let nodeSize = 12
    package static let recordSize = 20
    /// A row whose second-level division is not known.
    package static let noArea: UInt16 = .max
    package static let rowMask: UInt32 = (1 << 30) - 1

    /// Keeps the bytes alive (an array or a mapping) for as long as any copy of the image exists.
    package let storage: any TableStorage
    package let count: Int
    package let tree: UnsafeRawBufferPointer
    package let records: UnsafeRawBufferPointer
    package let strings: UnsafeRawBufferPointer
    package let countries: [Country]
    package let regions: [String]

    /// Checks the header and section bounds (not every record: that would make every page resident);
    /// record fields are bounds-checked when read.
    package init(storage: any TableStorage) throws(TableFormatError) {
        let b = storage.bytes
        func fail(_ reason: String) -> TableFormatError { .init(reason: reason) }
        guard b.count >= Self.headerSize, Array(b[0..<8]) == Self.magic else {
            throw fail("the file is not a fixcast place table of this version (no \"FXPLACE2\" header)")
        }
        let placeCount = Int(b.u32(8))
        let countryCount = Int(b.u32(12))
        let regionCount = Int(b.u32(16))
        let treeOffset = b.u64(24)
        let recordsOffset = b.u64(32)
        let stringsOffset = b.u64(40)
        let stringsLength = b.u64(48)
        let listsOffset = b.u64(56)
        func section(_ offset: UInt64, _ length: UInt64) throws(TableFormatError)
            -> UnsafeRawBufferPointer
        {
            guard offset <= UInt64(b.count), length <= UInt64(b.count) - offset else {
                throw fail("the file is truncated or damaged (a section ends past its \(b.count) bytes)")
            }
            return UnsafeRawBufferPointer(rebasing: b[Int(offset)..<Int(offset + length)])
        }
        guard placeCount <= Int(Self.rowMask), countryCount <= Int(UInt16.max), regionCount <= Int(Int16.max) else {
            throw fail("the header announces impossible counts")
        }
        tree = try section(treeOffset, UInt64(placeCount * Self.nodeSize))
        records = try section(recordsOffset, UInt64(placeCount * Self.recordSize))
        strings = try section(stringsOffset, stringsLength)
        var cursor = try section(listsOffset, UInt64(b.count) - min(listsOffset, UInt64(b.count)))[...]
        func take(_ n: Int) throws(TableFormatError) -> UnsafeRawBufferPointer {
            guard cursor.count >= n else { throw fail("the file is truncated or damaged (country/region names)") }
            let part = UnsafeRawBufferPointer(rebasing: cursor.prefix(n))
            cursor = cursor.dropFirst(n)
            return part
        }
        func text() throws(TableFormatError) -> String {
            let length = Int(try take(2).u16(0))
            return String(decoding: try take(length), as: UTF8.self)
        }
        var countries: [Country] = []
        countries.reserveCapacity(countryCount)
        for _ in 0..<countryCount {
            let code = String(decoding: try take(2), as: UTF8.self)
            countries.append(.init(code: code, name: try text()))
        }
        var regions: [String] = []
        regions.reserveCapacity(regionCount)
        for _ in 0..<regionCount { regions.append(try text()) }
        self.storage = storage
        self.count = placeCount
        self.countries = countries
        self.regions = regions
    }

    // MARK: - Rows

    /// Before touching every record and name (search): read them ahead rather than page by page.
    package func willScanRows() {
        guard let base = storage.bytes.baseAddress, let r = records.baseAddress, let s = strings.baseAddress else {
            return
        }
        storage.willRead(r - base..<r - base + records.count)
        storage.willRead(s - base..<s - base + strings.count)
    }

    @inline(__always) package func record(_ row: Int) -> Int { row * Self.recordSize }

    /// The bytes of a row's name and alternate name in `strings`; both empty when the row's record does
    /// not fit the layout. The encoder writes the rows' strings one after another, so a row's strings end
    /// where the next row's begin (the last row's, at the section's end): lengths read from a damaged or
    /// shifted section (up to 64 KiB each, not the tens of bytes names have) fail that test, and a search
    /// over every row stays as costly as the file is long (a shifted strings offset once made one search
    /// fold 20 GB of garbage, minutes of work).
    package func nameRanges(_ row: Int) -> (name: Range<Int>, alt: Range<Int>) {
        let start = Int(records.u32(record(row)))
        guard start <= strings.count - 4 else { return (0..<0, 0..<0) }
        let nameEnd = start + 4 + Int(strings.u16(start))
        let altEnd = nameEnd + Int(strings.u16(start + 2))
        let next = row + 1 < count ? Int(records.u32(record(row + 1))) : strings.count
        guard altEnd == next, altEnd <= strings.count else { return (0..<0, 0..<0) }
        return (start + 4..<nameEnd, nameEnd..<altEnd)
    }

    package func population(_ row: Int) -> Int32 { Int32(bitPattern: records.u32(record(row) + 4)) }
    package func regionIndex(_ row: Int) -> Int16 { Int16(bitPattern: records.u16(record(row) + 8)) }
    package func countryIndex(_ row: Int) -> UInt16 { records.u16(record(row) + 10) }
    package func treePosition(_ row: Int) -> Int { Int(records.u32(record(row) + 12)) }
    /// The row's second-level division (`noArea`: not known); only equality means anything.
    package func area(_ row: Int) -> UInt16 { records.u16(record(row) + 16) }

    /// Latitude and longitude in 1e-4 degrees of the tree node at `position`.
    @inline(__always) package func nodeE4(_ position: Int) -> (lat: Int32, lon: Int32) {
        let o = position * Self.nodeSize
        return (Int32(bitPattern: tree.u32(o)), Int32(bitPattern: tree.u32(o + 4)))
    }

    // MARK: - Writing

    /// One row of a table to encode.
    package struct Row {
        package var latE4: Int32
        package var lonE4: Int32
        package var name: ArraySlice<UInt8>
        package var alt: ArraySlice<UInt8>
        package var population: Int32
        package var region: Int16
        package var country: UInt16
        package var area: UInt16

        package init(
            latE4: Int32, lonE4: Int32, name: ArraySlice<UInt8>, alt: ArraySlice<UInt8>, population: Int32,
            region: Int16, country: UInt16, area: UInt16 = PlaceTableImage.noArea
        ) {
            self.latE4 = latE4
            self.lonE4 = lonE4
            self.name = name
            self.alt = alt
            self.population = population
            self.region = region
            self.country = country
            self.area = area
        }
    }

    /// The binary image of a table (what scripts/build-places.py writes as places.bin).
    package static func encode(countries: [Country], regions: [String], rows: [Row]) -> [UInt8] {
        let n = rows.count
        let index = KDTreeIndex(
            lat: rows.map { Double($0.latE4) / 10_000 }, lon: rows.map { Double($0.lonE4) / 10_000 })
        var out = [UInt8](repeating: 0, count: headerSize)
        var treePosition = [UInt32](repeating: 0, count: n)
        let treeOffset = out.count
        for position in 0..<n {
            let row = Int(index.ids[position])
            treePosition[row] = UInt32(position)
            out.append(u32: UInt32(bitPattern: rows[row].latE4))
            out.append(u32: UInt32(bitPattern: rows[row].lonE4))
            out.append(u32: UInt32(row) | UInt32(index.axes[position]) << 30)
        }
        var strings: [UInt8] = []
        var nameOffsets: [UInt32] = []
        nameOffsets.reserveCapacity(n)
        for r in rows {
            nameOffsets.append(UInt32(strings.count))
            let name = r.name.prefix(Int(UInt16.max))
            let alt = r.alt.prefix(Int(UInt16.max))
            strings.append(u16: UInt16(name.count))
            strings.append(u16: UInt16(alt.count))
            strings.append(contentsOf: name)
            strings.append(contentsOf: alt)
        }
        let recordsOffset = out.count
        for (row, r) in rows.enumerated() {
            out.append(u32: nameOffsets[row])
            out.append(u32: UInt32(bitPattern: r.population))
            out.append(u16: UInt16(bitPattern: r.region))
            out.append(u16: r.country)
            out.append(u32: treePosition[row])
            out.append(u16: r.area)
            out.append(u16: 0)
        }
        let stringsOffset = out.count
        out.append(contentsOf: strings)
        let listsOffset = out.count
        for c in countries {
            let code = Array(c.code.utf8)
            out.append(contentsOf: code.count == 2 ? code : [0x3F, 0x3F])
            let name = Array(c.name.utf8).prefix(Int(UInt16.max))
            out.append(u16: UInt16(name.count))
            out.append(contentsOf: name)
        }
        for region in regions {
            let name = Array(region.utf8).prefix(Int(UInt16.max))
            out.append(u16: UInt16(name.count))
            out.append(contentsOf: name)
        }
        var header: [UInt8] = magic
        header.append(u32: UInt32(n))
        header.append(u32: UInt32(countries.count))
        header.append(u32: UInt32(regions.count))
        header.append(u32: 0)
        header.append(u64: UInt64(treeOffset))
        header.append(u64: UInt64(recordsOffset))
        header.append(u64: UInt64(stringsOffset))
        header.append(u64: UInt64(strings.count))
        header.append(u64: UInt64(listsOffset))
        out.replaceSubrange(0..<headerSize, with: header)
        return out
    }
}
