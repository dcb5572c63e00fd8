import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

/// `fixcast now`: one reading, printed, stored, then exit.
struct NowCommand {
    let context: CommandContext
    let options: NowOptions

    func run() async -> Int32 {
        switch await PositionResolution.start(context: context, position: options.position, offline: options.offline) {
        case .failure(let exit):
            return exit.code
        case .success(let (services, resolved)):
            var notes = resolved.notes
            if let s = services.storeIssue { notes.append(s) }
            let (reading, stored) = await services.readings.storedReading(
                at: resolved.position, trigger: .once, force: options.force, offline: options.offline,
                knownPlace: resolved.place, notes: notes)
            if options.json {
                Console.out(reading.json(language: context.language).serialized() + "\n")
            } else {
                Console.outColoured(
                    ReadingText.render(
                        reading, now: services.clock.now(), options: context.displayOptions,
                        colour: Console.stdoutIsTerminal))
                for issue in reading.errors { Console.err(issue.message + "\n") }
            }
            if reading.weather == nil {
                if options.json {
                    let why =
                        reading.errors.first(where: { $0.component == .weather })?.message
                        ?? "weather: no weather could be had."
                    Console.err(why + "\n")
                }
                return ExitCode.failure
            }
            // Printed but not stored is a lost reading (CONTRACT.md exit 1); the error is printed with it.
            if !stored {
                if options.json {
                    let why =
                        reading.errors.first(where: { $0.component == .storage })?.message
                        ?? "storage: the reading could not be stored."
                    Console.err(why + "\n")
                }
                return ExitCode.failure
            }
            return ExitCode.success
        }
    }
}
