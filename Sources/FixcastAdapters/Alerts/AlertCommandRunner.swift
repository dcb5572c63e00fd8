internal import CSystem
import FixcastCore
import FixcastText
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `alerts.command` once per new alert (CONTRACT.md): `/bin/sh -c COMMAND` with the alert's JSON
/// on stdin and `FIXCAST_ALERT_EVENT` / `FIXCAST_ALERT_SEVERITY` in its environment, so users can wire
/// up notify-send, ntfy or a buzzer.
///
/// Never fatal and never in the way: it runs on a thread of its own (waiting on a child must not hold
/// a cooperative-pool thread), in its own process group, and after `timeoutS` the whole group is
/// killed (a hung `curl` to ntfy must not pile up one process per alert). A failure is one sentence
/// on stderr, said once until the command works again (`ComponentHealth`: a mistyped command in a
/// burst of alerts is one line, not one per alert), and that is said once too. Secrets in fixcast's
/// environment (`FIXCAST_*KEY*`, `FIXCAST_*PASSWORD*`) are not passed on.
///
/// A burst of new alerts (a front, or a feed that renames its alerts at every check: up to 100 at once)
/// does not start a shell for each at once: at most `maxRunning` commands run, the next alerts wait
/// their turn, and past `maxWaiting` waiting an alert is not passed on, which is said once a burst.
public struct AlertCommandRunner: Sendable {
    /// Long enough for a notification over a slow link, short enough that a stuck command is noticed.
    public static let defaultTimeoutS = 30.0
    /// A few notifications at once; a hundred `notify-send`s would take a Pi's memory.
    public static let defaultMaxRunning = 4
    /// One check's worth (fixcast keeps at most 100 alerts).
    public static let defaultMaxWaiting = 100

    /// Whose turn it is: the commands running and the alerts waiting, shared by every copy of a runner.
    final class Turns: Sendable {
        enum Admission: Equatable {
            case start
            case waits
            /// Not passed on; `firstOfBurst` says whether to say so (once until the queue drains).
            case dropped(firstOfBurst: Bool)
        }
        private struct State {
            var running = 0
            var waiting: [Alert] = []
            var droppedSaid = false
        }
        let maxRunning: Int
        let maxWaiting: Int
        private let state = Mutex(State())

        init(maxRunning: Int, maxWaiting: Int) {
            self.maxRunning = max(1, maxRunning)
            self.maxWaiting = max(0, maxWaiting)
        }

        func admit(_ alert: Alert) -> Admission {
            state.withLock { s in
                if s.running < maxRunning {
                    s.running += 1
                    return .start
                }
                if s.waiting.count < maxWaiting {
                    s.waiting.append(alert)
                    return .waits
                }
                defer { s.droppedSaid = true }
                return .dropped(firstOfBurst: !s.droppedSaid)
            }
        }

        /// A command ended: the next waiting alert, to run on the same thread, or nil (one fewer runs).
        func next() -> Alert? {
            state.withLock { s in
                if !s.waiting.isEmpty { return s.waiting.removeFirst() }
                s.running -= 1
                s.droppedSaid = false
                return nil
            }
        }
    }

    /// How one run ended.
    public enum Outcome: Sendable, Hashable {
        case exited(status: Int32)
        case killedBySignal(Int32)
        case timedOut
        case couldNotStart(String)

        public var succeeded: Bool { self == .exited(status: 0) }
    }

    public let command: String
    public let timeoutS: Double
    public let environment: [String: String]
    /// Where the one-sentence failure goes (stderr in the app; a collector in tests).
    public let report: @Sendable (String) -> Void
    /// When set, takes the failures instead of `report`: the sentence while the command fails, nil
    /// once it works again (the live screen's status line, where stderr would write over the screen).
    public let problem: (@Sendable (String?) -> Void)?
    let turns: Turns
    /// Whether the command is failing: what is said, shared by every copy of a runner.
    let health = CommandHealth()

    /// The command's `ComponentHealth`, of its own (the alert service's health is the agent's).
    final class CommandHealth: Sendable {
        private let state = Mutex(ComponentHealth())

