import Dispatch
import FixcastAdapters
import FixcastCore
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
        /// A problem of a link beside the agent (the MQTT publisher), for the live screen's status
        /// line; read at each redraw.
        public var linkProblem: (@Sendable () -> ReadingIssue?)?
        /// `fixcast now`: one reading, printed as `now` prints it (text, or JSON with `json`), then
        /// leave (`AgentReducer.Configuration.stopsAfterFirstReading`); `force` bypasses the cache.
        public var oneReading = false
        public var force = false
        public init(
            json: Bool, offline: Bool, demoLabel: String?, fixedPosition: Position? = nil, fixedPlace: Place? = nil,
            linkProblem: (@Sendable () -> ReadingIssue?)? = nil
        ) {
            self.linkProblem = linkProblem
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
        let settings = self.settings
        let options = self.options
        let services = self.services
        return await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            let started = DedicatedThread.start(name: "fixcast-agent") {
                guard let loop = AgentLoop(settings: settings, options: options, services: services) else {
                    done.resume(returning: ExitCode.failure)
                    return
                }
                done.resume(returning: loop.run())
            }
            if !started {
                Console.err(
                    "fixcast run: the system refused a thread for the agent; free some memory or processes and try again.\n"
                )
                done.resume(returning: ExitCode.failure)
            }
        }
    }
}
