import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

/// `fixcast now`: one reading, printed, stored, then exit — a one-reading run of the agent
/// (`Agent.Options.oneReading`), so the fix wait, gpsd's errors, the last-known note and the stored
/// reading are `run`'s own. `--at` and `--place` resolve first and bypass gpsd.
struct NowCommand {
    let context: CommandContext
    let options: NowOptions

    func run() async -> Int32 {
        let services: Services
        do { services = try Services(settings: context.settings, environment: context.environment) } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        var fixedPosition: Position?
        var fixedPlace: Place?
        if options.position.isFixed {
            switch await PositionResolution.resolve(
                options.position, offline: options.offline, context: context, services: services)
            {
            case .failure(.noPosition(let message, _)):
                Console.err(message + "\n")
                return ExitCode.failure
            case .success(let resolved):
                fixedPosition = resolved.position
                fixedPlace = resolved.place
            }
        }
        var agent = Agent.Options(
            json: options.json, offline: options.offline, demoLabel: nil, fixedPosition: fixedPosition,
            fixedPlace: fixedPlace)
        agent.oneReading = true
        agent.force = options.force
        return await Agent(settings: context.settings, options: agent, services: services).run()
    }
}
