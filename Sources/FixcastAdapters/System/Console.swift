import FixcastCore
import FixcastText
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Unbuffered writes to stdout and stderr through write(2), safe from any thread, and the truth
/// about what reached stdout.
///
/// `run --json` promises a line is flushed at once, and stdio's `FILE *` globals are shared
/// mutable state that Swift 6 rightly refuses to touch from concurrent code. Every write to stdout
/// says what became of it (`StdoutWrite`), and the first one that did not get through is kept
/// (`stdoutLoss`): a command whose output was lost (a full disk, a closed stdout) must not exit 0,
/// as `cat` and `jq` do not. A reader that went away (EPIPE: `| head -1`) is its choice, not a loss.
public enum Console {
    /// What became of one write to stdout.
    public enum StdoutWrite: Sendable, Hashable {
        /// Every byte was written.
        case written
        /// The reader closed the pipe (EPIPE), or the terminal hung up: stop quietly, nothing was
        /// lost that anyone wanted.
        case readerGone
        /// The reader is there but has stopped reading, and what waits for it reached its limit
        /// (`run`'s JSON lines, `StdoutLines`): the text is not printed, a loss (exit 1).
        case readerStalled
        /// The text could not be written (ENOSPC on /dev/full, EBADF when stdout is closed, EIO):
        /// the output is lost; say so (`stdoutLossSentence`) and exit 1.
        case failed(errno: Int32)
    }

    /// Human (or JSON) text for stdout. The one route to stdout, so no control character from
    /// outside reaches the terminal raw: newlines stay, tabs become spaces, others are dropped
    /// (`TerminalText.forStdout`; JSON is already escaped, so it passes unchanged).
    @discardableResult
    public static func out(_ text: String) -> StdoutWrite { writeStdout(TerminalText.forStdout(text)) }
    /// Human text that fixcast's renderers coloured for a terminal (`now`, `alerts`): as `out`, but
    /// their SGR colour sequences pass (`TerminalText.forStdoutKeepingColour`).
    @discardableResult
    public static func outColoured(_ text: String) -> StdoutWrite {
        writeStdout(TerminalText.forStdoutKeepingColour(text))
    }
    /// One message for stderr (a sentence and its line end). The one route to stderr: a line break
    /// inside the message (from a path or a name) becomes a space, tabs become spaces, other control
    /// and bidi characters are shown as `\u{…}` (`TerminalText.forStderrMessage`). A failure here
    /// has nowhere left to be told.
    public static func err(_ text: String) { _ = write(fd: 2, TerminalText.forStderrMessage(text)) }

    /// The errno of the first write to stdout that failed (not EPIPE) in this process, or nil when
    /// every write got through or only the reader went away.
    public static var stdoutLoss: Int32? {
        let e = firstStdoutFailure.load(ordering: .acquiring)
        return e == 0 || e == EPIPE ? nil : e
    }

    /// Whether a write to stdout met a reader that had gone (EPIPE) in this process.
    public static var stdoutReaderGone: Bool { firstStdoutFailure.load(ordering: .acquiring) == EPIPE }

    /// The one sentence for a lost write to stdout, as `cat` words it:
    /// "fixcast: could not write to standard output: No space left on device."
    public static func stdoutLossSentence(errno e: Int32) -> String {
        "fixcast: could not write to standard output: \(String(cString: strerror(e))); check where the output goes (a full disk, a closed stream)."
    }

    /// Makes sure descriptors 0, 1 and 2 are open, before anything opens a file: a process started
    /// with one closed (`fixcast now >&-`) would get its next file (the SQLite store) as descriptor 1,
    /// and its output would be written into the store. A closed one is filled with /dev/null; a
    /// closed stdout is remembered, and every write to it stays a loss (EBADF), as it was; so is
    /// whether stdout is a terminal (its EIO later is a hang-up). Call it first.
    public static func claimStandardStreams() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let filler = Syscall.open("/dev/null", (fd == 0 ? O_RDONLY : O_WRONLY))
            if fd == 1 { stdoutWasClosed.store(true, ordering: .releasing) }
            // open(2) takes the lowest free descriptor, which is `fd`; anything else is given back.
            if filler >= 0, filler != fd { close(filler) }
        }
        stdoutWasTerminal.store(isatty(1) == 1, ordering: .releasing)
    }

    /// Whether stdout was closed at start (`fixcast export >&-`): /dev/null stands in for it, and
    /// what is written there is lost.
    package static var stdoutWasClosedAtStart: Bool { stdoutWasClosed.load(ordering: .acquiring) }

    /// Whether stdout is a terminal (the live screen) rather than a pipe or file (JSON lines).
    public static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    public static var stdinIsTerminal: Bool { isatty(0) == 1 }
    /// Whether stderr is the very file stdout is (the one terminal a person runs fixcast in, or
    /// `2>&1`): a sentence stdout already shows (`now`'s "Problems:") would then be read twice.
    public static var stderrIsStdout: Bool {
        var out = stat()
        var err = stat()
        guard fstat(1, &out) == 0, fstat(2, &err) == 0 else { return false }
        return out.st_dev == err.st_dev && out.st_ino == err.st_ino
    }

    /// 0 until a write to stdout fails; then that write's errno (the first one wins).
    private static let firstStdoutFailure = Atomic<Int32>(0)
    /// Stdout was closed at start (`claimStandardStreams` put /dev/null there).
    private static let stdoutWasClosed = Atomic<Bool>(false)
    /// Stdout was a terminal at start: EIO from it later is the terminal hung up (the person left,
    /// as a pipe's reader does), not lost output.
    private static let stdoutWasTerminal = Atomic<Bool>(false)

    private static func writeStdout(_ text: String) -> StdoutWrite {
        var e = stdoutWasClosed.load(ordering: .acquiring) ? (text.isEmpty ? 0 : EBADF) : write(fd: 1, text)
        if e == 0 { return .written }
        if readerWentAway(e, fd: 1) { e = EPIPE }
        _ = firstStdoutFailure.compareExchange(expected: 0, desired: e, ordering: .acquiringAndReleasing)
        return e == EPIPE ? .readerGone : .failed(errno: e)
    }

    /// Writes all of `text`; 0, or the errno of the write that failed.
    private static func write(fd: Int32, _ text: String) -> Int32 {
        Array(text.utf8).withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Writes all of `bytes` to `fd`; 0, or the errno of the write that failed. A stream someone else
    /// made non-blocking (a shared terminal) is waited on until it takes more. The one write loop of
    /// stdout, for `Console` and the exports alike.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            let n = Syscall.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                let e = errno
                if e == EAGAIN || e == EWOULDBLOCK {
                    var p = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                    _ = Syscall.poll(&p, timeoutMs: 1000)
                    continue
                }
                return e
            }
            // write(2) never returns 0 for a non-empty buffer; should it, the rest cannot be written.
            guard n > 0 else { return EIO }
            offset += n
        }
        return 0
    }

    /// Whether a failed write's `errno` on `fd` means its reader went away (EPIPE: a pipe's reader
    /// closed, `| head`; EIO from stdout that was a terminal: it hung up), which is the reader's choice
    /// and no loss: quiet, and the command's own exit status.
    package static func readerWentAway(_ e: Int32, fd: Int32) -> Bool {
        e == EPIPE || (e == EIO && fd == 1 && stdoutWasTerminal.load(ordering: .acquiring))
    }
}
