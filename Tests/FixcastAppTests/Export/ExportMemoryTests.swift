import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// Exports stream: a million track points go out without the process growing by anything near
/// the size of the output (about 90 MB of GPX, 19 MB of GeoJSON).
@Suite(.scratch) struct ExportMemoryTests {
    static let points = 1_000_000

    static func currentRSS() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test func aMillionTrackPointsExportInBoundedMemory() async throws {
        let dir = TestPaths.temporaryDirectory("million")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteStore(path: dir.appendingPathComponent("fixcast.sqlite").path)
        // Inserted in batches so that the test itself never holds the million fixes.
        let batch = 5_000
        for start in stride(from: 0, to: Self.points, by: batch) {
            let fixes = (start..<(start + batch)).map { i in
                var fix = StoreTestData.fix(
                    at: Double(i), lat: 45 + Double(i % 10_000) * 1e-5, lon: 7 + Double(i / 10_000) * 1e-4)
                // A few without a fix time, dated by their neighbours and merged back into the stream.
                if i % 100_000 == 0 { fix.time = nil }
                return fix
            }
            try await store.appendTrackPoints(fixes)
        }
        #expect(try await store.trackPointCount() == Self.points)

        let out = TestPaths.temporaryDirectory("million-out")
        defer { try? FileManager.default.removeItem(at: out) }
        for format in [ExportFormat.gpx, .geojson] {
            let path = out.appendingPathComponent("track.\(format.fileExtension)").path
            // The process's own peak (getrusage) is set by the test runner's start-up, far above
            // this test, so the resident size is sampled while the export runs.
            let before = Self.currentRSS()
            let sampler = RSSSampler()
            let summary = try await Exporter.export(
                format: format, store: store, since: nil, until: nil, to: .file(path: path))
            let growth = sampler.stop() - before
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(summary.trackPoints == Self.points)
            #expect(size > 15_000_000, "\(format): \(size) bytes")
            // Holding the output (or the rows) would grow the process by at least the file size.
            // The bound leaves room for other tests running in parallel in this process; a
            // buffered export of either file measured 50-135 MiB of growth.
            #expect(
                growth < max(size / 2, 32 * 1_048_576),
                "\(format): peak RSS grew by \(growth / 1_048_576) MiB for a \(size / 1_048_576) MiB file")
            try FileManager.default.removeItem(atPath: path)
        }
    }
}

/// Samples the resident set size every 2 ms on its own thread until stopped; returns the maximum.
private final class RSSSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var maximum = 0
    private let done = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let rss = ExportMemoryTests.currentRSS()
                lock.withLock { maximum = max(maximum, rss) }
                usleep(2_000)
            }
            done.signal()
        }
        thread.start()
    }

    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { max(maximum, ExportMemoryTests.currentRSS()) }
    }
}
