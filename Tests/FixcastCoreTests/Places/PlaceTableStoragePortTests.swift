import FixcastTables
import Foundation
import Testing

@testable import FixcastCore

/// The storage port: the table reads only through it, asks for read-ahead only before a scan, and keeps
/// the storage alive as long as it lives.
struct PlaceTableStoragePortTests {
    /// A storage over a copy of an image that records the hints it gets.
    final class RecordingStorage: PlaceTableStorage, @unchecked Sendable {
        let inner: InMemoryPlaceTableStorage
        var hints: [Range<Int>] = []
        init(_ bytes: [UInt8]) { inner = InMemoryPlaceTableStorage(copying: bytes) }
        var bytes: UnsafeRawBufferPointer { inner.bytes }
        func willRead(_ range: Range<Int>) { hints.append(range) }
    }

    static func image() throws -> [UInt8] {
        try OfflinePlaceTable.encodeImage(fromText: Array(OfflinePlaceTableTests.small.utf8))
    }

    @Test func inMemoryStorageHoldsACopy() throws {
        var source = try Self.image()
        let storage = InMemoryPlaceTableStorage(copying: source)
        source[0] = 0
        #expect(Array(storage.bytes) == (try Self.image()))
        storage.willRead(0..<storage.bytes.count)  // memory: a no-op
        #expect(InMemoryPlaceTableStorage(copying: []).bytes.count == 0)
    }

    @Test func searchAsksToReadTheRecordsAndNamesAheadLookupsDoNot() throws {
        let bytes = try Self.image()
        let storage = RecordingStorage(bytes)
        let table = try OfflinePlaceTable(storage: storage)
        let q = try #require(Coordinate(lat: 52.52, lon: 13.405))
        #expect(table.settlement(at: q).map { table.name($0.row) } == "Berlin")
        #expect(storage.hints.isEmpty)
        #expect(table.search("new york", limit: 2).map { table.name($0) } == ["New York City", "New York Mills"])
        // Two hints (records, then names), inside the image, after the header and tree.
        #expect(storage.hints.count == 2)
        for hint in storage.hints {
            #expect(hint.lowerBound >= PlaceTableImage.headerSize + table.count * PlaceTableImage.nodeSize)
            #expect(hint.upperBound <= bytes.count)
        }
        #expect(storage.hints.first?.count == table.count * PlaceTableImage.recordSize)
    }

    @Test func theTableKeepsItsStorageAlive() throws {
        weak var released: RecordingStorage?
        var table: OfflinePlaceTable?
        do {
            let storage = RecordingStorage(try Self.image())
            released = storage
            table = try OfflinePlaceTable(storage: storage)
        }
        #expect(released != nil)
        #expect(table?.name(0) == "Berlin")
        table = nil
        #expect(released == nil)
    }
}
