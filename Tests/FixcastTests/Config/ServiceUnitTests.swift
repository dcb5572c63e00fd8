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
        // A usage or config error (exit 2) never heals by itself: no restart loop on it.
        "RestartPreventExitStatus=2",
        // Secrets from a root-only file systemd reads, never from Environment= (systemctl show).
        "EnvironmentFile=-/etc/fixcast/secrets",
    ])
    func hasDirective(_ line: String) throws {
        #expect(try Self.directives().contains(line))
    }

    /// Each section's directives, by section name ("Unit", "Service", "Install").
    static func sections(_ path: String) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        var current = ""
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init) {
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast())
            } else if !line.hasPrefix("#"), line.contains("=") {
                result[current, default: []].append(line)
            }
        }
        return result
    }

    /// A systemd time span as this project writes one: "300", "300s" or "5min".
    static func seconds(_ value: String) -> Double? {
        if value.hasSuffix("min") { return Double(value.dropLast(3)).map { $0 * 60 } }
        if value.hasSuffix("s") { return Double(value.dropLast()) }
        return Double(value)
    }

    static func value(of key: String, in lines: [String]) -> String? {
        lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    /// RestartSec=5s never reaches systemd's default start limit (5 starts in 10 s), so a lasting
    /// failure (a damaged store, exit 1) restarted the unit every 5 s forever. The unit's own limit, in
    /// [Unit] where systemd reads it, must be reached by restarts RestartSec apart: Burst starts at
    /// least RestartSec apart fit in the interval.
    @Test(arguments: [ServiceUnitTests.unitPath, PackagingFilesTests.packagedUnit])
    func aRestartLoopEndsInFailed(_ path: String) throws {
        let sections = try Self.sections(path)
        let unit = sections["Unit"] ?? []
        let service = sections["Service"] ?? []
        let interval = try #require(Self.value(of: "StartLimitIntervalSec", in: unit).flatMap(Self.seconds))
        let burst = try #require(Self.value(of: "StartLimitBurst", in: unit).flatMap { Int($0) })
        let restart = try #require(Self.value(of: "RestartSec", in: service).flatMap(Self.seconds))
        #expect(burst >= 2)
        #expect(Double(burst) * restart < interval, "\(burst) restarts \(restart) s apart do not fit in \(interval) s")
        #expect(!service.contains { $0.hasPrefix("StartLimit") }, "systemd reads the start limit in [Unit] only")
    }

    /// Neither unit puts a secret in, nor advises, an Environment= line (its own or a drop-in's):
    /// `systemctl show fixcast -p Environment` gives those to every local user. Comments included.
    @Test(arguments: [ServiceUnitTests.unitPath, PackagingFilesTests.packagedUnit])
    func noLineAdvisesASecretInEnvironment(_ path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let advising = text.split(separator: "\n").filter { line in
            guard let r = line.range(of: "Environment=FIXCAST_") else { return false }
            let name = line[r.upperBound...].prefix { $0 != "=" }
            return name.contains("KEY") || name.contains("PASSWORD")
        }
        #expect(advising.isEmpty, "\(advising)")
        #expect(text.contains("/etc/fixcast/secrets") && text.contains("0600"))
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
