internal import CSystem
import FixcastCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Why the live screen could not take over the terminal; the agent then prints JSON lines instead.
public enum TerminalError: Error, Sendable, Hashable {
    /// stdin or stdout is not a terminal (a pipe, a file, a systemd service).
    case notATerminal
    /// tcgetattr/tcsetattr failed with this errno.
    case attributes(errno: Int32)

    public var message: String {
        switch self {
        case .notATerminal:
            return "display: stdin or stdout is not a terminal; the live screen needs one (use --json for a pipe)."
        case .attributes(let code):
            return "display: the terminal refused raw mode (errno \(code)); use --json instead."
        }
    }
}

/// The terminal while the live screen owns it: raw mode (no echo, no line buffering), the
/// alternate screen, a hidden cursor, frames redrawn in place, keys read without blocking.
///
/// The terminal MUST come back as it was however fixcast ends — `q`, SIGINT, SIGTERM, an error —
/// or the user's shell is left without echo. So `restore()` is idempotent and safe to call from
/// any thread, the lead calls it on every exit path, and `start()` also registers it with atexit(3)
/// as a last resort, and with a handler of the fatal signals (a crash, Ctrl-\), which skip atexit
/// (`csystem_restore_terminal_on_fatal`). ISIG stays on: Ctrl-C still sends SIGINT, which the agent turns into a clean
/// exit (commit, restore, exit 0).
/// Ctrl-Z: on SIGTSTP call `restore()` then stop the process (raise SIGSTOP); on SIGCONT call
/// `start()` again and redraw — `start()` may be called again after `restore()`.
/// Call `restore()` from ordinary code (a DispatchSource signal handler, a defer), not from a raw
/// signal handler: it takes a lock.
/// - SeeAlso: termios(3), console_codes(4) (`CSI ?1049h` alternate screen, `CSI ?25l` cursor).
public final class TerminalSession: Sendable {
    /// Puts back a terminal the live screen still holds, if any (the atexit(3) safety net, for an
    /// exit that skips atexit: `exitProcess`).
    public static func restoreAnyTaken() { TerminalState.restoreSaved() }

