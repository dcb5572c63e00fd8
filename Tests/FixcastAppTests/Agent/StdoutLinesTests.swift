import FixcastAdapters
import Foundation
import Synchronization
import Testing

@testable import FixcastApp

#if canImport(Glibc)
    import Glibc
#endif

/// `StdoutLines` on a real pipe whose reader stops reading: the lines wait in order up to the limit,
/// the caller never blocks, and a reader who comes back gets every line.
@Suite struct StdoutLinesTests {
    /// A pipe whose buffer is one page (F_SETPIPE_SZ), so that four lines of 1 kB fill it.
    static func smallPipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        _ = fcntl(fds[1], 1031, 4096)  // F_SETPIPE_SZ
        return (fds[0], fds[1])
    }

    /// Blocking writes of whole lines to `fd`, as `Console.out` writes stdout.
    static func writer(_ fd: Int32) -> @Sendable (String) -> Console.StdoutWrite {
        { line in
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 { return errno == EPIPE ? .readerGone : .failed(errno: errno) }
                offset += n
            }
            return .written
        }
    }

    static func line(_ i: Int) -> String { String(format: "%04d", i) + String(repeating: "x", count: 1019) + "\n" }

    @Test func aReaderWhoStopsReadingHoldsBackTheLinesNotTheCaller() throws {
        let pipe = try Self.smallPipe()
        defer { close(pipe.read) }
        let problems = Mutex<[Console.StdoutWrite]>([])
        let lines = StdoutLines(limitBytes: 16 << 10, write: Self.writer(pipe.write)) { p in
            problems.withLock { $0.append(p) }
        }
        // Lines of 1 kB, handed over at once, though the pipe takes four: 16 kB wait for the reader
        // (and the few the pipe took), then a line is refused, as a loss the agent says.
        let started = Date()
        var accepted = 0
        while accepted < 40, lines.print(Self.line(accepted)) == .written { accepted += 1 }
        #expect(Date().timeIntervalSince(started) < 5, "a print waited for the reader")
        #expect((16...22).contains(accepted), "\(accepted) lines accepted")
        #expect(lines.print(Self.line(accepted)) == .readerStalled)
        // Nobody reads: the stop finds lines unprinted.
        #expect(lines.finish(seconds: 0.3) > 0)

        // The reader comes back: every line handed over, in order, none twice.
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let expected = (0..<accepted).map(Self.line).joined()
        let deadline = Date().addingTimeInterval(10)
        while read.count < expected.utf8.count, Date() < deadline {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(pipe.read, $0.baseAddress, $0.count) }
            if n > 0 { read += buffer.prefix(n) } else { break }
        }
        #expect(String(decoding: read, as: UTF8.self) == expected)
        close(pipe.write)
        #expect(problems.withLock { $0 }.isEmpty)
    }

    @Test func aReaderGoneIsToldOnceItIsFound() throws {
        signal(SIGPIPE, SIG_IGN)  // as fixcast's main: EPIPE, not a signal
        let pipe = try Self.smallPipe()
        close(pipe.read)
        defer { close(pipe.write) }
        let told = Mutex<[Console.StdoutWrite]>([])
        let lines = StdoutLines(write: Self.writer(pipe.write)) { p in told.withLock { $0.append(p) } }
        #expect(lines.print(Self.line(0)) == .written)
        #expect(lines.finish(seconds: 5) == 0)
        #expect(told.withLock { $0 } == [.readerGone])
    }
}
