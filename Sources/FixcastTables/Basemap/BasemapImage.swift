/// The kinds of line the base map holds, in the order they are drawn.
public enum BasemapKind: UInt32, Sendable, Hashable, CaseIterable {
    case coast = 0
    case lake = 1
    case border = 2
}

/// A box of longitude and latitude in degrees (min ≤ max; no wrap: a view across ±180° asks for two).
public struct GeoBox: Sendable, Hashable {
    public var minLon: Double
    public var minLat: Double
    public var maxLon: Double
    public var maxLat: Double
    public init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon
        self.minLat = minLat
        self.maxLon = maxLon
        self.maxLat = maxLat
    }
}

/// One line of the base map as read: a coast or border stretch, or a whole lake ring (lon, lat degrees).
public struct BasemapLine: Sendable, Hashable {
    public var kind: BasemapKind
    public var lons: [Double]
    public var lats: [Double]
}

/// basemap.bin's bytes read in place (layout: scripts/build-basemap.py): the coast, lakes and land
/// borders of Natural Earth 1:10m, cut into chunks with bounding boxes, so a map reads only what it shows.
///
/// The file is data from outside: every offset and count is checked against the bytes before it is
/// followed, and a record that points outside them is skipped and reported (`damaged`), never trusted.
public struct BasemapImage: Sendable {
    static let magic: [UInt8] = Array("FXBASEM1".utf8)
    static let headerSize = 32
    static let featureSize = 28
    static let chunkSize = 24
    /// 1e-5 degree units (about 1 m).
    static let scale = 100_000.0

    let storage: any TableStorage
    let featureCount: Int
    let chunkCount: Int
    let featuresAt: Int
    let chunksAt: Int
    let pointsAt: Int
    let pointBytes: Int

    /// Checks the header and that the tables it announces fit in the bytes.
    public init(storage: any TableStorage) throws(TableFormatError) {
        let b = storage.bytes
        guard b.count >= Self.headerSize, Array(b[0..<8]) == Self.magic else {
            throw TableFormatError(reason: "not a fixcast base map (no FXBASEM1 header)")
        }
        self.storage = storage
        featureCount = Int(b.u32(8))
        chunkCount = Int(b.u32(12))
        pointBytes = Int(b.u32(16))
        featuresAt = Self.headerSize
        chunksAt = featuresAt + featureCount * Self.featureSize
        pointsAt = chunksAt + chunkCount * Self.chunkSize
        // Counts are at most 2^32 and sizes small, so these sums cannot overflow an Int on 64 bits.
        guard pointsAt + pointBytes <= b.count else {
            throw TableFormatError(reason: "the file is shorter than its header says (truncated?)")
        }
    }

    /// A record's box, read at `at` (four i32 in 1e-5 degrees).
    static func box(_ b: UnsafeRawBufferPointer, _ at: Int) -> GeoBox {
        GeoBox(
            minLon: Double(b.i32(at)) / scale, minLat: Double(b.i32(at + 4)) / scale,
            maxLon: Double(b.i32(at + 8)) / scale, maxLat: Double(b.i32(at + 12)) / scale)
    }

    static func meets(_ a: GeoBox, _ b: GeoBox) -> Bool {
        a.minLon <= b.maxLon && b.minLon <= a.maxLon && a.minLat <= b.maxLat && b.minLat <= a.maxLat
    }

    /// The lines that meet any of `boxes`: coast and border chunks whose box meets one, and lake rings
    /// whole (a filled shape needs all of it). `damaged` says a record pointed outside the file; it was
    /// skipped. `limit` bounds the points read (a view of a continent at 1:10m has millions); `kinds`,
    /// the kinds wanted (the borders alone, to tell which side of them a place is: `BorderSide`).
    public func lines(
        in boxes: [GeoBox], kinds: Set<BasemapKind> = Set(BasemapKind.allCases), pointLimit: Int = 2_000_000
    ) -> (lines: [BasemapLine], damaged: Bool) {
        let b = storage.bytes
        var out: [BasemapLine] = []
        var damaged = false
        var budget = pointLimit
        for f in 0..<featureCount {
            let at = featuresAt + f * Self.featureSize
            let featureBox = Self.box(b, at + 12)
            guard boxes.contains(where: { Self.meets($0, featureBox) }) else { continue }
            guard let kind = BasemapKind(rawValue: b.u32(at + 8)) else {
                damaged = true
                continue
            }
            guard kinds.contains(kind) else { continue }
            let first = Int(b.u32(at))
            let count = Int(b.u32(at + 4))
            guard first <= chunkCount, count <= chunkCount - first else {
                damaged = true
                continue
            }
            var ring: BasemapLine?
            for c in first..<(first + count) {
                let cat = chunksAt + c * Self.chunkSize
                if kind != .lake {
                    guard boxes.contains(where: { Self.meets($0, Self.box(b, cat + 8)) }) else { continue }
                }
                guard let line = chunk(c, kind: kind) else {
                    damaged = true
                    continue
                }
                budget -= line.lons.count
                guard budget >= 0 else { return (out, damaged) }
                if kind == .lake {
                    // Chunks of a ring share their end points: join them back into one ring.
                    if ring == nil {
                        ring = line
                    } else {
                        ring?.lons += line.lons.dropFirst()
                        ring?.lats += line.lats.dropFirst()
                    }
                } else {
                    out.append(line)
                }
            }
            if let ring { out.append(ring) }
        }
        return (out, damaged)
    }

    /// One chunk's points; nil when its record points outside the point area.
    func chunk(_ c: Int, kind: BasemapKind) -> BasemapLine? {
        let b = storage.bytes
        let at = chunksAt + c * Self.chunkSize
        let offset = Int(b.u32(at))
        let n = Int(b.u32(at + 4))
        guard n >= 2, offset <= pointBytes, 8 + 4 * (n - 1) <= pointBytes - offset else { return nil }
        var p = pointsAt + offset
        var lon = Int(b.i32(p))
        var lat = Int(b.i32(p + 4))
        p += 8
        var lons = [Double](repeating: 0, count: n)
        var lats = [Double](repeating: 0, count: n)
        lons[0] = Double(lon) / Self.scale
        lats[0] = Double(lat) / Self.scale
        for i in 1..<n {
            lon += Int(b.i16(p))
            lat += Int(b.i16(p + 2))
            p += 4
            lons[i] = Double(lon) / Self.scale
            lats[i] = Double(lat) / Self.scale
        }
        return BasemapLine(kind: kind, lons: lons, lats: lats)
    }
}
