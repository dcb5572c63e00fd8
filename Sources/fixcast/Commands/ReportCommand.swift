import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
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
        if let problem = OutputPath.overwritesStore(args.output, storePath: path) {
            Console.err(problem + "\n")
            return ExitCode.usage
        }
        do throws(ReportError) {
            let store: SQLiteStore
            // A path with no store says so, as export does (not "no trips in the store"): it may be mistyped.
            do { store = try SQLiteStore.forReading(path: path) } catch { throw ReportError.storage(error) }
            let writer = TripReportWriter(
                gapMinutes: context.settings.report.tripGapMin, units: context.units, language: context.language)
            var input = try await writer.input(store: store, choice: args.trip, since: args.since, until: args.until)
            switch BasemapFile.load(.current()) {
            case .success(let basemap): input.basemap = basemap
            case .failure(let why): Console.err(why.message + "\n")
            }
            let output = args.output ?? TripReportWriter.defaultFileName(for: input)
            let format = output == "-" ? .svg : (ReportFormat(path: output) ?? .svg)
            let document = TripReportDocument.document(input, html: format == .html)
            if document.basemapDamaged {
                Console.err(
                    BasemapUnavailable(
                        detail: "\(BasemapFile.fileName) is damaged: some records point outside it and were left out"
                    )
                    .message + "\n")
            }
            try TripReportWriter.write(document.text, to: output)
            if output != "-" { Console.err("fixcast report: wrote \(output)\n") }
            return ExitCode.success
        } catch {
            Console.err(error.message + "\n")
            return error.exitCode
        }
    }
}
