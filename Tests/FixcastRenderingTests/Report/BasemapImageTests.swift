import FixcastTables
import Foundation
import Testing

@testable import FixcastCore
@testable import FixcastRendering

/// basemap.bin's reader on images made here by the layout of scripts/build-basemap.py, and on hostile
/// ones: truncated, lying counts and offsets, random bytes. Nothing may crash; damage is reported.
@Suite struct BasemapImageTests {
    /// One feature per line, one chunk per feature: (kind, [(lon, lat)]) in degrees.
    static func image(_ lines: [(UInt32, [(Double, Double)])]) -> [UInt8] {
        var features: [UInt8] = []
        var chunks: [UInt8] = []
        var area: [UInt8] = []
        func u32(_ v: UInt32, _ into: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { into += $0 } }
        func i32(_ v: Int32, _ into: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { into += $0 } }
        func i16(_ v: Int16, _ into: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { into += $0 } }
        for (k, (kind, points)) in lines.enumerated() {
            let q = points.map { (Int32(($0.0 * 1e5).rounded()), Int32(($0.1 * 1e5).rounded())) }
            let box = [q.map(\.0).min()!, q.map(\.1).min()!, q.map(\.0).max()!, q.map(\.1).max()!]
            u32(UInt32(k), &features)
            u32(1, &features)
            u32(kind, &features)
            for v in box { i32(v, &features) }
            u32(UInt32(area.count), &chunks)
            u32(UInt32(q.count), &chunks)
            for v in box { i32(v, &chunks) }
            i32(q[0].0, &area)
            i32(q[0].1, &area)
            for i in 1..<q.count {
                i16(Int16(q[i].0 - q[i - 1].0), &area)
                i16(Int16(q[i].1 - q[i - 1].1), &area)
            }
        }
        var out = Array("FXBASEM1".utf8)
        u32(UInt32(lines.count), &out)
        u32(UInt32(lines.count), &out)
        u32(UInt32(area.count), &out)
        out += [UInt8](repeating: 0, count: 12)
        return out + features + chunks + area
    }

    static let sample: [(UInt32, [(Double, Double)])] = [
        (0, [(7.0, 45.0), (7.1, 45.05), (7.2, 45.0)]),
        (1, [(7.05, 45.2), (7.1, 45.25), (7.15, 45.2), (7.05, 45.2)]),
        (2, [(-170.0, 10.0), (-169.9, 10.1)]),
    ]

