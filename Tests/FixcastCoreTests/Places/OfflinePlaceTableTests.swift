import Foundation
import Testing

@testable import FixcastCore

#if canImport(Glibc)
    import Glibc
#endif

struct OfflinePlaceTableTests {
    static let small = """
        fixcast-places\t1
        #countries\t3
        DE\tGermany
        US\tUnited States
        BR\tBrazil
        #regions\t4
        Berlin
        New York
        North Rhine-Westphalia
        Sao Paulo
        #places\t7
        @DE\t0
        525244\t134105\tBerlin\t3426354
        @DE\t2
        509333\t69500\tKöln\t1024621\tKoeln
        @US\t1
        407143\t-740060\tNew York City\t8804190
        430392\t-763041\tNew York Mills
        422106\t-733434\tYork\t2000
        @US\t
        399000\t-750000\tNowhere Special
        @BR\t3
        -235475\t-466361\tSão Paulo\t12400232

        """

    static func table(_ text: String = small) throws -> OfflinePlaceTable {
        try OfflinePlaceTable(bytes: Array(text.utf8))
    }

    @Test func readsRowsAndGroups() throws {
        let t = try Self.table()
        #expect(t.count == 7)
        #expect(t.name(1) == "Köln")
        #expect(t.alternateName(1) == "Koeln")
        #expect(t.alternateName(0) == nil)
        #expect(t.region(1) == "North Rhine-Westphalia")
        #expect(t.region(5) == nil)
        #expect(t.country(2) == .init(code: "US", name: "United States"))
        #expect(t.population(3) == nil)
        #expect(t.coordinate(6) == Coordinate(lat: -23.5475, lon: -46.6361))
        #expect(
            t.place(0)
                == Place(name: "Berlin", region: "Berlin", country: "Germany", countryCode: "DE", source: .offline))
    }

    @Test func nearestPlace() throws {
        let t = try Self.table()
        let q = try #require(Coordinate(lat: 52.52, lon: 13.405))
        let hit = try #require(t.nearest(to: q))
        #expect(t.name(hit.row) == "Berlin")
        #expect(hit.distanceKm < 1)
    }

    @Test(arguments: [
        ("new york", ["New York City", "New York Mills"]),
        ("NEW YORK CITY", ["New York City"]),
        ("york", ["York"]),
        ("koln", ["Köln"]),
        ("KOELN", ["Köln"]),
        ("köln", ["Köln"]),
        ("sao paulo", ["São Paulo"]),
        ("São", ["São Paulo"]),
        ("n", ["New York City", "New York Mills", "Nowhere Special"]),
        ("Москва", [String]()),
        ("   ", [String]()),
    ])
    func searchesFoldedPrefixesByPopulation(_ query: String, _ expected: [String]) throws {
        let t = try Self.table()
        #expect(t.search(query, limit: 10).map { t.name($0) } == expected)
    }

    @Test func wholeNameMatchesComeFirst() throws {
        let text = Self.small.replacingOccurrences(
            of: "422106\t-733434\tYork\t2000", with: "422106\t-733434\tYork\t2000\n422000\t-733000\tYorktown\t90000"
        )
        .replacingOccurrences(of: "#places\t7", with: "#places\t8")
        let t = try Self.table(text)
        #expect(t.search("york", limit: 5).map { t.name($0) } == ["York", "Yorktown"])
        #expect(t.search("york", limit: 1).map { t.name($0) } == ["York"])
    }

    @Test(arguments: [
        ("", 1), ("not a table\n", 1),
        ("fixcast-places\t1\n#countries\t1\nDE\tGermany\n#regions\t0\n#places\t1\n525244\t134105\tBerlin\n", 6),
        ("fixcast-places\t1\n#countries\t1\nDE\tGermany\n#regions\t0\n#places\t1\n@FR\t\n", 6),
        ("fixcast-places\t1\n#countries\t1\nDE\tGermany\n#regions\t0\n#places\t2\n@DE\t\n1\t2\tA\n", 8),
        ("fixcast-places\t1\n#countries\t1\nDE\tGermany\n#regions\t0\n#places\t1\n@DE\t\n999999999\t2\tA\n", 7),
        ("fixcast-places\t1\n#countries\t1\nDE\tGermany\n#regions\t0\n#places\t1\n@DE\t5\n", 6),
    ])
    func rejectsBrokenTables(_ text: String, _ line: Int) {
        #expect(throws: OfflinePlaceTable.FormatError.self) { try Self.table(text) }
        do {
            _ = try Self.table(text)
        } catch let error as OfflinePlaceTable.FormatError {
            #expect(error.line == line)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}

/// The binary form (places.bin): same answers as the text it was made from; damage is an error, not a crash.
struct PlaceTableImageTests {
    static func image() throws -> [UInt8] {
        try OfflinePlaceTable.encodeImage(fromText: Array(OfflinePlaceTableTests.small.utf8))
    }

    @Test func answersLikeTheText() throws {
        let text = try OfflinePlaceTableTests.table()
        let binary = try OfflinePlaceTable(imageBytes: Self.image())
        #expect(binary.count == text.count)
        #expect(binary.regions == text.regions)
        #expect(binary.countries == text.countries)
        for row in 0..<text.count {
            #expect(binary.match(row) == text.match(row))
            #expect(binary.alternateName(row) == text.alternateName(row))
        }
        #expect(binary.search("new york", limit: 5) == text.search("new york", limit: 5))
        let q = try #require(Coordinate(lat: 50.9, lon: 7.0))
        #expect(binary.nearest(to: q)?.row == 1)
    }

    @Test func rejectsTruncatedOrForeignImages() throws {
        let image = try Self.image()
        // Every cut that removes part of a section, and a file that is not an image at all.
        for length in [0, 7, 8, 63, 64, 65, image.count / 2, image.count - 1] {
            #expect(throws: OfflinePlaceTable.FormatError.self) {
                try OfflinePlaceTable(imageBytes: Array(image.prefix(length)))
            }
        }
        #expect(throws: OfflinePlaceTable.FormatError.self) {
            try OfflinePlaceTable(imageBytes: Array(OfflinePlaceTableTests.small.utf8))
        }
        var wrongCount = image
        wrongCount[8] = 0xFF
        wrongCount[9] = 0xFF
        #expect(throws: OfflinePlaceTable.FormatError.self) { try OfflinePlaceTable(imageBytes: wrongCount) }
    }

    /// A tree node whose row id is out of range (a damaged file) is passed over: the nearest good row
    /// answers, as the scan over every node does, instead of nothing.
    @Test func aDamagedRowIdIsPassedOverNotTheAnswer() throws {
        var image = try Self.image()
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(image[at + $1]) << (8 * $1) } }
        let tree = u64(24)
        let table = try OfflinePlaceTable(imageBytes: image)
        let q = try #require(Coordinate(lat: 50.9, lon: 7.0))
        let good = try #require(table.nearest(to: q)?.row)
        // The node of that row: its id word (bits 0-29) set to a row that does not exist.
        let position = (0..<table.count).first { p in
            let at = tree + p * 12 + 8
            return (0..<4).reduce(0) { $0 | Int(image[at + $1]) << (8 * $1) } & 0x3FFF_FFFF == good
        }
        let at = tree + (try #require(position)) * 12 + 8
        image[at] = 0xFF
        image[at + 1] = 0xFF
        image[at + 2] = 0xFF
        image[at + 3] = (image[at + 3] & 0xC0) | 0x3F
        let damaged = try OfflinePlaceTable(imageBytes: image)
        let hit = try #require(damaged.nearest(to: q))
        #expect(hit.row != good && hit.row < damaged.count)
        #expect(damaged.nearestByScan(to: q)?.row == hit.row)
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz places-bin`, bench/README.md): with the
    // strings offset of the bundled table moved 2 KiB, every name length was read from other bytes (up to
    // 64 KiB each), and one search folded 20 GB of garbage for minutes. A row's strings end where the next
    // row's begin; lengths that do not are damage, and the row has no name.
    @Test func nameLengthsThatDoNotFitTheLayoutAreDamageNotText() throws {
        let image = try Self.image()
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(image[at + $1]) << (8 * $1) } }
        let strings = u64(40)
        // Row 0's name length made 60,000: it would run over every other row's strings.
        var long = image
        long[strings] = 0x60
        long[strings + 1] = 0xEA
        let t = try OfflinePlaceTable(imageBytes: long)
        #expect(t.name(0) == "" && t.alternateName(0) == nil)
        #expect(t.name(1) == "Köln" && t.alternateName(1) == "Koeln")
        #expect(t.search("berlin", limit: 5).isEmpty)
        #expect(t.search("koln", limit: 5) == [1])
        // The strings section moved two bytes back: every length is read from the wrong bytes.
        var shifted = image
        shifted[40] = UInt8((strings - 2) & 0xFF)
        shifted[41] = UInt8((strings - 2) >> 8)
        let s = try OfflinePlaceTable(imageBytes: shifted)
        #expect((0..<s.count).allSatisfy { s.name($0) == "" })
        #expect(s.search("a", limit: 5).isEmpty)
    }
}

/// The bundled table itself: share/fixcast/places.bin, made from
/// share/fixcast/places.tsv; both are committed to the repository.
struct BundledPlaceTableTests {
    static let directory: String = {
        var url = #filePath
        for _ in 0..<4 { url = String(url[..<(url.lastIndex(of: "/") ?? url.startIndex)]) }
        return url + "/share/fixcast/"
    }()

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// Held in memory here (FixcastCore maps nothing); the mapped form is tested in FixcastAdaptersTests'
    /// MappedPlaceTableFileTests, against this one.
    static let table: OfflinePlaceTable? = read(directory + "places.bin").flatMap {
        try? OfflinePlaceTable(imageBytes: $0)
    }

    /// places.bin is what the current code makes of places.tsv (so neither went stale without the other).
    @Test func binaryMatchesTheTextTable() throws {
        let text = try #require(Self.read(Self.directory + "places.tsv"))
        let binary = try #require(Self.read(Self.directory + "places.bin"))
        #expect(try OfflinePlaceTable.encodeImage(fromText: text) == binary)
    }

    @Test func loads() throws {
        let t = try #require(Self.table)
        #expect(t.count > 140_000)
    }

    @Test(arguments: [
        (52.52, 13.405, "Berlin", "DE"),
        (50.9373, 6.9592, "Köln", "DE"),
        (40.7128, -74.006, "New York City", "US"),
        (-33.8688, 151.2093, "Sydney", "AU"),
        (64.1466, -21.9426, "Reykjavík", "IS"),
    ])
    func namesKnownCities(_ lat: Double, _ lon: Double, _ name: String, _ cc: String) throws {
        let t = try #require(Self.table)
        let q = try #require(Coordinate(lat: lat, lon: lon))
        let hit = try #require(t.settlement(at: q))
        #expect(t.name(hit.row) == name)
        #expect(t.country(hit.row).code == cc)
    }

    @Test func newYorkCityIsTheFirstNewYork() throws {
        let t = try #require(Self.table)
        let rows = t.search("new york", limit: 5)
        #expect(rows.first.map { t.name($0) } == "New York City")
        #expect(rows.count >= 2)
    }

    @Test func indexAgreesWithAScanOverTheWholeTable() throws {
        let t = try #require(Self.table)
        var g = SystemRandomNumberGenerator()
        // 100 random points, one in ten near a pole and one in ten on the antimeridian (a scan of the
        // whole table is 0.1 s each in a debug build).
        for k in 0..<100 {
            let lat =
                k % 10 == 0
                ? Double.random(in: 80...90, using: &g) * (Bool.random() ? 1 : -1)
                : Double.random(in: -90...90, using: &g)
            let lon = k % 10 == 1 ? (Bool.random() ? 179.99 : -179.99) : Double.random(in: -180...180, using: &g)
            let q = try #require(Coordinate(lat: lat, lon: lon))
            let tree = try #require(t.nearest(to: q))
            let scan = try #require(t.nearestByScan(to: q))
            #expect(tree.row == scan.row)
            let place = try #require(t.coordinate(tree.row))
            #expect(abs(GreatCircle.distanceKm(q, place) - tree.distanceKm) < 1e-6)
        }
    }
}
