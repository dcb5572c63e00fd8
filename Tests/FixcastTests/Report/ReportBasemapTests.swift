import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The base map through the binary: the bundled drive's report shows Lake Tahoe's shore from the
/// shipped basemap.bin; a damaged file is said once and the report is still made.
@Suite(.serialized, .scratch) struct ReportBasemapTests {
    @Test func theDrivesReportDrawsLakeTahoeFromTheShippedBasemap() async throws {
        let drive = try await DriveStore.build()
        let home = TestPaths.temporaryDirectory("report-basemap")
        defer {
            try? FileManager.default.removeItem(at: home)
            // DriveStore's store is <temporary folder>/nested/dir/fixcast.sqlite.
            let folder = URL(fileURLWithPath: drive.path).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            try? FileManager.default.removeItem(at: folder)
        }
        let out = home.appendingPathComponent("drive.svg").path
        let data = TestPaths.repoRoot.appendingPathComponent("share/fixcast").path
        let r = try CLIRunner.run(
            ["report", "--db", drive.path, "-o", out], env: ["FIXCAST_DATA_DIR": data], home: home)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("base map"), "\(r.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        let lake = try #require(ReportSVGReading(svg: svg).elements("path", class: "lake").first)
        #expect((ReportSVGReading.attribute("d", in: lake) ?? "").count > 100)
        #expect(svg.contains("Natural Earth"))
        let size = try FileManager.default.attributesOfItem(atPath: data + "/basemap.bin")[.size] as? Int ?? 0
        #expect(size > 0 && size <= 5_000_000)

        // A truncated copy: one sentence naming the base map, the report still written, exit 0.
        let broken = home.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: data + "/basemap.bin"))
        try bytes.prefix(100_000).write(to: broken.appendingPathComponent("basemap.bin"))
        try FileManager.default.copyItem(
            atPath: data + "/places.bin", toPath: broken.appendingPathComponent("places.bin").path)
        let out2 = home.appendingPathComponent("plain.svg").path
        let damaged = try CLIRunner.run(
            ["report", "--db", drive.path, "-o", out2], env: ["FIXCAST_DATA_DIR": broken.path], home: home)
        #expect(damaged.status == 0, "stderr: \(damaged.stderr)")
        let lines = damaged.stderr.split(separator: "\n").filter { $0.contains("base map") }
        #expect(lines.count == 1, "\(damaged.stderr)")
        #expect(lines.first?.contains("damaged") == true)
        let plain = try String(contentsOfFile: out2, encoding: .utf8)
        #expect(!plain.contains("class=\"lake\""))
        #expect(plain.contains("<circle class=\"reading\""))
    }
}
