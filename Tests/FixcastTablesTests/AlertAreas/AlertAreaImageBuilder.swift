@testable import FixcastTables

/// Writes small area tables in alert-areas.bin's layout (scripts/build-alert-areas.py documents it), so the
/// tests can give the reader shapes the bundled file does not have (holes, the antimeridian) and damage it.
struct AlertAreaImageBuilder {
    /// A geocode: scheme and code.
    struct Geocode: Equatable {
        var scheme: String
        var code: String
    }

    struct Area {
        var scheme = "EMMA_ID"
        var code: String
        var country = "XX"
        var name = ""
        var aliases: [Geocode] = []
        /// Polygons: an outer ring, then its holes; rings as (lon, lat) degrees, not closed.
        var polygons: [[[(Double, Double)]]]
    }

    var areas: [Area]

    func bytes() -> [UInt8] {
        func e6(_ v: Double) -> Int32 { Int32((v * 1_000_000).rounded()) }
        func floorDiv(_ v: Int32) -> Int { Int(AlertAreaImage.wholeDegrees(Int64(v))) }
        var areaBytes: [UInt8] = []
        var ringBytes: [UInt8] = []
        var pointBytes: [UInt8] = []
        var strings: [UInt8] = []
        var keys: [([UInt8], UInt32)] = []
        var boxes: [(Int32, Int32, Int32, Int32)] = []
        var ringCount = 0
        var pointCount = 0
        func text(_ s: String) {
            let b = Array(s.utf8)
            strings.append(u16: UInt16(b.count))
            strings.append(contentsOf: b)
        }
        for (id, area) in areas.enumerated() {
            let firstRing = ringCount
            var box = (Int32.max, Int32.max, Int32.min, Int32.min)
            for polygon in area.polygons {
                for (index, ring) in polygon.enumerated() {
                    ringBytes.append(u32: UInt32(pointCount))
                    ringBytes.append(u32: UInt32(ring.count) | (index > 0 ? AlertAreaImage.holeFlag : 0))
                    ringCount += 1
                    for (lon, lat) in ring {
                        let x = e6(lon)
                        let y = e6(lat)
                        pointBytes.append(u32: UInt32(bitPattern: x))
                        pointBytes.append(u32: UInt32(bitPattern: y))
                        pointCount += 1
                        box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
                    }
                }
            }
            boxes.append(box)
            let offset = strings.count
            let fields =
                [area.scheme, area.code, area.country, area.name] + area.aliases.flatMap { [$0.scheme, $0.code] }
            fields.forEach(text)
            for v in [box.0, box.1, box.2, box.3] { areaBytes.append(u32: UInt32(bitPattern: v)) }
            areaBytes.append(u32: UInt32(firstRing))
            areaBytes.append(u32: UInt32(ringCount - firstRing))
            areaBytes.append(u32: UInt32(offset))
            areaBytes.append(u16: UInt16(fields.count))
            areaBytes.append(u16: 0)
            for g in [Geocode(scheme: area.scheme, code: area.code)] + area.aliases {
                keys.append((Array(g.scheme.utf8) + [9] + Array(g.code.utf8), UInt32(id)))
            }
        }
        keys.sort { $0.0.lexicographicallyPrecedes($1.0) }
        var codeBytes: [UInt8] = []
        for (key, id) in keys {
            codeBytes.append(u32: UInt32(strings.count))
            codeBytes.append(u32: id)
            strings.append(u16: UInt16(key.count))
            strings.append(contentsOf: key)
        }
        let west = boxes.map { floorDiv($0.0) }.min() ?? 0
        let south = boxes.map { floorDiv($0.1) }.min() ?? 0
        let columns = (boxes.map { floorDiv($0.2) }.max() ?? 0) + 1 - west
        let rows = (boxes.map { floorDiv($0.3) }.max() ?? 0) + 1 - south
        var cells = [[UInt32]](repeating: [], count: columns * rows)
        for (id, b) in boxes.enumerated() {
            for r in floorDiv(b.1) - south...floorDiv(b.3) - south {
                for c in floorDiv(b.0) - west...floorDiv(b.2) - west { cells[r * columns + c].append(UInt32(id)) }
            }
        }
        var gridBytes: [UInt8] = []
        var cellBytes: [UInt8] = []
        var start: UInt32 = 0
        for cell in cells {
            gridBytes.append(u32: start)
            for id in cell { cellBytes.append(u32: id) }
            start += UInt32(cell.count)
        }
        gridBytes.append(u32: start)
        var body: [UInt8] = []
        var offsets: [UInt64] = []
        for section in [areaBytes, ringBytes, pointBytes, codeBytes, gridBytes, cellBytes, strings] {
            offsets.append(UInt64(AlertAreaImage.headerSize + body.count))
            body += section
        }
        var header = AlertAreaImage.magic
        header.append(u32: AlertAreaImage.version)
        for v in [areas.count, ringCount, pointCount, keys.count] { header.append(u32: UInt32(v)) }
        header.append(u32: UInt32(bitPattern: Int32(west)))
        header.append(u32: UInt32(bitPattern: Int32(south)))
        header.append(u32: UInt32(columns))
        header.append(u32: UInt32(rows))
        header.append(u32: 0)
        for o in offsets { header.append(u64: o) }
        header.append(u64: UInt64(strings.count))
        return header + body
    }

    func image() throws -> AlertAreaImage {
        try AlertAreaImage(storage: InMemoryTableStorage(copying: bytes()))
    }
}