    /// The keyboard's descriptor, for a thread to sleep on until a key comes.
    package let input: Int32
    private let output: Int32
    /// What frames are written to: the terminal opened again, non-blocking, as a file description of
    /// its own (stdout's is the shell's too, and must stay blocking for it); -1 until `start()`, and
    /// stdout itself when the terminal cannot be opened again (a terminal owned by another user).
    /// A terminal that stops reading (an SSH link gone quiet, whose pty fills and stays full until
    /// TCP gives up, hours later) then refuses a frame, where a blocking write(2) stopped the
    /// agent's thread with it: no fix read, no reading taken, not even SIGTERM acted on.
    private let frameOutput = Atomic<Int32>(-1)
    /// The frame on the terminal now (nil: unknown, the next one is drawn whole).
    private let shown = Mutex<[String]?>(nil)

    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = input
        self.output = output
    }

    /// Takes over the terminal. Throws when stdin/stdout is not a terminal (then use JSON lines).
    public func start() throws(TerminalError) {
        guard isatty(input) == 1, isatty(output) == 1 else { throw .notATerminal }
        var original = termios()
        guard tcgetattr(input, &original) == 0 else { throw .attributes(errno: errno) }
        var raw = Self.rawModes(from: original)
        if frameOutput.load(ordering: .relaxed) < 0 {
            var again = Syscall.open("/proc/self/fd/\(output)", O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            if again >= 0, isatty(again) != 1 {
                close(again)
                again = -1
            }
            frameOutput.store(again >= 0 ? again : output, ordering: .relaxed)
        }
        let frames = frameOutput.load(ordering: .relaxed)
        let registered = TerminalState.shared.withLock { state -> Bool in
            state.saved = original
            state.fd = input
            state.outputFD = frames
            defer { state.atexitRegistered = true }
            return state.atexitRegistered
        }
        guard TerminalState.setModes(input, &raw) == 0 else {
            let code = errno
            TerminalState.shared.withLock { $0.saved = nil }
            throw .attributes(errno: code)
        }
        if !registered { atexit { TerminalState.restoreSaved() } }
        // A crash or Ctrl-\ skips atexit: the terminal would stay on the alternate screen, cursor hidden.
        _ = withUnsafeBytes(of: original) {
            csystem_restore_terminal_on_fatal(input, frames, $0.baseAddress, UInt($0.count))
        }
        invalidate()
        writeAll("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// The live screen's modes made from the terminal's own: no echo, no line buffering, no flow
    /// control, and read(2) returning at once with what is there (VMIN = VTIME = 0: poll(2) waits).
    static func rawModes(from original: termios) -> termios {
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// Takes the terminal again while the session holds it: after a stop that was not Ctrl-Z (SIGSTOP,
    /// a debugger, a supervisor freezing the process), the shell printed on the screen and put its own
    /// modes back, though fixcast never gave the terminal up. Raw mode and the alternate screen again,
    /// cleared, the next frame drawn whole. Does nothing when the session is not active.
    ///
    /// Only when fixcast is the terminal's foreground (continued by `bg`, it must leave the shell's
    /// terminal alone) and its modes are no longer the live screen's (after its own Ctrl-Z, `start()`
    /// took them back already: a second take would blank the screen and drop the keys typed).
    public func takeAgain() {
        guard let saved = TerminalState.shared.withLock({ $0.saved }) else { return }
        var raw = Self.rawModes(from: saved)
        guard tcgetpgrp(input) == getpgrp() else { return }
        var now = termios()
        let ours = tcflag_t(ECHO | ICANON)
        if tcgetattr(input, &now) == 0, now.c_lflag & ours == raw.c_lflag & ours { return }
        TerminalState.evenFromTheBackground { _ = TerminalState.setModes(input, &raw) }
        invalidate()
        writeAll("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    /// Leaves the alternate screen, shows the cursor and puts the saved terminal modes back.
    /// Idempotent: the second and later calls do nothing.
    public func restore() {
        TerminalState.restoreSaved()
    }

    /// Whether `start()` succeeded and `restore()` has not been called since.
    public var isActive: Bool { TerminalState.shared.withLock { $0.saved != nil } }

    /// Draws a frame (from `LiveScreen.render`) over the one shown: only the lines that changed, in one
    /// write (`FrameUpdate`); nothing when nothing changed. The first frame after `start()` or
    /// `invalidate()` is written whole.
    public func draw(_ lines: [String]) {
        let bytes = shown.withLock { shown -> String? in
            defer { shown = lines }
            return FrameUpdate.bytes(from: shown, to: lines)
        }
        // A frame the terminal did not take whole leaves the screen unknown: the next is drawn whole.
        if let bytes, !writeAll(bytes) { invalidate() }
    }

    /// Forgets what the terminal shows, so the next frame is written whole (after a resize, or when
    /// another program may have written to the terminal).
    public func invalidate() {
        shown.withLock { $0 = nil }
    }

    /// Columns and rows of the terminal (TIOCGWINSZ); nil when it cannot say. One system call: ask when
    /// the size may have changed (the first frame, SIGWINCH, `fg`), not at every frame.
    public func size() -> (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    /// Waits up to `timeoutMs` (0: just look; negative: forever) for keys and returns the bytes
    /// typed, possibly none. Map each with `LiveCommand(key:)`.
    public func readKeys(timeoutMs: Int32 = 0) -> [UInt8] {
        var pfd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        var pfds = [pfd]
        let ready = Syscall.poll(&pfds, timeoutMs: timeoutMs)
        pfd = pfds[0]
        guard ready > 0, pfd.revents & Int16(POLLIN) != 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { Syscall.read(input, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer.prefix(n)) : []
    }

    @discardableResult
    private func writeAll(_ text: String) -> Bool {
        let frames = frameOutput.load(ordering: .relaxed)
        return TerminalState.write(fd: frames >= 0 ? frames : output, text)
    }
}

/// The terminal modes to put back, shared by every path out of the process (restore, atexit).
struct TerminalState: Sendable {
    var saved: termios?
    var fd: Int32 = 0
    var outputFD: Int32 = 1
    var atexitRegistered = false

    static let shared = Mutex(TerminalState())

    static func restoreSaved() {
        csystem_forget_terminal_on_fatal()
        let taken = shared.withLock { state -> (termios, Int32, Int32)? in
            guard let saved = state.saved else { return nil }
            state.saved = nil
            return (saved, state.fd, state.outputFD)
        }
        guard let (original, fd, out) = taken else { return }
        var saved = original
        evenFromTheBackground {
            // Waited for a while: without it, a terminal that was slow to read stays on the alternate
            // screen with no cursor; one that stopped reading for good costs the exit a second.
            write(fd: out, "\u{1B}[?25h\u{1B}[?1049l", waitingMs: 1000)
            _ = setModes(fd, &saved)
        }
    }

    /// Sets the terminal's modes at once, dropping the keys typed and not read (a `q` must not reach
    /// the shell). Not TCSAFLUSH, which does the same but first waits until the terminal has taken
    /// all the output: forever, on a terminal that stopped reading.
    static func setModes(_ fd: Int32, _ modes: inout termios) -> Int32 {
        _ = tcflush(fd, TCIFLUSH)
        return tcsetattr(fd, TCSANOW, &modes)
    }

    /// Runs `body` with SIGTTOU blocked in this thread, so that touching the terminal from a
    /// background process group does not stop the process (the kernel lets a blocked SIGTTOU's
    /// tcsetattr and write through). Ctrl-Z on fixcast started by a script (`sh -c 'fixcast run; …'`)
    /// stops the shell at once, and its job's shell takes the terminal back before fixcast has given
    /// it back: then a SIGTTOU stopped fixcast inside the restore, `fg` continued it into its own stop
    /// (SIGTSTP), and it stayed stopped while the shell thought the job running.
    static func evenFromTheBackground(_ body: () -> Void) {
        var ttou = sigset_t()
        sigemptyset(&ttou)
        sigaddset(&ttou, SIGTTOU)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &ttou, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        body()
    }

    /// Writes all of `text` with as few write(2) calls as the terminal takes (one, for a frame), from the
    /// string's own UTF-8 storage (no copy); false when the terminal did not take it all: gone, or full
    /// (on the non-blocking frame output) and still full after about `waitingMs`.
    @discardableResult
    static func write(fd: Int32, _ text: String, waitingMs: Int32 = 0) -> Bool {
        var text = text
        var waits = waitingMs / 100
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && waits > 0 {
                    waits -= 1
                    var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&room, 1, 100)
                } else {
                    return false
                }
            }
            return true
        }
    }
}
