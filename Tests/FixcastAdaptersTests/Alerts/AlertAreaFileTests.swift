import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The bundled alert area table mapped from its file (the way fixcast loads it): the same answers as
/// the bytes read into memory; a missing, empty or truncated file is a format error, not a crash.
struct AlertAreaFileTests {
    static let bundledPath = TestPaths.repoRoot.appendingPathComponent("share/fixcast/alert-areas.bin").path

    @Test func theMappedFileAnswersLikeTheBytesInMemory() throws {
        let mapped = try AlertAreaTable(mappingFile: Self.bundledPath)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.bundledPath)))
        let memory = try AlertAreaTable(storage: InMemoryPlaceTableStorage(copying: bytes))
        for (lat, lon) in [(48.8566, 2.3522), (52.52, 13.405), (41.9, 12.5), (64.1, -21.9), (0.0, 0.0)] {
            let point = try #require(Coordinate(lat: lat, lon: lon))
            #expect(mapped.areas(containing: point) == memory.areas(containing: point))
        }
        #expect(mapped.areas(containing: try #require(Coordinate(lat: 52.52, lon: 13.405))).map(\.country) == ["DE"])
        #expect(mapped.area(code: "FR718", scheme: "NUTS3")?.code == "FR035")
    }

    @Test func missingEmptyAndTruncatedFilesThrow() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fixcast-areas-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: AlertAreaTable.FormatError.self) {
            try AlertAreaTable(mappingFile: directory.appendingPathComponent("missing.bin").path)
        }
        let empty = directory.appendingPathComponent("empty.bin")
        try Data().write(to: empty)
        #expect(throws: AlertAreaTable.FormatError.self) { try AlertAreaTable(mappingFile: empty.path) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.bundledPath))
        let truncated = directory.appendingPathComponent("truncated.bin")
        try bytes.prefix(bytes.count - 1000).write(to: truncated)
        #expect(throws: AlertAreaTable.FormatError.self) { try AlertAreaTable(mappingFile: truncated.path) }
    }
}
