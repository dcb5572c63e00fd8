import FoundationEssentials
import FixcastCore

/// `fixcast run`: the agent, until SIGINT/SIGTERM (or `q` on the live screen).
struct RunCommand {
    let context: CommandContext

    func run() async -> Int32 {
        if context.arguments.at != nil || context.arguments.place != nil {
            Console.err("fixcast run: --at and --place are for now and forecast; run follows gpsd (use --gpsd HOST[:PORT]).\n")
            return ExitCode.usage
        }
        let services: Services
        do { services = try Services(context: context) } catch {
            Console.err(error.message + "\n")
            return ExitCode.usage
        }
        let live = !context.arguments.json && Console.stdoutIsTerminal && Console.stdinIsTerminal
        let options = Agent.Options(
            json: !live, offline: context.arguments.offline, demoLabel: context.environment["FIXCAST_DEMO_LABEL"])
        return await Agent(settings: context.settings, options: options, services: services).run()
    }
}
