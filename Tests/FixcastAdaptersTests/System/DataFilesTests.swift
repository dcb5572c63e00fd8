import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Suite(.scratch)
struct DataFilesTests {
    @Test func looksInTheDocumentedOrder() {
        let files = DataFiles(
            environment: ["FIXCAST_DATA_DIR": "/custom", "XDG_DATA_DIRS": "/x1:/x2"],
            executablePath: "/opt/fixcast/bin/fixcast")
        #expect(
            files.candidateDirectories() == [
                "/custom", "/opt/fixcast/bin/share/fixcast", "/opt/fixcast/share/fixcast", "/opt/share/fixcast",
                "/share/fixcast",
                "/x1/fixcast", "/x2/fixcast", "/usr/share/fixcast",
            ])
    }

    /// A relative executable path once walked up forever ("." has "." for its parent).
    @Test func aRelativeExecutableEndsAtTheWorkingFolder() {
        let files = DataFiles(environment: ["XDG_DATA_DIRS": "/x1"], executablePath: "bin/fixcast")
        #expect(
            files.candidateDirectories() == [
                "bin/share/fixcast", "./share/fixcast", "/x1/fixcast", "/usr/share/fixcast",
            ])
    }

    @Test func xdgDataDirsDefaultsToLocalThenUsrShare() {
        let files = DataFiles(environment: [:], executablePath: nil)
        #expect(files.candidateDirectories() == ["/usr/local/share/fixcast", "/usr/share/fixcast"])
    }

    @Test func aBuildInACheckoutFindsTheRepositoryShare() throws {
        let root = TestPaths.temporaryDirectory("datafiles")
        defer { try? FileManager.default.removeItem(at: root) }
        let share = root.appendingPathComponent("repo/share/fixcast")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: share.appendingPathComponent("places.tsv"))
        let exe = root.appendingPathComponent("repo/.build/x86_64-unknown-linux-gnu/debug/fixcast").path
        let files = DataFiles(environment: ["XDG_DATA_DIRS": "/nonexistent"], executablePath: exe)
        #expect(files.locate("places.tsv") == share.appendingPathComponent("places.tsv").path)
        #expect(files.locate("missing.tsv") == nil)
        #expect(DataFiles.readBytes(share.appendingPathComponent("places.tsv").path) == Array("x".utf8))
    }

    @Test func theEnvironmentOverrideWins() throws {
        let root = TestPaths.temporaryDirectory("datafiles")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("y".utf8).write(to: root.appendingPathComponent("places.tsv"))
        let files = DataFiles(
            environment: ["FIXCAST_DATA_DIR": root.path],
            executablePath: TestPaths.repoRoot.appendingPathComponent(".build/debug/fixcast").path)
        #expect(files.locate("places.tsv") == root.appendingPathComponent("places.tsv").path)
    }

    @Test func theRunningTestsFindTheRepositoryTable() {
        // The test binary lives in .build/…/debug; walking up reaches the checkout's share/fixcast.
        let path = DataFiles.current().locate("places.tsv")
        #expect(path != nil)
    }

    @Test func aDirectoryIsNotAFile() throws {
        let root = TestPaths.temporaryDirectory("datafiles")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("places.tsv"), withIntermediateDirectories: true)
        let files = DataFiles(
            environment: ["FIXCAST_DATA_DIR": root.path, "XDG_DATA_DIRS": "/nonexistent"], executablePath: nil)
        #expect(files.locate("places.tsv") != root.appendingPathComponent("places.tsv").path)
        #expect(DataFiles.readBytes("/nonexistent/file") == nil)
    }
}
