import Foundation
import Testing

@testable import FixcastTestSupport

/// The app reaches the store through Core's ports (issue 19 item 8): `AgentStore` for the agent's
/// writes on the store's thread, `ExportStore` for the exports, `ReadingStore`, `TripStore` and the
/// others for the services. Only the composition, `Services`, names the SQLite store that implements
/// them. The compiler cannot hold this (App may import the adapters for the HTTP client, the clock and
/// the terminal), so this test reads Sources/FixcastApp and fails on a new name of the concrete store.
@Suite struct StorePortTests {
    /// The one file that may name the concrete store: it opens it.
    static let composition = "Services/Services.swift"

    /// The lines of `source` that name `SQLiteStore` in code (not in a comment), as "line: text".
    static func namings(in source: String) -> [String] {
        var found: [String] = []
        for (number, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            var rest = code[...]
            while let at = rest.range(of: "SQLiteStore") {
                let before = at.lowerBound > code.startIndex ? code[code.index(before: at.lowerBound)] : " "
                let after = at.upperBound < code.endIndex ? code[at.upperBound] : " "
                if !(before.isLetter || before.isNumber || before == "_"),
                    !(after.isLetter || after.isNumber || after == "_")
                {
                    found.append("\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    break
                }
                rest = code[at.upperBound...]
            }
        }
        return found
    }

    @Test func theScannerFindsTheStoreInCodeButNotInCommentsOrLongerNames() {
        let source = """
            let a: SQLiteStore? = nil
            /// Runs on `SQLiteStore`'s thread.
            let b = 1  // as SQLiteStore does
            let c: SQLiteStoreLock
            func f(_ s: isolated SQLiteStore) {}
            """
        #expect(
            Self.namings(in: source) == ["1: let a: SQLiteStore? = nil", "5: func f(_ s: isolated SQLiteStore) {}"])
    }

    @Test func onlyTheCompositionNamesTheSQLiteStore() throws {
        let root = TestPaths.repoRoot.appendingPathComponent("Sources/FixcastApp")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "the scan read \(files.count) files of Sources/FixcastApp")
        var offenders: [String] = []
        var composes = false
        for file in files {
            let text = try String(contentsOfFile: root.appendingPathComponent(file).path, encoding: .utf8)
            let found = Self.namings(in: text)
            if file == Self.composition {
                composes = !found.isEmpty
            } else {
                offenders += found.map { "\(file):\($0)" }
            }
        }
        #expect(composes, "\(Self.composition) no longer opens the store: update this test's composition")
        #expect(
            offenders.isEmpty,
            "hold a Core port (AgentStore, ExportStore, ReadingStore, …), not SQLiteStore:\n\(offenders.joined(separator: "\n"))"
        )
    }
}
