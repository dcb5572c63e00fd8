import FoundationEssentials
import FixcastCore

/// `fixcast search QUERY [--limit N]`: places matching a name, best first.
struct SearchCommand {
    let context: CommandContext

    func run() async -> Int32 {
        let query = context.arguments.query ?? ""
        let http = CurlHTTPClient()
        let places = PlaceService.make(settings: context.settings, http: http, store: nil, clock: SystemClock())
        let matches: [PlaceMatch]
        do {
            matches = try await places.search(query, limit: context.arguments.limit ?? 10, offline: context.arguments.offline)
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        if context.arguments.json {
            Console.out(JSONValue.array(matches.map(\.json)).serialized() + "\n")
            return ExitCode.success
        }
        if matches.isEmpty {
            Console.out("No place matches \"\(query)\".\n")
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
                m.name,
                m.region ?? "",
                m.country ?? m.countryCode ?? "",
                formatCoordinate(m.coordinate),
                m.population.map(groupThousands) ?? "",
            ]
        }
        let header = ["NAME", "REGION", "COUNTRY", "LAT,LON", "POPULATION"]
        return TextTable.render(header: header, rows: rows, rightAligned: [4])
    }

    static func formatCoordinate(_ c: Coordinate) -> String {
        "\(fixed(c.lat, 4)),\(fixed(c.lon, 4))"
    }

    static func fixed(_ v: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (v * scale).rounded() / scale
        var s = "\(r)"
        if let dot = s.firstIndex(of: ".") {
            let frac = s[s.index(after: dot)...].count
            if frac < digits { s += String(repeating: "0", count: digits - frac) }
        }
        return s
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

/// Plain aligned columns for terminal listings (display width counts wide CJK characters as two).
enum TextTable {
    static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let all = [header] + rows
        var widths = Array(repeating: 0, count: header.count)
        for row in all { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], displayWidth(cell)) } }
        var out = ""
        for row in all {
            var line = ""
            for (i, cell) in row.enumerated() where i < widths.count {
                let pad = String(repeating: " ", count: widths[i] - displayWidth(cell))
                line += rightAligned.contains(i) ? pad + cell : cell + pad
                if i < row.count - 1 { line += "  " }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    static func displayWidth(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { w, u in
            let v = u.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v)
            let zero = (0x0300...0x036F).contains(v)
            return w + (zero ? 0 : wide ? 2 : 1)
        }
    }
}
