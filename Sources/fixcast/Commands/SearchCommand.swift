import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FixcastText
import FoundationEssentials

/// `fixcast search QUERY [--limit N]`: places matching a name, best first.
struct SearchCommand {
    let context: CommandContext
    let options: SearchOptions

    func run() async -> Int32 {
        let query = options.query
        let http = CurlHTTPClient()
        let places = PlaceService.make(settings: context.settings.places, http: http, cache: nil)
        let matches: [PlaceMatch]
        do {
            matches = try await places.search(query, limit: options.limit, offline: options.offline)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        if options.json {
            Console.out(JSONValue.array(matches.map(\.json)).serialized() + "\n")
            return ExitCode.success
        }
        if matches.isEmpty {
            Console.out("No place matches \"\(TerminalText.echo(query))\".\n")
            return ExitCode.success
        }
        Console.out(SearchTable.render(matches))
        return ExitCode.success
    }
}

/// The human listing of search results: one place a line, aligned.
enum SearchTable {
    static func render(_ matches: [PlaceMatch]) -> String {
        let rows: [[String]] = matches.map { m in
            [
                TerminalText.name(m.name),
                TerminalText.name(m.region ?? ""),
                TerminalText.name(m.country ?? m.countryCode ?? ""),
                formatCoordinate(m.coordinate),
                m.population.map(groupThousands) ?? "",
            ]
        }
        let header = ["NAME", "REGION", "COUNTRY", "LAT,LON", "POPULATION"]
        return TextColumns.table(header: header, rows: rows, rightAligned: [4]).joined(separator: "\n") + "\n"
    }

    static func formatCoordinate(_ c: Coordinate) -> String {
        "\(NumberText.fixed(c.lat, decimals: 4)),\(NumberText.fixed(c.lon, decimals: 4))"
    }

    static func groupThousands(_ n: Int) -> String {
        let digits = Array(String(abs(n)))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return (n < 0 ? "-" : "") + out
    }
}
