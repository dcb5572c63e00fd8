import Dispatch
import FixcastAdapters
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// `fixcast run`: follows gpsd, keeps the local weather current, shows it and logs it.
///
/// One event loop (`AgentLoop`) owns all state and reacts to gpsd, signals, keys and finished
/// readings; every decision is the pure `AgentReducer`'s, so the seeds' rules (no double load at cold
/// start, forced refreshes never swallowed, periodic readings at the last position when the fix is
/// lost) are decided in one tested place. Nothing here ends the
/// process except SIGINT, SIGTERM, SIGHUP, `q` or stdout going away: gpsd restarts, a lost fix, a dead
/// network, API back-off and a full disk all become status lines and `errors` entries (and, headless,
/// one stderr line per change: `ComponentHealth`).
public final class Agent: Sendable {
    public struct Options: Sendable {
        public var json: Bool
        public var offline: Bool
        public var demoLabel: String?
        /// `--at` / `--place`: a fixed position instead of gpsd (a desk or a machine without GPS), with
        /// the place a `--place` search named. Readings come at start, periodically, on resume and on demand.
        public var fixedPosition: Position?
        public var fixedPlace: Place?
        /// The problems of the parts beside the agent (the MQTT publisher, the alert command), for the
        /// live screen's status line; read at each redraw.
        public var sideProblems: (@Sendable () -> [ReadingIssue])?
        /// `fixcast now`: one reading, printed as `now` prints it (text, or JSON with `json`), then
        /// leave (`AgentReducer.Configuration.stopsAfterFirstReading`); `force` bypasses the cache.
        public var oneReading = false
        public var force = false
        /// `forecast`, `alerts`, `ahead`: a one-reading run that stops where its reading would start
        /// (`AgentReducer.Configuration.stopsAtPosition`); use `position()`, which sets it.
        public var stopsAtPosition = false
        /// What the terminal can show (`TERM`, `NO_COLOR`): colour in `now`'s text.
        public var terminal = TerminalKind(environment: [:])
        public init(
            json: Bool, offline: Bool, demoLabel: String?, fixedPosition: Position? = nil, fixedPlace: Place? = nil,
            sideProblems: (@Sendable () -> [ReadingIssue])? = nil
        ) {
            self.sideProblems = sideProblems
            self.json = json
            self.offline = offline
            self.demoLabel = demoLabel
            self.fixedPosition = fixedPosition
            self.fixedPlace = fixedPlace
        }
    }

    let settings: Settings
    let options: Options
    let services: Services

    public init(settings: Settings, options: Options, services: Services) {
        self.settings = settings
        self.options = options
        self.services = services
    }

    /// Runs until SIGINT, SIGTERM, SIGHUP or `q`; returns the exit code (0 after a clean shutdown, 1
    /// when a reading could not be stored or printed).
    ///
    /// The loop runs on a thread of its own (it sleeps in poll(2), which must never hold one of the
    /// cooperative pool's few threads); this task only waits for it to end.
    public func run() async -> Int32 {
        await Self.onOwnThread(settings: settings, options: options, services: services) { $0.run() }
            ?? ExitCode.failure
    }

    /// `forecast`, `alerts` and `ahead`: the position `now` would take its reading at — the same fix
    /// wait, gpsd sentences, last-known fallback and note, the live fix saved as the last known
    /// position — handed back instead of a reading. nil when there is none: its one sentence is on
    /// stderr already.
    public func position() async -> ReadingRequest? {
        var options = self.options
        options.oneReading = true
        options.stopsAtPosition = true
        return await Self.onOwnThread(settings: settings, options: options, services: services) { loop in
            _ = loop.run()
            return loop.resolvedPosition
        } ?? nil
    }

    /// Builds the loop on a thread of its own and runs `body` there; nil when no loop could be had
    /// (said on stderr).
    private static func onOwnThread<T: Sendable>(
        settings: Settings, options: Options, services: Services, _ body: @escaping @Sendable (AgentLoop) -> T
    ) async -> T? {
        await withCheckedContinuation { (done: CheckedContinuation<T?, Never>) in
            let started = DedicatedThread.start(name: "fixcast-agent") {
                guard let loop = AgentLoop(settings: settings, options: options, services: services) else {
                    done.resume(returning: nil)
                    return
                }
                done.resume(returning: body(loop))
            }
            if !started {
                Console.err(
                    "fixcast run: the system refused a thread for the agent; free some memory or processes and try again.\n"
                )
                done.resume(returning: nil)
            }
        }
    }
}
