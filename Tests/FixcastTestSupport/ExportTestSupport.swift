import FixcastAdapters
import FixcastApp
import FixcastCore
import Foundation

enum ExportTestSupport {
    /// A place name that needs every kind of escaping: XML specials, CSV quote/comma/newline, non-ASCII.
    static let trickyName = "Café \"Zum Löwen\", <Nord> & Süd\nzweite Zeile; 'x'"

    /// A store with 3 readings (one without a position, one with a tricky name) and a track of
    /// 20 points with a 10-minute gap after the 12th.
    static func populatedStore() async throws -> SQLiteStore {
        let store = try SQLiteStore(path: StoreTestData.temporaryStorePath("export"))
        try await store.insertReading(StoreTestData.reading(at: 0, lat: 52.52, lon: 13.4138, placeName: "Berlin"))
        try await store.insertReading(StoreTestData.reading(at: 600, lat: 52.40, lon: 13.05, placeName: trickyName))
        try await store.insertReading(
            Reading(
                time: StoreTestData.t0.addingTimeInterval(1200), trigger: .once, position: nil,
                errors: [ReadingIssue(component: .gps, message: "gps: no fix, \"really\"")]))
        var fixes: [Fix] = []
        for i in 0..<12 {
            fixes.append(StoreTestData.fix(at: Double(i * 10), lat: 52.5 + Double(i) * 0.001, lon: -0.00001))
        }
        for i in 0..<8 {
            fixes.append(StoreTestData.fix(at: 110 + 600 + Double(i * 10), lat: 52.6 + Double(i) * 0.001, alt: nil))
        }
        try await store.appendTrackPoints(fixes)
        return store
    }

    static func export(_ format: ExportFormat, _ store: SQLiteStore, since: Date? = nil, until: Date? = nil)
        async throws -> (String, ExportSummary)
    {
        let path = TestPaths.temporaryDirectory("export-out").appendingPathComponent("out.\(format.fileExtension)").path
        let summary = try await Exporter.export(
            format: format, store: store, since: since, until: until, to: .file(path: path))
        return (path, summary)
    }

    /// Runs a program and returns (exit status, stdout, stderr).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    static func xpath(_ file: String, _ expression: String) throws -> String {
        try run("/usr/bin/xmllint", ["--xpath", expression, file]).1.trimmingCharacters(in: .newlines)
    }
}
