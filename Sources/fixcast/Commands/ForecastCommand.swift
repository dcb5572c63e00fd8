import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FixcastText
import FoundationEssentials

/// `fixcast forecast [--days N]`: the daily forecast for here, as a table or the `daily` JSON array.
struct ForecastCommand {
    let context: CommandContext
    let options: ForecastOptions

    func run() async -> Int32 {
        switch await PositionResolution.start(context: context, position: options.position, offline: options.offline) {
        case .failure(let exit):
            return exit.code
        case .success(let (services, resolved)):
            let outcome = await services.weather.weather(
                at: resolved.position.coordinate, force: options.force, offline: options.offline)
            guard let report = outcome.report else {
                Console.err((outcome.error?.message ?? "weather: no forecast could be had.") + "\n")
                return ExitCode.failure
            }
            let days = Array(report.daily.prefix(options.days))
            if options.json {
                Console.out(JSONValue.array(days.map { $0.json(language: context.language) }).serialized() + "\n")
            } else {
                var place = resolved.place
                if place == nil {
                    place = await services.places.place(at: resolved.position.coordinate, offline: options.offline)
                        .place
                }
                let parts = ReadingParts(options: context.displayOptions, now: services.clock.now())
                let title = parts.placeLine(place) + " · " + parts.freshnessLine(report)
                Console.out(ForecastTable.render(days, title: title, options: context.displayOptions))
            }
            if let e = outcome.error { Console.err(e.message + "\n") }
            // Fewer days than asked (the provider's forecast, as fixcast asks for it, is shorter; a
            // stored one has fewer left): said, not silently cut. Still a forecast shown, exit 0.
            if days.count < options.days {
                Console.err(
                    "forecast: \(report.provider.rawValue)'s forecast has \(CountedNoun.phrase(days.count, "day")) from today; "
                        + "showing \(days.count == 0 ? "none" : "those") of the \(options.days) asked.\n")
            }
            // The daily array has no errors list: values dropped as unbelievable are said on stderr.
            for problem in report.valueProblems { Console.err(problem.message + "\n") }
            // A store that is there but cannot be used (unreadable, damaged, foreign) is said, and is a
            // failure, as for every command (issue 23): the forecast was shown, but nothing was kept.
            if let s = services.storeIssue {
                Console.err(s.message + "\n")
                return ExitCode.failure
            }
            return ExitCode.success
        }
    }
}
