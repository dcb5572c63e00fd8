import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FoundationEssentials
import Synchronization

/// `fixcast run`: the agent, until SIGINT/SIGTERM (or `q` on the live screen).
struct RunCommand {
    let context: CommandContext
    let options: RunOptions

    func run() async -> Int32 {
        var services: Services
        do { services = try Services(settings: context.settings, environment: context.environment) } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        // A route that cannot be followed is a configuration error, said before anything starts.
        if let e = services.aheadRouteError {
            Console.err(e.message + "\n")
            return ExitCode.usage
        }
        services.readings.ahead = services.ahead
        // A store that cannot be opened at all stops the agent at start, as `now` stops (issue 23):
        // a run that records nothing must not look like one that does.
        guard services.store != nil else {
            Console.err((services.storeIssue?.message ?? "storage: the store could not be opened.") + "\n")
            return ExitCode.failure
        }
        // One agent per store; held until this function returns (the process's end drops it too).
        let runLock: StoreRunLock?
        do { runLock = try StoreRunLock.acquire(storePath: context.settings.storage.path) } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        defer { withExtendedLifetime(runLock) {} }
        // A store deleted or replaced while recording is made again at the path (`followPath`): the
        // lock goes with it, so a second run on the new store is refused as on the old one.
        // On the live screen the parts beside the agent tell their problems on its status line: a
        // sentence on stderr would be written over the screen.
        // (On a terminal the agent draws the live screen, or says why it cannot and prints JSON lines.)
        let terminal = TerminalKind(environment: context.environment)
        let onTerminal = !options.json && Console.stdoutIsTerminal && Console.stdinIsTerminal
        let live = onTerminal && terminal.movesCursor
        let side = SideProblems()
        if live, !context.settings.alerts.command.isEmpty {
            services.alertCommand = AlertCommandRunner(
                command: context.settings.alerts.command, environment: context.environment,
                problem: { sentence in side.set(.alerts, sentence.map { ReadingIssue(component: .alerts, message: $0) })
                })
        }
        if let runLock, let store = services.store {
            store.onReplaced { _ in
                do throws(StorageError) { try runLock.retake() } catch {
                    if live { side.set(.storage, ReadingIssue(error)) } else { Console.err(error.message + "\n") }
                }
            }
        }
        let fixed: (position: Position?, place: Place?)
        switch await PositionResolution.fixed(
            options.position, offline: options.offline, services: services)
        {
        case .failure(let exit): return exit.code
        case .success(let resolved): fixed = resolved
        }
        var options = Agent.Options(
            json: !onTerminal, offline: options.offline, demoLabel: context.environment["FIXCAST_DEMO_LABEL"],
            fixedPosition: fixed.position, fixedPlace: fixed.place)
        options.terminal = terminal
        // MQTT (issue 13): started before the agent so the first reading finds it; the agent's
        // ReadingMaker wakes it after each stored reading. Stopped (offline published) after.
        var publisher: ReadingPublisher?
        if context.settings.mqtt.enabled, let store = services.store {
            // On the live screen the status line shows the link; elsewhere stderr hears once when it
            // fails and once when it works again (`ComponentHealth`), never once per reconnect.
            var onProblem: (@Sendable (MQTTError?) -> Void)?
            if !live {
                let health = Mutex(ComponentHealth())
                onProblem = { @Sendable problem in
                    let notice = health.withLock {
                        $0.observe(
                            .mqtt, problem: problem.map { ReadingIssue($0) },
                            asksForAPerson: problem?.cause.asksForAPerson ?? false)
                    }
                    if let notice { Console.err(notice.message + "\n") }
                }
            }
            let started = await ReadingPublisher.start(
                settings: context.settings.mqtt, store: store, deviceID: services.deviceID,
                ahead: services.ahead != nil, language: context.language, onProblem: onProblem)
            services.readings.onStored = { started.readingStored() }
            services.onAlertsChecked = { report, time in started.alertsChecked(report, at: time) }
            publisher = started
            options.sideProblems = { side.current + (started.status.error.map { [ReadingIssue($0)] } ?? []) }
        } else {
            options.sideProblems = { side.current }
        }
        let code = await Agent(settings: context.settings, options: options, services: services).run()
        await publisher?.stop()
        return code
    }
}
