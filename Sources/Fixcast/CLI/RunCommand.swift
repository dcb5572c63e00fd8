import FoundationEssentials
import FixcastCore

/// `fixcast run`: the agent, until SIGINT/SIGTERM (or `q` on the live screen).
struct RunCommand {
    let context: CommandContext

    func run() async -> Int32 {
        var services: Services
        do { services = try Services(context: context) } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        var fixedPosition: Position?
        var fixedPlace: Place?
        if context.arguments.at != nil || context.arguments.place != nil {
            switch await PositionResolution.resolve(context: context, services: services) {
            case .failure(.noPosition(let message, _)):
                Console.err(message + "\n")
                return ExitCode.failure
            case .success(let resolved):
                fixedPosition = resolved.position
                fixedPlace = resolved.place
            }
        }
        let live = !context.arguments.json && Console.stdoutIsTerminal && Console.stdinIsTerminal
        let options = Agent.Options(
            json: !live, offline: context.arguments.offline, demoLabel: context.environment["FIXCAST_DEMO_LABEL"],
            fixedPosition: fixedPosition, fixedPlace: fixedPlace)
        // MQTT (issue 13): started before the agent so the first reading finds it; the agent's
        // ReadingMaker wakes it after each stored reading. Stopped (offline published) after.
        var publisher: ReadingPublisher?
        if context.settings.mqtt.enabled, let store = services.store {
            // On the live screen the status line shows the link; elsewhere each new problem goes to stderr.
            var onProblem: (@Sendable (MQTTError) -> Void)?
            if !live { onProblem = { @Sendable problem in Console.err(problem.message + "\n") } }
            let started = await ReadingPublisher.start(
                settings: context.settings.mqtt, store: store, deviceID: services.deviceID, onProblem: onProblem)
            services.readings.onStored = { started.readingStored() }
            publisher = started
        }
        let code = await Agent(settings: context.settings, options: options, services: services).run()
        await publisher?.stop()
        return code
    }
}