        /// The sentence to say for this outcome's problem (nil: it worked), or nil when it is no news.
        func observe(_ problem: String?) -> String? {
            state.withLock {
                $0.observe(
                    .alerts, problem: problem.map { ReadingIssue(component: .alerts, message: $0) },
                    recovered: "alerts: the alert command works again.")
            }?.message
        }
    }

    public init(
        command: String, timeoutS: Double = AlertCommandRunner.defaultTimeoutS,
        environment: [String: String] = ProcessEnvironment.current,
        maxRunning: Int = AlertCommandRunner.defaultMaxRunning, maxWaiting: Int = AlertCommandRunner.defaultMaxWaiting,
        report: @escaping @Sendable (String) -> Void = { Console.err($0 + "\n") },
        problem: (@Sendable (String?) -> Void)? = nil
    ) {
        self.command = command
        self.timeoutS = timeoutS
        self.environment = environment
        self.report = report
        self.problem = problem
        turns = Turns(maxRunning: maxRunning, maxWaiting: maxWaiting)
    }

    /// Starts the command for `alert`, or queues it behind the ones running, and returns at once; the
    /// outcome, when it is a failure, is reported. Does nothing when no command is configured.
    public func run(alert: Alert) {
        guard !command.isEmpty else { return }
        switch turns.admit(alert) {
        case .waits, .dropped(firstOfBurst: false): return
        case .dropped(firstOfBurst: true):
            tellOnce(
                "alerts: more than \(turns.maxWaiting) alerts waited for the alert command, so the newest were not passed to it; check alerts.command."
            )
            return
        case .start: break
        }
        let runner = self
        let started = DedicatedThread.start(name: "fixcast-alertcmd") {
            var next: Alert? = alert
            while let alert = next {
                _ = runner.runAndWait(alert: alert)
                next = runner.turns.next()
            }
        }
        if !started {
            while turns.next() != nil {}  // none of them will run
            tellOnce(
                "alerts: the alert command was not run: no thread could be started (the system is out of resources).")
        }
    }

    /// Runs the command and waits for it (at most `timeoutS`); reports a change of its health (the first
    /// failure, the first success after failures) and returns the outcome.
    @discardableResult
    public func runAndWait(alert: Alert) -> Outcome {
        let (outcome, said) = spawnAndWait(alert: alert)
        // What the command said last on stderr, in its own words: "(sh: 1: notify-sendx: not found)".
        let saying = said.isEmpty ? "" : " (" + said + ")"
        let problem: String?
        switch outcome {
        case .exited(0): problem = nil
        case .exited(let status):
            problem = "alerts: the alert command exited with status \(status)\(saying); check alerts.command."
        case .killedBySignal(let signal):
            problem = "alerts: the alert command was killed by signal \(signal)\(saying); check alerts.command."
        case .timedOut:
            problem =
                "alerts: the alert command did not finish within \(Int(clamping: timeoutS, to: 0...Int.max)) s and was stopped; check alerts.command."
        case .couldNotStart(let why):
            problem = "alerts: the alert command could not be started (\(why)); check alerts.command."
        }
        if let sentence = health.observe(problem) { tell(sentence, failing: problem != nil) }
        return outcome
    }

    /// A problem that is not the command's own outcome (alerts dropped in a burst, no thread): on
    /// stderr said as it happens; on the status line (`problem`) kept as the command's problem until
    /// it next works, which clears it (`health`).
    private func tellOnce(_ sentence: String) {
        guard problem != nil else { return report(sentence) }
        if let told = health.observe(sentence) { tell(told, failing: true) }
    }

    /// Says `sentence` to `problem` when set (nil for a recovery), else to `report`.
    private func tell(_ sentence: String, failing: Bool) {
        if let problem { problem(failing ? sentence : nil) } else { report(sentence) }
    }

