import Dispatch
import FoundationEssentials
import FixcastCore
import FixcastAdapters
import Synchronization

/// Where the agent's readings go: JSON lines on stdout, or the live screen.
protocol ReadingDisplay: Sendable {
    /// The last stored reading, shown at launch with its age until a fresh one arrives.
    func showStored(_ reading: Reading, state: inout LiveScreen.State, now: Date)
    func show(_ reading: Reading, now: Date)
    func redraw(_ state: LiveScreen.State, now: Date)
    func close()
}

/// `run --json` and `run` off a terminal: one JSON reading per line, written at once.
struct JSONLinesDisplay: ReadingDisplay {
    let language: Language

    func showStored(_ reading: Reading, state: inout LiveScreen.State, now: Date) {
        // Not repeated as a line: a consumer of the stream takes every line as a new reading.
        state.reading = reading
    }

    func show(_ reading: Reading, now: Date) {
        Console.out(reading.json(language: language).serialized() + "\n")
    }

    func redraw(_ state: LiveScreen.State, now: Date) {}
    func close() {}
}

/// The live screen: redrawn in place on every change and every second, with `r` and `q` read
/// from the keyboard on a thread of their own, which sleeps until a key comes (or `close`). The
/// terminal is restored on close (and at exit).
final class LiveDisplay: ReadingDisplay {
    private let terminal: TerminalSession
    private let options: DisplayOptions
    private let keysStop = StopSignal()
    private let keysDone = DispatchSemaphore(value: 0)

    /// nil when stdout is not a terminal that can be put in raw mode (the caller falls back to JSON lines).
    init?(options: DisplayOptions, onKey: @escaping @Sendable (AgentEvent) -> Void) {
        let terminal = TerminalSession()
        do { try terminal.start() } catch { return nil }
        self.terminal = terminal
        self.options = options
        let stop = keysStop
        let done = keysDone
        let reading = DedicatedThread.start(name: "fixcast-keys") {
            while !stop.isStopped {
                guard stop.wait(seconds: nil, orReadable: terminal.input) else { continue }
                let keys = terminal.readKeys(timeoutMs: 0)
                if keys.isEmpty { break }  // readable yet nothing to read: the terminal hung up
                for key in keys {
                    switch LiveCommand(key: key) {
                    case .refresh: onKey(.manualRefresh)
                    case .quit: onKey(.quit)
                    case nil: break
                    }
                }
            }
            done.signal()
        }
        if !reading {
            terminal.restore()
            return nil  // no keys, no live screen: the caller prints JSON lines instead
        }
    }

    func showStored(_ reading: Reading, state: inout LiveScreen.State, now: Date) {
        state.reading = reading
    }

    func show(_ reading: Reading, now: Date) {}

    func redraw(_ state: LiveScreen.State, now: Date) {
        let size = terminal.size() ?? (columns: 80, rows: 24)
        terminal.draw(LiveScreen.render(state, now: now, width: size.columns, height: size.rows, options: options))
    }

    func close() {
        keysStop.stop()
        _ = keysDone.wait(timeout: .now() + .seconds(1))
        terminal.restore()
    }
}