    @Test func readsTheLinesThatMeetTheView() throws {
        let map = try BasemapImage(storage: InMemoryPlaceTableStorage(copying: Self.image(Self.sample)))
        let view = GeoBox(minLon: 6.9, minLat: 44.9, maxLon: 7.3, maxLat: 45.3)
        let found = map.lines(in: [view])
        #expect(!found.damaged)
        #expect(found.lines.map(\.kind) == [.coast, .lake])
        #expect(found.lines[0].lons == [7.0, 7.1, 7.2])
        #expect(found.lines[0].lats == [45.0, 45.05, 45.0])
        #expect(
            map.lines(in: [GeoBox(minLon: -171, minLat: 9, maxLon: -169, maxLat: 11)]).lines.map(\.kind) == [.border])
        #expect(map.lines(in: [GeoBox(minLon: 100, minLat: 0, maxLon: 101, maxLat: 1)]).lines.isEmpty)
    }

    @Test func hostileImagesAreRefusedOrReportedNeverTrusted() throws {
        let good = Self.image(Self.sample)
        let everywhere = [GeoBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)]
        // Truncated anywhere: refused at open (the header's tables do not fit).
        for cut in [0, 7, 8, 31, 32, 40, good.count / 2, good.count - 1] {
            #expect(throws: TableFormatError.self) {
                _ = try BasemapImage(storage: InMemoryPlaceTableStorage(copying: Array(good.prefix(cut))))
            }
        }
        // A chunk whose offset or count points past the point area: skipped and reported.
        var lying = good
        let chunksAt = 32 + 3 * 28
        lying[chunksAt + 4] = 0xFF  // first chunk's point count: 255
        lying[chunksAt + 24] = 0xF0  // second chunk's offset
        lying[chunksAt + 25] = 0xFF
        let map = try BasemapImage(storage: InMemoryPlaceTableStorage(copying: lying))
        let found = map.lines(in: everywhere)
        #expect(found.damaged)
        #expect(found.lines.map(\.kind) == [.border])
        // A feature naming chunks that do not exist, or an unknown kind: skipped and reported.
        var features = good
        features[32] = 0xFF
        features[32 + 28 + 8] = 9
        let badFeatures = try BasemapImage(storage: InMemoryPlaceTableStorage(copying: features)).lines(in: everywhere)
        #expect(badFeatures.damaged && badFeatures.lines.map(\.kind) == [.border])
        // Random bytes after a valid header, and random flips of a valid image: no crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<8 {
                bytes[Int.random(in: 8..<bytes.count, using: &generator)] = .random(in: 0...255, using: &generator)
            }
            if let image = try? BasemapImage(storage: InMemoryPlaceTableStorage(copying: bytes)) {
                let drawn = BasemapLayer.svg(image.lines(in: everywhere).lines, fit: Self.fit, clipID: "c")
                #expect(!drawn.contains("nan") && !drawn.contains("inf"))
            }
        }
    }

    static let fit: PanelFit = {
        let projection = MapProjection.mercator(centralLongitude: 7.1)
        let points = [Coordinate(lat: 44.95, lon: 6.95)!, Coordinate(lat: 45.3, lon: 7.25)!].map(projection.project)
        return PanelFit(points: points, panel: PlaneRect(x: 20, y: 78, width: 920, height: 480), projection: projection)
    }()

    @Test func aLakeFarLargerThanTheMapIsCutToIt() {
        let r = PlaneRect(x: 0, y: 0, width: 10, height: 10)
        let huge = [
            PlanePoint(x: -1e6, y: -1e6), PlanePoint(x: 1e6, y: -1e6), PlanePoint(x: 1e6, y: 1e6),
            PlanePoint(x: -1e6, y: 1e6),
        ]
        let cut = BasemapLayer.clipPolygon(huge, to: r)
        #expect(cut.count == 4)
        #expect(cut.allSatisfy { $0.x >= 0 && $0.x <= 10 && $0.y >= 0 && $0.y <= 10 })
        // A triangle poking in: the part inside, edges along the rectangle where it was cut.
        let poke = [PlanePoint(x: 5, y: 5), PlanePoint(x: 20, y: 0), PlanePoint(x: 20, y: 10)]
        let inside = BasemapLayer.clipPolygon(poke, to: r)
        #expect(inside.contains(PlanePoint(x: 5, y: 5)))
        #expect(inside.allSatisfy { $0.x <= 10 })
        #expect(
            BasemapLayer.clipPolygon(
                [PlanePoint(x: 50, y: 50), PlanePoint(x: 60, y: 50), PlanePoint(x: 60, y: 60)], to: r
            ).isEmpty)
    }

    @Test func theLayerClipsToThePanelAndFillsLakes() throws {
        let map = try BasemapImage(storage: InMemoryPlaceTableStorage(copying: Self.image(Self.sample)))
        let boxes = BasemapLayer.viewBoxes(Self.fit)
        #expect(boxes.count == 1)
        let found = map.lines(in: boxes)
        let svg = BasemapLayer.svg(found.lines, fit: Self.fit, clipID: "fixcast-map-clip")
        #expect(svg.contains("<path class=\"lake\""))
        #expect(svg.contains("<path class=\"coast\""))
        #expect(!svg.contains("class=\"border\""))
        #expect(svg.contains("clip-path=\"url(#fixcast-map-clip)\""))
        // A view across ±180° asks for both sides.
        let projection = MapProjection.mercator(centralLongitude: 180)
        let across = PanelFit(
            points: [Coordinate(lat: 17, lon: 179.5)!, Coordinate(lat: 18, lon: -179.5)!].map(projection.project),
            panel: PlaneRect(x: 0, y: 0, width: 900, height: 500), projection: projection)
        let sides = BasemapLayer.viewBoxes(across)
        #expect(sides.count == 2)
        #expect(sides.contains { $0.maxLon == 180 } && sides.contains { $0.minLon == -180 })
        // Around the pole: every longitude.
        let pole = MapProjection.azimuthalEquidistant(centre: Coordinate(lat: 89.9, lon: 0)!)
        let polar = PanelFit(
            points: [Coordinate(lat: 89.8, lon: 0)!, Coordinate(lat: 89.8, lon: 180)!].map(pole.project),
            panel: PlaneRect(x: 0, y: 0, width: 900, height: 500), projection: pole)
        let ring = BasemapLayer.viewBoxes(polar)
        #expect(ring == [GeoBox(minLon: -180, minLat: ring[0].minLat, maxLon: 180, maxLat: 90)])
        #expect(ring[0].minLat > 89 && ring[0].minLat < 89.8)
    }
}
