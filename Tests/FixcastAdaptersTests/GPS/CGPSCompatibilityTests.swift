import Foundation
import Testing

@testable import FixcastTestSupport

/// The CGPS shim compiles against the libgps API changes of later gpsd releases (NOTES.md), checked
/// with a reduced stand-in header (Fixtures/gpsd/mock-libgps/gps.h) and the system C compiler.
@Suite("CGPS shim across libgps API versions", .scratch)
struct CGPSCompatibilityTests {
    /// A C compiler from PATH: cc or gcc (Debian), or the clang that comes with the Swift toolchain.
    static let compiler: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for name in ["cc", "gcc", "clang"] {
            for dir in path.split(separator: ":") {
                let candidate = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Runs the compiler in syntax-only mode on `source`; true when it compiled without a warning.
    static func compiles(_ source: String, defines: [String], mock: Bool = true) throws -> Bool {
        let cc = try #require(compiler)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: cc)
        var args = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"]
        args += defines.map { "-D\($0)" }
        if mock { args += ["-I", TestPaths.fixture("gpsd/mock-libgps")] }
        // The shim's own headers and the loader it opens libgps through (CLazyLibrary), as SwiftPM passes them.
        for include in ["Sources/CGPS/include", "Sources/CLazyLibrary/include"] {
            args += ["-I", TestPaths.repoRoot.appendingPathComponent(include).path]
        }
        args.append(source)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    static let shim = TestPaths.repoRoot.appendingPathComponent("Sources/CGPS/cgps.c").path

    @Test(arguments: [
        ("gpsd 3.23 (API 12)", ["MOCK_API=12", "MOCK_STREAM_NEW=0", "MOCK_SOCKET_INTPTR=0"]),
        ("gpsd 3.24 (API 14, STATUS_* renamed)", ["MOCK_API=14", "MOCK_STREAM_NEW=0", "MOCK_SOCKET_INTPTR=0"]),
        ("gpsd 3.25 (API 14, new gps_stream)", ["MOCK_API=14", "MOCK_STREAM_NEW=1", "MOCK_SOCKET_INTPTR=0"]),
        ("gpsd 3.26 (API 14, socket_t intptr_t)", ["MOCK_API=14", "MOCK_STREAM_NEW=1", "MOCK_SOCKET_INTPTR=1"]),
        ("gpsd 3.27 (API 16)", ["MOCK_API=16", "MOCK_STREAM_NEW=1", "MOCK_SOCKET_INTPTR=1"]),
    ])
    func shimCompiles(release: String, defines: [String]) throws {
        #expect(try Self.compiles(Self.shim, defines: defines), "cgps.c does not compile against \(release)")
    }

    @Test func shimCompilesAgainstTheInstalledLibgps() throws {
        #expect(try Self.compiles(Self.shim, defines: [], mock: false))
    }

    @Test func theStandInHeaderReallyDropsTheOldNames() throws {
        // Control: code written only for API 11 must fail against the API 14 stand-in, or the checks above prove nothing.
        let dir = TestPaths.temporaryDirectory("cgps-control")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("old.c")
        try """
        #include <gps.h>
        int old_status(void) { return STATUS_NO_FIX; }
        int old_stream(struct gps_data_t *d) { unsigned long f = 0; return gps_stream(d, WATCH_ENABLE, &f); }
        """.write(to: file, atomically: true, encoding: .utf8)
        #expect(try !Self.compiles(file.path, defines: ["MOCK_API=14", "MOCK_STREAM_NEW=1", "MOCK_SOCKET_INTPTR=0"]))
        #expect(try Self.compiles(file.path, defines: ["MOCK_API=12", "MOCK_STREAM_NEW=0", "MOCK_SOCKET_INTPTR=0"]))
    }
}
