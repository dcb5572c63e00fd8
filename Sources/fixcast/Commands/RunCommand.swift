import FixcastApp
import FixcastAdapters
import FoundationEssentials
import FixcastCore

/// `fixcast run`: the agent, until SIGINT/SIGTERM (or `q` on the live screen).
struct RunCommand {
    let context: CommandContext
    let options: RunOptions

    func run() async -> Int32 {
        let services: Services
        do { services = try Services(settings: context.settings, environment: context.environment) } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        var fixedPosition: Position?
        var fixedPlace: Place?
        if options.position.isFixed {
            switch await PositionResolution.resolve(options.position, offline: options.offline, context: context, services: services) {
            case .failure(.noPosition(let message, _)):
                Console.err(message + "\n")
                return ExitCode.failure
            case .success(let resolved):
                fixedPosition = resolved.position
                fixedPlace = resolved.place
            }
        }
        let live = !options.json && Console.stdoutIsTerminal && Console.stdinIsTerminal
        let options = Agent.Options(
            json: !live, offline: options.offline, demoLabel: context.environment["FIXCAST_DEMO_LABEL"],
            fixedPosition: fixedPosition, fixedPlace: fixedPlace)
        return await Agent(settings: context.settings, options: options, services: services).run()
    }
}
