import Foundation

/// Runs a program (a shell, groff, man) to its end and captures what it printed: for the tests
/// that check what other programs make of fixcast's output. PATH leads to the built fixcast.
enum ShellRun {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ executable: String, _ arguments: [String], env: [String: String] = [:]) throws -> Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fixcast-shellrun-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Files rather than pipes: neither stream can fill up and stall the program.
        let outPath = dir.appendingPathComponent("out").path
        let errPath = dir.appendingPathComponent("err").path
        // If they could not be made, opening them below throws.
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        var environment = [
            "PATH": URL(fileURLWithPath: TestPaths.fixcastBinary).deletingLastPathComponent().path + ":/usr/bin:/bin",
            "HOME": dir.path, "LC_ALL": "C.UTF-8", "TERM": "dumb",
        ]
        environment.merge(env) { _, new in new }
        p.environment = environment
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer {
            try? out.close()
            try? err.close()
        }
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return Result(
            status: p.terminationStatus, stdout: try String(contentsOfFile: outPath, encoding: .utf8),
            stderr: try String(contentsOfFile: errPath, encoding: .utf8))
    }
}
