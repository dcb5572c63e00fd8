import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// `fixcast alerts [--at|--place] [--json]`: the official alerts active here, with description and
/// instruction, or "not covered". `--json` prints the reading's `alerts` object (CONTRACT.md).
/// Exit 0 when it could say something true (alerts, none, not covered, or stale ones with the
/// failure on stderr); 1 when nothing could be had.
struct AlertsCommand {
    let context: CommandContext
    let options: AlertsOptions

    func run() async -> Int32 {
        guard context.settings.alerts.enabled else {
            Console.err(
                "alerts: alerts are turned off (alerts.enabled = false); set it to true or FIXCAST_ALERTS_ENABLED=true.\n"
            )
            return ExitCode.failure
        }
        switch await PositionResolution.start(context: context, position: options.position, offline: options.offline) {
        case .failure(let exit):
            return exit.code
        case .success(let (services, resolved)):
            let outcome = await services.alerts.alerts(at: resolved.position.coordinate, offline: options.offline)
            if options.json {
                Console.out((outcome.report?.json ?? .null).serialized() + "\n")
            } else if let report = outcome.report {
                Console.outColoured(
                    AlertDisplay.detail(
                        report, now: services.clock.now(), options: context.displayOptions,
                        colour: TerminalKind(environment: context.environment).colourOnStdout))
            }
            if let e = outcome.error { Console.err(e.message + "\n") }
            // A store that cannot be used is said and is a failure, as for every command (issue 23).
            if let s = services.storeIssue {
                Console.err(s.message + "\n")
                return ExitCode.failure
            }
            return outcome.report == nil ? ExitCode.failure : ExitCode.success
        }
    }
}
