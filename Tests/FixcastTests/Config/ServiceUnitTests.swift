import Foundation
import Testing

@testable import FixcastTestSupport

/// config/fixcast.service: the directives issue 6 asks for, and systemd's own verdict on it.
@Suite(.scratch) struct ServiceUnitTests {
    static let unitPath = TestPaths.repoRoot.appendingPathComponent("config/fixcast.service").path

    static func directives() throws -> [String] {
        try String(contentsOfFile: unitPath, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && $0.contains("=") }
    }

    @Test(arguments: [
        "ExecStart=/usr/local/bin/fixcast run --json", "Wants=gpsd.service", "After=gpsd.service network-online.target",
        "Restart=on-failure", "DynamicUser=yes", "StateDirectory=fixcast", "Environment=XDG_DATA_HOME=%S",
        "ProtectSystem=strict", "ProtectHome=yes", "NoNewPrivileges=yes", "PrivateTmp=yes",
        "WantedBy=multi-user.target",
    ])
    func hasDirective(_ line: String) throws {
        #expect(try Self.directives().contains(line))
    }

    @Test func documentsTheManualRefresh() throws {
        #expect(try String(contentsOfFile: Self.unitPath, encoding: .utf8).contains("systemctl kill -s USR1 fixcast"))
    }

    /// `systemd-analyze verify` on a copy whose ExecStart points at /bin/true (the real binary is
    /// not installed on a build machine; verify checks that the executable exists).
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
            "systemd-analyze is not installed"))
    func systemdAnalyzeVerifyReportsNothing() throws {
        let dir = TestPaths.temporaryDirectory("unit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("fixcast.service").path
        let text = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/local/bin/fixcast", with: "ExecStart=/bin/true")
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        p.arguments = ["verify", copy]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(report.isEmpty, "\(report)")
    }
}
