import Foundation
import Testing

@testable import FixcastTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `run --json` into a pipe whose reader stops reading (`| less` left at its first page, a consumer
/// that hangs), through the binary: readings are still taken and stored, the stop comes when asked,
/// and what the reader never got is said, exit 1. Before, the agent's thread waited in write(2) once
/// the pipe was full: no reading on SIGUSR1, SIGTERM unanswered.
@Suite(.serialized, .scratch) struct AgentStalledReaderTests {
    @Test func aReaderWhoStopsReadingDoesNotStopTheAgent() throws {
        let home = AcceptanceHome("stalled-reader")
        defer { home.remove() }
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        // F_SETPIPE_SZ (1031): full after a few readings.
        _ = fcntl(fds[1], 1031, 4096)
        let errPath = home.path("stderr")
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestPaths.fixcastBinary)
        p.arguments = ["run", "--at", "52.52,13.405", "--offline", "--json", "--db", home.db]
        p.environment = fixcastEnvironment(home: home.dir, adding: [:])
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle(fileDescriptor: fds[1], closeOnDealloc: false)
        p.standardError = err
        try p.run()
        TestScratch.own(p)
        close(fds[1])  // the child has its own; the pipe ends when it does
        try err.close()

        // Eight readings (about 1 kB each) on demand, while nobody reads stdout: each one stored. A
        // request within 2 s of the last forced reading is answered by it (`forcedJoinWindowS`).
        typealias T = LiveScreenStalledTerminalTests
        var count = try T.readings(home.db, reaching: 1)
        for wanted in 2...8 where count == wanted - 1 {
            usleep(2_100_000)
            kill(p.processIdentifier, SIGUSR1)
            count = try T.readings(home.db, reaching: wanted)
        }
        #expect(count == 8, "readings taken and stored with stdout's reader gone quiet")

        let exited = T.stops(p, within: 15)
        #expect(exited, "SIGTERM is acted on while stdout's reader does not read")
        guard exited else { return }
        #expect(p.terminationStatus == 1, "readings were left unprinted: not a success")
        let said = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        #expect(said.contains("fixcast run: standard output's reader stopped reading, and "), "\(said)")
        #expect(said.contains("waiting for it at the stop were not printed; the readings are still stored"), "\(said)")

        // What the pipe holds: whole readings, the first ones, in order.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            bytes += buffer.prefix(n)
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 2 && lines.count < 8, "\(lines.count) lines")
        #expect(lines.first?.contains("\"trigger\":\"startup\"") == true)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("{\"id\":") && $0.contains("\"trigger\":\"manual\"") })
    }
}
