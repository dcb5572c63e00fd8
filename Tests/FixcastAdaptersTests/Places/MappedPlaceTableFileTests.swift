import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The mapped storage of the offline place table (a real file, a real mapping) against the same image
/// held in memory: same bytes, same answers; missing or empty files are a format error, not a crash.
@Suite(.scratch)
struct MappedPlaceTableFileTests {
    static let bundledPath = TestPaths.repoRoot.appendingPathComponent("share/fixcast/places.bin").path

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("fixcast-places-\(UUID().uuidString).bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let small = """
        fixcast-places\t1
        #countries\t2
        DE\tGermany
        BR\tBrazil
        #regions\t2
        Berlin
        Sao Paulo
        #places\t3
        @DE\t0
        525244\t134105\tBerlin\t3426354
        525200\t134000\tMitte\t380000
        @BR\t1
        -235475\t-466361\tSão Paulo\t12400232

        """

    @Test func mapsTheFileByteForByte() throws {
        let image = try OfflinePlaceTable.encodeImage(fromText: Array(Self.small.utf8))
        let path = try Self.temporaryFile(image)
        defer { unlink(path) }
        let storage = try MappedPlaceTableFile(path: path)
        #expect(storage.bytes.count == image.count)
        #expect(Array(storage.bytes) == image)
        // A read-ahead hint leaves the bytes as they are, and nonsense ranges are ignored, not a crash.
        storage.willRead(0..<image.count)
        storage.willRead(image.count - 10..<image.count)
        storage.willRead(0..<(image.count + 4096))
        storage.willRead(5..<5)
        #expect(Array(storage.bytes) == image)

        let t = try OfflinePlaceTable(mappingFile: path)
        let q = try #require(Coordinate(lat: -23.5, lon: -46.6))
        #expect(t.settlement(at: q).map { t.name($0.row) } == "São Paulo")
        // Mitte is nearer to this point, but Berlin contains it (CityDistrictRule).
        let mitte = try #require(Coordinate(lat: 52.5201, lon: 13.4001))
        #expect(t.settlement(at: mitte).map { t.name($0.row) } == "Berlin")
    }

    @Test func aMissingOrEmptyFileIsAFormatError() throws {
        let empty = try Self.temporaryFile([])
        defer { unlink(empty) }
        #expect(throws: MappedPlaceTableFile.Failure(errno: nil, step: "")) { try MappedPlaceTableFile(path: empty) }
        #expect(throws: MappedPlaceTableFile.Failure(errno: ENOENT, step: "it could not be opened")) {
            try MappedPlaceTableFile(path: empty + ".missing")
        }
        #expect(
            MappedPlaceTableFile.Failure(errno: EMFILE, step: "it could not be opened").reason
                == "it could not be opened: too many open files")
        #expect(MappedPlaceTableFile.Failure(errno: nil, step: "").reason == "it is empty")
        #expect(throws: OfflinePlaceTable.FormatError.self) { try OfflinePlaceTable(mappingFile: empty) }
        #expect(throws: OfflinePlaceTable.FormatError.self) { try OfflinePlaceTable(mappingFile: empty + ".missing") }
    }

    /// The table keeps its storage (and so the mapping) alive for as long as the table exists, and lets it
    /// go with the last copy.
    @Test func theTableOwnsTheMapping() throws {
        let image = try OfflinePlaceTable.encodeImage(fromText: Array(Self.small.utf8))
        let path = try Self.temporaryFile(image)
        defer { unlink(path) }
        weak var released: MappedPlaceTableFile?
        var table: OfflinePlaceTable?
        do {
            let storage = try MappedPlaceTableFile(path: path)
            released = storage
            table = try OfflinePlaceTable(storage: storage)
        }
        #expect(released != nil)
        #expect(table?.name(0) == "Berlin")
        table = nil
        #expect(released == nil)
    }

    /// The bundled places.bin, mapped (as fixcast loads it) and copied into memory: the same answers for
    /// nearest, settlement, within-radius (through settlement) and search.
    @Test func mappedAndInMemoryStoragesAnswerAlike() throws {
        let mapped = try OfflinePlaceTable(mappingFile: Self.bundledPath)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.bundledPath)))
        let memory = try OfflinePlaceTable(storage: InMemoryPlaceTableStorage(copying: bytes))
        #expect(mapped.count == memory.count)
        #expect(mapped.count > 140_000)
        #expect(mapped.countries == memory.countries)
        #expect(mapped.regions == memory.regions)
        var g = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let q = try #require(
                Coordinate(lat: Double.random(in: -90...90, using: &g), lon: Double.random(in: -180...180, using: &g)))
            let a = try #require(mapped.nearest(to: q))
            let b = try #require(memory.nearest(to: q))
            #expect(a.row == b.row && a.distanceKm == b.distanceKm)
            #expect(mapped.settlement(at: q)?.row == memory.settlement(at: q)?.row)
            #expect(mapped.match(a.row) == memory.match(b.row))
        }
        for query in ["new york", "köln", "sao", "z"] {
            #expect(mapped.search(query, limit: 20) == memory.search(query, limit: 20))
        }
        #expect(mapped.search("new york", limit: 1).map { mapped.name($0) } == ["New York City"])
    }

    /// The bundled table has Latin names only: a Cyrillic query finds the place romanized, and only when
    /// asked to (`fixcast search`), never for `--place`'s pick.
    @Test func aCyrillicQueryIsFoundRomanizedOnlyWhenAsked() throws {
        let table = try OfflinePlaceTable(mappingFile: Self.bundledPath)
        for (query, name, country) in [
            ("Новосибирск", "Novosibirsk", "Russia"), ("Екатеринбург", "Yekaterinburg", "Russia"),
            ("нижний новгород", "Nizhniy Novgorod", "Russia"), ("Харків", "Kharkiv", "Ukraine"),
            // Ukrainian, Serbian and Bulgarian spellings (Russian's gave "kiyiv", "mikolayiv", "nish").
            ("Київ", "Kyiv", "Ukraine"), ("Миколаїв", "Mykolayiv", "Ukraine"), ("Ниш", "Niš", "Serbia"),
            ("Чачак", "Čačak", "Serbia"), ("Търговище", "Targovishte", "Bulgaria"),
        ] {
            let row = try #require(table.search(query, limit: 1, romanizing: true).first, "\(query)")
            #expect(table.name(row) == name)
            #expect(table.match(row)?.country == country)
            #expect(table.search(query, limit: 1).isEmpty, "\(query) is not found unasked")
        }
        // A Latin query is the same search either way.
        #expect(table.search("köln", limit: 5, romanizing: true) == table.search("köln", limit: 5))
    }
}
