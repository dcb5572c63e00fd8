import FixcastCore

#if canImport(Glibc)
    import Glibc
#endif

/// What became of a write to stdout: `run` must know, since a reading printed nowhere is a loss
/// (`run --json > /dev/full`: exit 1), while a reader that went away (`run --json | head -1`) is the
/// reader's choice and ends the agent as a stop does.
public enum OutputOutcome: Sendable, Hashable {
    case written
    /// EPIPE: the pipe's reader closed it.
    case readerGone
    /// Any other failure (ENOSPC, EIO, EBADF …), with its errno.
    case failed(errno: Int32)

    /// One sentence for stderr about a failed write, naming stdout and what to do.
    public static func failureMessage(errno code: Int32) -> String {
        "fixcast run: could not write to standard output (\(String(cString: strerror(code)))); the readings are still stored, so point stdout at somewhere that takes them and start fixcast run again."
    }
}

extension Console {
    /// As `out`, and what became of the text (one write(2) after another until it is all written).
    public static func outReporting(_ text: String) -> OutputOutcome {
        var bytes = Array(TerminalText.forStdout(text).utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf -> Int in
                guard let base = buf.baseAddress else { return 0 }
                return Syscall.write(1, base + offset, buf.count - offset)
            }
            if n < 0 { return errno == EPIPE ? .readerGone : .failed(errno: errno) }
            if n == 0 { return .failed(errno: EIO) }
            offset += n
        }
        return .written
    }

    /// Whether stdout is a pipe, whose reader's going away poll(2) reports (POLLERR on the write end).
    public static var stdoutIsPipe: Bool {
        var st = stat()
        guard fstat(1, &st) == 0 else { return false }
        return st.st_mode & S_IFMT == S_IFIFO
    }
}
