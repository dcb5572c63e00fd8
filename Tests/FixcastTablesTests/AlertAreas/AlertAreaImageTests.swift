import Foundation
import Testing

@testable import FixcastTables

/// alert-areas.bin's reader on small tables made here (holes, overlaps, the antimeridian) and on damaged
/// ones: every truncation and damaged field throws, garbage never crashes.
struct AlertAreaImageTests {
    typealias Area = AlertAreaImageBuilder.Area

    static func box(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> [(Double, Double)] {
        [(w, s), (e, s), (e, n), (w, n)]
    }

    /// A lake (a hole) in a land area, an island inside the lake (a second polygon of the same area),
    /// a coastal area overlapping the land's east half, and an area across the antimeridian.
    static let shapes = AlertAreaImageBuilder(areas: [
        Area(
            code: "LAND", country: "AA", name: "Land",
            aliases: [.init(scheme: "NUTS3", code: "AA111")],
            polygons: [
                [box(10, 50, 12, 52), box(10.5, 50.5, 11.5, 51.5)],
                [box(10.8, 50.8, 11.2, 51.2)],
            ]),
        Area(code: "COAST", country: "AA", name: "Coast", polygons: [[box(11.5, 50, 13, 52)]]),
        Area(
            code: "DATELINE", country: "FJ", name: "Dateline",
            polygons: [[[(179.5, -17), (180.5, -17), (180.5, -16), (179.5, -16)]]]),
    ])

    /// The codes (second text field) of the areas containing the point, in the table's order.
    func codes(_ table: AlertAreaImage, _ lat: Double, _ lon: Double) -> [String] {
        table.areaIndices(containingLat: lat, lon: lon).map { table.fields(at: $0)[1] }
    }

    @Test func holesAndMultipolygons() throws {
        let table = try Self.shapes.image()
        #expect(codes(table, 50.2, 10.2) == ["LAND"])
        #expect(codes(table, 50.7, 10.7) == [])  // in the lake
        #expect(codes(table, 51.0, 11.0) == ["LAND"])  // on the island in the lake
        #expect(codes(table, 50.5, 10.7) == ["LAND"])  // on the lake's shore: the area's border
        #expect(codes(table, 50.8, 11.0) == ["LAND"])  // on the island's shore
        #expect(codes(table, 49.9, 10.2) == [])
    }

    @Test func overlappingAreasAreAllReturned() throws {
        let table = try Self.shapes.image()
        #expect(codes(table, 51.8, 11.8) == ["LAND", "COAST"])
        #expect(codes(table, 51.8, 12.5) == ["COAST"])
        #expect(codes(table, 52, 12) == ["LAND", "COAST"])  // a shared vertex, on a whole degree
        #expect(codes(table, 51, 13) == ["COAST"])  // on its east edge
        #expect(codes(table, 51, 13.000001) == [])
    }

    @Test func aRingAcrossTheAntimeridian() throws {
        let table = try Self.shapes.image()
        #expect(codes(table, -16.5, 179.8) == ["DATELINE"])
        #expect(codes(table, -16.5, -179.8) == ["DATELINE"])
        #expect(codes(table, -16.5, 180) == ["DATELINE"])
        #expect(codes(table, -16.5, -180) == ["DATELINE"])
        #expect(codes(table, -16.5, -179.4) == [])
        #expect(codes(table, -16.5, 179.4) == [])
    }

    @Test func geocodesByCodeAndAlias() throws {
        let table = try Self.shapes.image()
        let land = try #require(table.areaIndex(code: "LAND"))
        #expect(table.fields(at: land) == ["EMMA_ID", "LAND", "AA", "Land", "NUTS3", "AA111"])
        #expect(table.areaIndex(code: "AA111") == land)
        #expect(table.areaIndex(code: "AA111", scheme: "NUTS3") == land)
        #expect(table.areaIndex(code: "AA111", scheme: "EMMA_ID") == nil)
        #expect(table.areaIndex(code: "COAST").map { table.fields(at: $0)[3] } == "Coast")
        #expect(table.areaIndex(code: "NOWHERE") == nil)
        #expect(table.areaIndex(code: "") == nil)
        let box = table.bounds(at: land)
        #expect(box.west == 10 && box.south == 50 && box.east == 12 && box.north == 52)
    }

    @Test func everyTruncationThrows() throws {
        let bytes = Self.shapes.bytes()
        _ = try AlertAreaImage(storage: InMemoryTableStorage(copying: bytes))
        for length in 0..<bytes.count {
            #expect(throws: TableFormatError.self) {
                try AlertAreaImage(storage: InMemoryTableStorage(copying: Array(bytes.prefix(length))))
            }
        }
    }

