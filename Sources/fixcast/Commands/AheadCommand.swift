import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// `fixcast ahead [--route FILE] [--hours N] [--json]`: the forecast where the traveller will be
/// (CONTRACT.md "Weather ahead"). `--json` prints the reading's `ahead` object. The forecast is
/// stored, as `run` stores the ones its readings carry ("Every ahead forecast is stored"; `line`'s
/// `%r` then counts from it), except with `--offline`, which changes nothing. Exit 0 when a forecast
/// was made (a stale one kept after a failure says so on stderr), 1 when none could be or it could
/// not be stored (it is still printed), 2 for a route that cannot be followed or ahead turned off.
struct AheadCommand {
    let context: CommandContext
    let options: AheadOptions

    func run() async -> Int32 {
        let settings = context.settings.ahead
        guard settings.enabled, settings.provider != .none else {
            Console.err(
                "ahead: weather ahead is turned off (ahead.enabled = false or ahead.provider = \"none\"); set ahead.enabled = true and ahead.provider = \"open-meteo\".\n"
            )
            return ExitCode.usage
        }
        if let e = Self.routeProblem(settings) {
            Console.err(e.message + "\n")
            return ExitCode.usage
        }
        if options.position.isFixed, settings.route.isEmpty {
            Console.err(
                "ahead: --at and --place give a position but no course; pass a route (--route FILE.gpx) or follow a moving fix from gpsd.\n"
            )
            return ExitCode.failure
        }
        switch await PositionResolution.start(context: context, position: options.position, offline: options.offline) {
        case .failure(let exit):
            return exit.code
        case .success(let (services, resolved)):
            guard let ahead = services.ahead else {
                Console.err((services.aheadRouteError ?? .noBasis).message + "\n")
                return ExitCode.usage
            }
            let outcome = await ahead.forecast(from: resolved.position, offline: options.offline, force: options.force)
            // A stored forecast that answered is in the store already (`ahead_checks` counts it once).
            let storeProblem =
                outcome.reused ? nil : await Self.store(outcome.forecast, in: services, offline: options.offline)
            if options.json {
                Console.out((outcome.forecast?.json(language: context.language) ?? .null).serialized() + "\n")
            } else if let f = outcome.forecast {
                let display = context.displayOptions
                // One answered from the store says when it was made: its minutes count from then.
                let asOf = outcome.reused ? AheadDisplay.asOf(f, options: display) : ""
                var lines = [asOf + AheadDisplay.headline(f, options: display)]
                lines += AheadDisplay.alertLines(f, options: display).map { "Alert ahead: " + $0 }
                lines.append(AheadDisplay.basisLine(f, options: display))
                if !f.samples.isEmpty { lines += [""] + AheadDisplay.table(f, options: display) }
                Console.out(lines.joined(separator: "\n") + "\n")
            }
            if let issue = outcome.issue { Console.err(issue.message + "\n") }
            if let s = services.storeIssue ?? storeProblem {
                Console.err(s.message + "\n")
                return ExitCode.failure
            }
            return outcome.forecast == nil ? ExitCode.failure : ExitCode.success
        }
    }

    /// Stores `forecast` (nothing with `--offline`, without one, or without a store: `storeIssue`
    /// already says why); the storage problem when it could not be written.
    static func store(_ forecast: AheadForecast?, in services: Services, offline: Bool) async -> ReadingIssue? {
        guard !offline, let forecast, let store = services.store else { return nil }
        do {
            try await store.storeAheadForecast(forecast)
            return nil
        } catch {
            return ReadingIssue(error)
        }
    }

    /// The route file checked before anything else starts (a bad file is the person's to fix).
    static func routeProblem(_ settings: Settings.Ahead) -> AheadError? {
        do {
            _ = try AheadService.loadRoute(settings.route, setAt: settings.routeOrigin)
            return nil
        } catch {
            return error
        }
    }
}
