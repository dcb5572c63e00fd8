import FixcastAdapters
import FixcastApp
import FixcastCore
import FixcastRendering
import FixcastText
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `fixcast trips [--json]`: the trips in the store, oldest first.
struct TripsCommand {
    let context: CommandContext
    let options: TripsOptions

    func run() async -> Int32 {
        let path = context.settings.storage.path
        var trips: [TripSummary] = []
        var noStore = false
        // Read-only: a store on read-only media is read; a mistyped path is not made into a store.
        do {
            let store = try SQLiteStore.forReading(path: path)
            trips = try await store.tripSummaries(
                gapMinutes: context.settings.report.tripGapMin, rainMmH: context.settings.ahead.rainMmH)
        } catch .missing {
            noStore = true
        } catch {
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
        if options.json {
            Console.out(JSONValue.array(trips.map { $0.json() }).serialized() + "\n")
            return ExitCode.success
        }
        let words = TripsWords(context.language)
        guard !trips.isEmpty else {
            let shown = TerminalText.path(path)
            Console.out((noStore ? words.noStore(shown) : words.empty(shown)) + "\n")
            return ExitCode.success
        }
        Console.out(Self.table(trips, units: context.units, language: context.language).joined(separator: "\n") + "\n")
        return ExitCode.success
    }

    /// The text table: times UTC, distance in the display units, places made safe for a terminal.
    static func table(_ trips: [TripSummary], units: UnitSystem, language: Language = .en) -> [String] {
        let display = DisplayUnits(units)
        func time(_ d: Date) -> String {
            let iso = UTCTime.format(d)  // 2026-01-30T12:00:22Z
            return String(iso.prefix(16)).replacing("T", with: " ")
        }
        let rows: [[String]] = trips.map { t in
            // As the report's header says it: "17 °C" for a trip whose ends round alike, not "17 … 17 °C".
            let range =
                TemperatureRangeLabels(temperaturesC: [t.minC, t.maxC].compactMap { $0 }, display: display).text
                ?? DisplayUnits.unknown
            return [
                String(t.number), time(t.start), time(t.end), display.distance(km: t.distanceKm),
                DurationText.text(seconds: t.durationS, language: language),
                TextColumns.cellName(t.startPlace ?? DisplayUnits.unknown) + " → "
                    + TextColumns.cellName(t.endPlace ?? DisplayUnits.unknown),
                String(t.readings), range, aheadChecks(t.aheadChecks, units: units, language: language),
            ]
        }
        return TextColumns.table(header: TripsWords(language).header, rows: rows, rightAligned: [0, 3, 4, 6])
    }

    /// "12 pairs, ETA ±8 %, temp ±1.2 °C, rain 3 hit 1 missed 0 false": the trip's `ahead_checks` in a cell
    /// (CONTRACT.md "Weather ahead"); "—" when no forecast was checked.
    static func aheadChecks(_ c: AheadCheck.Summary, units: UnitSystem, language: Language = .en) -> String {
        guard c.pairs > 0 else { return DisplayUnits.unknown }
        let words = TripsWords(language)
        var parts = [words.pairs(c.pairs)]
        if let eta = c.etaErrorPctMedian { parts.append(words.eta + " ±" + NumberText.fixed(eta, decimals: 0) + " %") }
        if let mae = c.temperatureMaeC {
            // A difference of temperatures: °F are 9/5 of °C, with no offset.
            let shown = units == .metric ? mae : mae * 9 / 5
            parts.append(
                words.temperature + " ±" + NumberText.fixed(shown, decimals: 1) + " "
                    + DisplayUnits(units).temperatureSymbol)
        }
        if c.rainHits + c.rainMisses + c.rainFalseAlarms > 0 {
            parts.append(words.rain(hits: c.rainHits, misses: c.rainMisses, falseAlarms: c.rainFalseAlarms))
        }
        return parts.joined(separator: ", ")
    }
}