    @Test func damagedFieldsThrow() throws {
        let good = Self.shapes.bytes()
        func damaged(_ at: Int, _ value: UInt32) -> [UInt8] {
            var b = good
            for k in 0..<4 { b[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
            return b
        }
        func offset(_ header: Int) -> Int {
            (0..<8).reduce(0) { $0 | Int(good[header + $1]) << (8 * $1) }
        }
        let areas = offset(48)
        let rings = offset(56)
        let codes = offset(72)
        let cells = offset(88)
        let cases: [(String, [UInt8])] = [
            (
                "magic",
                {
                    var b = good
                    b[0] = 0x41
                    return b
                }()
            ),
            ("version", damaged(8, 2)),
            ("area count", damaged(12, 1_000_000)),
            ("point count", damaged(20, UInt32.max)),
            ("grid columns", damaged(36, 100_000)),
            ("grid south", damaged(32, UInt32(bitPattern: -200))),
            ("an area's first ring", damaged(areas + 16, 99)),
            ("an area's ring count", damaged(areas + 20, UInt32.max)),
            ("an area's text", damaged(areas + 24, 1_000_000)),
            ("a ring's first point", damaged(rings, UInt32.max - 2)),
            ("a ring's point count", damaged(rings + 4, 2)),
            ("an area beginning with a hole", damaged(rings + 4, 4 | AlertAreaImage.holeFlag)),
            ("a geocode's area", damaged(codes + 4, 77)),
            ("a geocode's text", damaged(codes, 1_000_000)),
            ("a cell's area", damaged(cells, 55)),
        ]
        for (what, bytes) in cases {
            #expect(throws: TableFormatError.self, "\(what)") {
                try AlertAreaImage(storage: InMemoryTableStorage(copying: bytes))
            }
        }
    }

    /// Seeded (SplitMix64), so a failure comes back the same way.
    struct SeededBytes: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func garbageNeverCrashes() {
        var generator = SeededBytes(state: 20_261_207)
        let good = Self.shapes.bytes()
        var loaded = 0
        var refused = 0
        // Most of the file is the grid, which the checks read whole, so damage anywhere is refused: half
        // the cases damage the points and the names, which a loaded table then answers from.
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(good[at + $1]) << (8 * $1) } }
        func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(good[at + $1]) << (8 * $1) } }
        let points = u64(64)..<(u64(64) + 8 * u32(20))
        let strings = u64(96)..<(u64(96) + u64(104))
        for n in 0..<300 {
            var bytes = good
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let at =
                    n.isMultiple(of: 2)
                    ? Int.random(in: 0..<bytes.count, using: &generator)
                    : Int.random(in: Bool.random(using: &generator) ? points : strings, using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            // Either it throws or it answers with areas it has; neither crashes nor reads out of bounds.
            guard let table = try? AlertAreaImage(storage: InMemoryTableStorage(copying: bytes)) else {
                refused += 1
                continue
            }
            loaded += 1
            for (lat, lon) in [(50.2, 10.2), (51.8, 11.8), (-16.5, -179.8), (0.0, 0.0)] {
                let found = table.areaIndices(containingLat: lat, lon: lon)
                #expect(found.allSatisfy { (0..<table.count).contains($0) }, "\(found) of \(table.count)")
                for index in found { _ = table.fields(at: index) }
            }
            if let index = table.areaIndex(code: "LAND") {
                #expect((0..<table.count).contains(index))
                _ = table.fields(at: index)
            }
        }
        // Both ways were taken: the damage reached the checks and the lookups.
        #expect(loaded > 0 && refused > 0, "loaded \(loaded), refused \(refused)")
    }
}
