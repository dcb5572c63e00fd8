import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

/// `fixcast export --format gpx|csv|geojson [--since T] [--until T] [-o FILE]`.
struct ExportCommand {
    let context: CommandContext
    let options: ExportOptions

    func run() async -> Int32 {
        let format = options.format
        if let problem = OutputPath.overwritesStore(options.output, storePath: context.settings.storage.path) {
            Console.err(problem + "\n")
            return ExitCode.usage
        }
        let store: SQLiteStore
        // Read-only, and never a new store: a mistyped --db says there is no store there (exit 1).
        do { store = try SQLiteStore.forReading(path: context.settings.storage.path) } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        do throws(ExportError) {
            let destination = OutputPath.destination(options.output)
            let summary = try await Exporter.export(
                format: format, store: store, since: options.since, until: options.until,
                gapMinutes: context.settings.report.tripGapMin, to: destination, language: context.language)
            if let sentence = summary.leftOutSentence(path: context.settings.storage.path) {
                Console.err(sentence + "\n")
                return ExitCode.failure
            }
        } catch .readerGone {
            return ExitCode.success
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
