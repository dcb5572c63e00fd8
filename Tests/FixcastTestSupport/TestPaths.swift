import Foundation

/// Where the repository and its fixtures are, found from this file's own path (no Bundle resources).
enum TestPaths {
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures: URL = repoRoot.appendingPathComponent("Tests/FixcastTests/Fixtures")
    static func fixture(_ relative: String) -> String { fixtures.appendingPathComponent(relative).path }

    /// A fresh folder inside the current test's `TestScratch`, removed when the test ends (the suite
    /// needs `.scratch`: see TestScratch.swift).
    static func temporaryDirectory(_ label: String = "fixcast-test") -> URL { TestScratch.folder(label) }

    /// The built `fixcast` executable next to the test bundle (swift build puts both in .build/<config>).
    static var fixcastBinary: String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("fixcast")
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue {
                return candidate.path
            }
            dir = dir.deletingLastPathComponent()
        }
        return repoRoot.appendingPathComponent(".build/debug/fixcast").path
    }
}

/// A loopback TCP port that was free a moment ago.
func freeLoopbackPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    return UInt16(bigEndian: addr.sin_port)
}
