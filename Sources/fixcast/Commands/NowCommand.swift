import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
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
        let fixed: (position: Position?, place: Place?)
        switch await PositionResolution.fixed(
            options.position, offline: options.offline, services: services)
        {
        case .failure(let exit): return exit.code
        case .success(let resolved): fixed = resolved
        }
        var agent = Agent.Options(
            json: options.json, offline: options.offline, demoLabel: nil, fixedPosition: fixed.position,
            fixedPlace: fixed.place)
        agent.oneReading = true
        agent.force = options.force
        agent.terminal = TerminalKind(environment: context.environment)
        return await Agent(settings: context.settings, options: agent, services: services).run()
    }
}
