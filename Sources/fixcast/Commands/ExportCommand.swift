import FixcastApp
import FixcastAdapters
import FoundationEssentials
import FixcastCore

/// `fixcast export --format gpx|csv|geojson [--since T] [--until T] [-o FILE]`.
struct ExportCommand {
    let context: CommandContext

    func run() async -> Int32 {
        guard let formatName = context.arguments.format, let format = ExportFormat(rawValue: formatName) else {
            Console.err("fixcast export: --format gpx|csv|geojson is required.\n")
            return ExitCode.usage
        }
        let store: SQLiteStore
        do { store = try SQLiteStore(path: context.settings.storage.path) } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        do {
            let destination = OutputPath.destination(context.arguments.output)
            _ = try await Exporter.export(
                format: format, store: store, since: context.arguments.since, until: context.arguments.until,
                to: destination, language: context.language)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        return ExitCode.success
    }
}
