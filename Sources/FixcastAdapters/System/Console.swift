import FixcastCore

#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to stdout and stderr through write(2), safe from any thread.
///
/// `run --json` promises a line is flushed at once, and stdio's `FILE *` globals are shared
/// mutable state that Swift 6 rightly refuses to touch from concurrent code.
public enum Console {
    /// Human (or JSON) text for stdout. The one route to stdout, so no control character from
    /// outside reaches the terminal raw: newlines stay, tabs become spaces, others are dropped
    /// (`TerminalText.forStdout`; JSON is already escaped, so it passes unchanged).
    public static func out(_ text: String) { write(fd: 1, TerminalText.forStdout(text)) }
    /// Human text that fixcast's renderers coloured for a terminal (`now`, `alerts`): as `out`, but
    /// their SGR colour sequences pass (`TerminalText.forStdoutKeepingColour`).
    public static func outColoured(_ text: String) { write(fd: 1, TerminalText.forStdoutKeepingColour(text)) }
    /// A message for stderr. The one route to stderr: newlines stay, tabs become spaces, other
    /// control and bidi characters are shown as `\u{…}` (`TerminalText.forStderr`).
    public static func err(_ text: String) { write(fd: 2, TerminalText.forStderr(text)) }

    /// Whether stdout is a terminal (the live screen) rather than a pipe or file (JSON lines).
    public static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    public static var stdinIsTerminal: Bool { isatty(0) == 1 }

    private static func write(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf -> Int in
                guard let base = buf.baseAddress else { return 0 }
                return Syscall.write(fd, base + offset, buf.count - offset)
            }
            guard n > 0 else { return }  // EPIPE or a closed stream: nothing useful left to do with the text
            offset += n
        }
    }
}