    /// The child's environment: ours without secrets, plus the alert's event and severity.
    func childEnvironment(for alert: Alert) -> [String] {
        var env = environment.filter { key, _ in
            let k = key.uppercased()
            return !(k.hasPrefix("FIXCAST_") && (k.contains("KEY") || k.contains("PASSWORD") || k.contains("TOKEN")))
        }
        env["FIXCAST_ALERT_EVENT"] = alert.event
        env["FIXCAST_ALERT_SEVERITY"] = alert.severity.rawValue
        return env.map { "\($0.key)=\($0.value)" }.filter { !$0.utf8.contains(0) }
    }

    /// An open temporary file that has no name any more (gone when its last descriptor closes); nil
    /// when none can be made.
    private static func unlinkedTemporaryFile() -> Int32? {
        var template = Array(
            (ProcessEnvironment.current["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp").utf8CString.dropLast())
        template += Array("/fixcast-alert-XXXXXX".utf8CString)
        // Close-on-exec: the commands that run at once (up to 4) must not inherit each other's files.
        let fd = template.withUnsafeMutableBufferPointer { csystem_temporary_file($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// The last line `fd` holds (at most its last 300 bytes), cleaned for a one-line sentence.
    static func lastLine(of fd: Int32) -> String {
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return "" }
        let length = Int(min(size, 300))
        var bytes = [UInt8](repeating: 0, count: length)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, size - off_t(length)) }
        guard n > 0 else { return "" }
        let text = String(decoding: bytes[..<n], as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return TerminalText.echo(line.trimmingPrefix(while: \.isWhitespace).description, maxCharacters: 160)
    }

    /// Runs the command and waits for it: the outcome, and the last line it wrote on stderr.
    private func spawnAndWait(alert: Alert) -> (Outcome, String) {
        // The alert's JSON goes through an unlinked temporary file, not a pipe: a child that never
        // reads stdin cannot block fixcast on a full pipe, and the file is gone when the child is.
        let json = alert.json.serialized() + "\n"
        guard let fd = Self.unlinkedTemporaryFile() else {
            return (.couldNotStart("no temporary file: errno \(errno)"), "")
        }
        defer { close(fd) }
        let bytes = Array(json.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Syscall.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return (.couldNotStart("the alert could not be written: errno \(errno)"), "") }
            written += n
        }
        lseek(fd, 0, SEEK_SET)
        // What the command writes is not fixcast's output: on stdout it would land on the live screen or
        // as a line that is no reading in `run --json`'s stream (ntfy answers a POST with JSON). Its
        // stdout is dropped; its stderr kept aside, for the sentence when it fails.
        guard let errors = Self.unlinkedTemporaryFile() else {
            return (.couldNotStart("no temporary file: errno \(errno)"), "")
        }
        defer { close(errors) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fd, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (so the timeout can kill everything it started), default signal
        // handling and an empty mask (fixcast ignores SIGPIPE and may block signals on this thread).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGUSR1, SIGCHLD] { sigaddset(&defaults, s) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ["/bin/sh", "-c", command]
        let envp = childEnvironment(for: alert)
        var pid = pid_t()
        let rc = withCStrings(argv) { cArgv in
            withCStrings(envp) { cEnv in
                posix_spawn(&pid, "/bin/sh", &actions, &attributes, cArgv, cEnv)
            }
        }
        guard rc == 0 else { return (.couldNotStart(String(cString: strerror(rc))), "") }

        var status: Int32 = 0
        switch csystem_wait_child(
            pid, Int32(Int(clamping: timeoutS * 1000, to: 0...Int(Int32.max), rounding: .up)), &status)
        {
        case 1: break
        case 0:
            kill(-pid, SIGKILL)
            _ = Syscall.waitpid(pid, &status, 0)
            return (.timedOut, Self.lastLine(of: errors))
        default:
            return (.couldNotStart("waitpid failed: errno \(errno)"), "")
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand: Swift does not import the macros.
        let low = status & 0x7F
        if low == 0 { return (.exited(status: (status >> 8) & 0xFF), Self.lastLine(of: errors)) }
        return (.killedBySignal(low), Self.lastLine(of: errors))
    }

    /// A NULL-terminated `char *[]` of `strings` for the duration of `body`.
    private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for p in pointers { free(p) } }
        return body(pointers)
    }
}
