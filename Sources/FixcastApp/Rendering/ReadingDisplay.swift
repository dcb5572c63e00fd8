import FixcastAdapters
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// Where the agent's readings go: JSON lines on stdout, or the live screen. Used only on the agent's
/// event-loop thread.
protocol ReadingDisplay {
    /// A fresh reading (JSON lines print it; the live screen shows it at the next redraw), and what
    /// became of the printing.
    @discardableResult func show(_ reading: Reading) -> Console.StdoutWrite
    /// Draws what the agent knows now (the live screen only).
    func redraw(_ status: AgentStatus, now: Date)
    /// The keyboard to poll, when keys mean something (the live screen).
    var keyboard: Int32? { get }
    /// Whether `redraw` does anything, so the loop wakes for the screen's clock only when it does.
    var isLive: Bool { get }
    /// The terminal may have changed its size (SIGWINCH): the next redraw asks it, and draws whole.
    func terminalResized()
    /// Leaves the terminal as it was, or waits a little for the lines still to be printed; the
    /// readings that could not be (a reader who stopped reading), 0 when none.
    @discardableResult func close() -> Int
}

/// `run --json` and `run` off a terminal: one JSON reading per line, handed to `StdoutLines`, whose
/// thread writes it, so a reader who stops reading holds back the lines and not the agent.
final class JSONLinesDisplay: ReadingDisplay {
    let language: Language
    private let lines: StdoutLines

    /// - Parameter onProblem: a line that could not be written, or found its reader gone (from the
    ///   writer's thread).
    init(language: Language, onProblem: @escaping @Sendable (Console.StdoutWrite) -> Void) {
        self.language = language
        lines = StdoutLines(onProblem: onProblem)
    }

    func show(_ reading: Reading) -> Console.StdoutWrite {
        lines.print(reading.json(language: language).serialized() + "\n")
    }

    func redraw(_ status: AgentStatus, now: Date) {}
    var keyboard: Int32? { nil }
    var isLive: Bool { false }
    func terminalResized() {}
    /// 3 s: the agent's own wait at a stop (a reading in flight) is as long.
    @discardableResult func close() -> Int { lines.finish(seconds: 3) }
}

/// The live screen: redrawn in place when what it shows changes and when its clock turns a minute.
/// Keys are read by the agent's loop, which polls the keyboard beside gpsd (no thread of its own).
/// The terminal is restored on close, on Ctrl-Z (and taken again on `fg`), and at exit.
final class LiveDisplay: ReadingDisplay {
    private let terminal: TerminalSession
    private let options: DisplayOptions
    private let demo: Bool
    /// Frames rendered whole only when more than the position changed.
    private var frames = LiveScreenFrames()
    /// The terminal's size at the last frame; nil: ask it (TIOCGWINSZ) before the next one. Asked at
    /// the first frame, after SIGWINCH and after `fg`, not at every fix: the size changes only then.
    private var drawnSize: (columns: Int, rows: Int)?

    /// nil when stdout is not a terminal that can be put in raw mode (the caller falls back to JSON lines).
    init?(options: DisplayOptions, demo: Bool, terminal: TerminalSession = TerminalSession()) {
        do { try terminal.start() } catch { return nil }
        self.terminal = terminal
        self.options = options
        self.demo = demo
    }

    func show(_ reading: Reading) -> Console.StdoutWrite { .written }

    func redraw(_ status: AgentStatus, now: Date) {
        guard terminal.isActive else { return }  // stopped by Ctrl-Z: nothing is drawn until `fg`
        let size: (columns: Int, rows: Int)
        if let drawnSize {
            size = drawnSize
        } else {
            size = terminal.size() ?? (columns: 80, rows: 24)
            // A resized terminal may have reflowed what it showed: write the next frame whole.
            terminal.invalidate()
            drawnSize = size
        }
        terminal.draw(
            frames.frame(status, demo: demo, now: now, width: size.columns, height: size.rows, options: options))
    }

    var keyboard: Int32? { terminal.input }
    var isLive: Bool { true }

    func terminalResized() {
        drawnSize = nil
    }

    /// The bytes typed since the last call (never blocks).
    func readKeys() -> [UInt8] {
        terminal.readKeys(timeoutMs: 0)
    }

    /// Ctrl-Z: give the terminal back as it was (the shell's prompt must work while fixcast is stopped).
    func suspend() {
        terminal.restore()
    }

    /// `fg` (SIGCONT): take raw mode and the alternate screen again; the caller redraws. After a stop
    /// that was not Ctrl-Z (SIGSTOP), the session never gave the terminal up, yet the shell wrote on it
    /// and put its own modes back: taken again all the same.
    func resume() {
        drawnSize = nil  // the terminal may have been resized while fixcast was stopped
        // Either clears the screen and forgets the frame: the caller's redraw is whole.
        if terminal.isActive { terminal.takeAgain() } else { try? terminal.start() }
    }

    @discardableResult func close() -> Int {
        terminal.restore()
        return 0
    }
}
