#if canImport(Glibc)
    import Glibc
#endif

/// Where an export goes.
public enum ExportDestination: Sendable, Hashable {
    case standardOutput
    /// `-o PATH`: a device or FIFO is written through; a regular file (or a symlink's target, or
    /// a new path) is written to a temp file in its folder and renamed over it when complete, so
    /// a failed export never leaves a truncated file that looks finished (`ExportTarget`).
    case file(path: String)
    /// An open descriptor the caller owns (not closed here).
    case fileDescriptor(Int32)
}

/// A small buffered writer over write(2): exports go out in 64 KiB chunks whatever their size,
/// without Foundation's FileHandle.
package final class ExportSink {
    private let fd: Int32
    private let target: String
    private var buffer: [UInt8] = []
    private static let chunk = 64 * 1024

    init(fd: Int32, target: String) {
        self.fd = fd
        self.target = target
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    package func write(_ text: String) throws(ExportError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunk { try flush() }
    }

    func flush() throws(ExportError) {
        let e = buffer.withUnsafeBytes { Console.writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
        guard e != 0 else { return }
        // `fixcast export | head`: the reader's choice, not a failure (as for every other command).
        if Console.readerWentAway(e, fd: fd) { throw ExportError.readerGone(target: target) }
        throw ExportError.writeFailed(target: target, detail: String(cString: strerror(e)))
    }
}

@available(*, unavailable)
extension ExportSink: Sendable {}

/// Runs `body` with a sink on `destination`; a file is replaced only when `body` finished.
package func withExportSink(_ destination: ExportDestination, _ body: (ExportSink) throws(ExportError) -> Void)
    throws(ExportError)
{
    switch destination {
    case .standardOutput:
        // A stdout closed at start has /dev/null under it (`Console.claimStandardStreams`): every
        // write would get through to nothing, and the export would pass for written.
        if Console.stdoutWasClosedAtStart {
            throw ExportError.writeFailed(target: "standard output", detail: String(cString: strerror(EBADF)))
        }
        let sink = ExportSink(fd: 1, target: "standard output")
        try body(sink)
        try sink.flush()
    case .fileDescriptor(let fd):
        let sink = ExportSink(fd: fd, target: "file descriptor \(fd)")
        try body(sink)
        try sink.flush()
    case .file(let path):
        try withExportTarget(try ExportTarget.resolve(path), shownAs: path, body)
    }
}
