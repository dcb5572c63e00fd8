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
            matches = try await places.search(query, limit: options.limit, offline: options.offline, romanizing: true)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        if options.json {
            Console.out(JSONValue.array(matches.map(\.json)).serialized() + "\n")
            return ExitCode.success
        }
        // From the table, which spells names in Latin letters, say how a query in another script was read.
        let tableNote = SearchTableNote.note(
            query: query, fromTable: places.searchesTable(offline: options.offline), found: !matches.isEmpty)
        if matches.isEmpty {
            Console.out(
                SearchTable.noMatch(query, language: context.language) + "\n" + (tableNote.map { $0 + "\n" } ?? ""))
            return ExitCode.success
        }
        Console.out(SearchTable.render(matches, language: context.language) + (tableNote.map { $0 + "\n" } ?? ""))
        return ExitCode.success
    }
}

/// The human listing of search results: one place a line, aligned.
enum SearchTable {
    /// "No place matches "q".", in the display's language.
    static func noMatch(_ query: String, language: Language = .en) -> String {
        let q = TerminalText.echo(query)
        return language.pick(
            "No place matches \"\(q)\".", "Ни одно место не подходит к «\(q)».", "没有与“\(q)”相符的地点。")
    }

    static func render(_ matches: [PlaceMatch], language: Language = .en) -> String {
        let rows: [[String]] = matches.map { m in
            [
                TextColumns.cellName(m.name),
                TextColumns.cellName(m.region ?? ""),
                TextColumns.cellName(m.country ?? m.countryCode ?? ""),
                formatCoordinate(m.coordinate),
                m.population.map(groupThousands) ?? "",
            ]
        }
        let header = language.pick(
            ["NAME", "REGION", "COUNTRY", "LAT,LON", "POPULATION"],
            ["НАЗВАНИЕ", "РЕГИОН", "СТРАНА", "ШИРОТА,ДОЛГОТА", "НАСЕЛЕНИЕ"],
            ["名称", "地区", "国家", "纬度,经度", "人口"])
        return TextColumns.table(header: header, rows: rows, rightAligned: [4]).joined(separator: "\n") + "\n"
    }

    static func formatCoordinate(_ c: Coordinate) -> String {
        "\(NumberText.fixed(c.lat, decimals: 4)),\(NumberText.fixed(c.lon, decimals: 4))"
    }

    static func groupThousands(_ n: Int) -> String {
        // The magnitude, not abs: abs(Int.min) traps.
        let digits = Array(String(n.magnitude))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return (n < 0 ? "-" : "") + out
    }
}

/// What `fixcast search` adds under a search of the bundled table in a script other than Latin: the
/// table holds Latin names only, so a Cyrillic query was read in Latin letters (and a place GeoNames
/// lists by an English name is not among the matches), and a query in another script cannot match.
enum SearchTableNote {
    static func note(query: String, fromTable: Bool, found: Bool) -> String? {
        guard fromTable else { return nil }
        let spellings = CyrillicRomanization.romanizations(query)
        if !spellings.isEmpty {
            let spelled = spellings.map { TerminalText.echo(SearchText.fold($0)) }.joined(separator: "\", \"")
            return found
                ? "(The bundled table spells names in Latin letters: this is what it has for \"\(spelled)\"; "
                    + "a place it lists by an English name, such as Moscow, is found by that name.)"
                : "(The bundled table spells names in Latin letters and has none for \"\(spelled)\": "
                    + "try the English or local Latin name, or search online.)"
        }
        guard !found, query.unicodeScalars.contains(where: { $0.value > 0x24F && $0.properties.isAlphabetic })
        else { return nil }
        return "(The bundled table spells names in Latin letters: try the name in Latin letters, or search online.)"
    }
}
