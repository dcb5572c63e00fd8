import FixcastApp
import FixcastAdapters
import FixcastCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `fixcast report [--trip N|last] [--since T] [--until T] [-o FILE.svg|.html]`.
struct ReportCommand {
    let context: CommandContext
    let options: ReportOptions

    func run() async -> Int32 {
        let path = context.settings.storage.path
        let args = options
        do throws(ReportError) {
            let store: SQLiteStore
            do { store = try SQLiteStore.forReading(path: path) } catch .missing {
                throw ReportError.noTrips(path: path)
            } catch { throw ReportError.storage(error) }
            let writer = TripReportWriter(
                gapMinutes: context.settings.report.tripGapMin, units: context.units, language: context.language)
            let input = try await writer.input(store: store, choice: args.trip, since: args.since, until: args.until)
            let output = args.output ?? TripReportWriter.defaultFileName(for: input)
            let format = output == "-" ? .svg : (ReportFormat(path: output) ?? .svg)
            let text = format == .html ? TripReportDocument.html(input) : TripReportDocument.svg(input)
            try TripReportWriter.write(text, to: output)
            if output != "-" { Console.err("fixcast report: wrote \(output)\n") }
            return ExitCode.success
        } catch {
            Console.err(error.message + "\n")
            return error.exitCode
        }
    }
}
