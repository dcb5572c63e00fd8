import FixcastAdapters
import FixcastCore
import FixcastRendering
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a trip (or a time range) from the store and writes its report (CONTRACT.md "Trips and
/// reports"): the default is the last trip, to `trip-<date>.svg` in the current folder.
public struct TripReportWriter: Sendable {
    public var gapMinutes: Double
    public var units: UnitSystem
    public var language: Language

    public init(gapMinutes: Double, units: UnitSystem, language: Language) {
        self.gapMinutes = gapMinutes
        self.units = units
        self.language = language
    }

    /// The report's input for `choice` (nil: the last trip, unless a range is given) limited to
    /// [since, until].
    public func input(store: any TripStore, choice: TripChoice?, since: Date?, until: Date?) async throws(ReportError)
        -> TripReportInput
    {
        do {
            var from = since ?? Date(timeIntervalSince1970: -1e12)
            var to = until ?? Date(timeIntervalSince1970: 1e12)
            var number: Int?
            if choice != nil || (since == nil && until == nil) {
                let trips = try await store.trips(gapMinutes: gapMinutes)
                guard !trips.isEmpty else { throw ReportError.noTrips(path: store.path) }
                let index: Int
                switch choice ?? .last {
                case .last: index = TripChoice.lastIndex(trips) ?? trips.count - 1
                case .number(let n):
                    guard n <= trips.count else { throw ReportError.noSuchTrip(number: n, count: trips.count) }
                    index = n - 1
                }
                number = index + 1
                from = max(from, trips[index].span.start)
                to = min(to, trips[index].span.end)
            }
            let (points, stored) = try await store.tripContents(from: from, to: to, gapMinutes: gapMinutes)
            guard !points.isEmpty else {
                if try await store.trackPointCount() == 0 { throw ReportError.noTrips(path: store.path) }
                throw ReportError.nothingInRange
            }
            let readings = stored.map(\.reading)
            let pairs = AheadCheck.pairs(
                forecasts: readings.compactMap(\.ahead), met: readings.compactMap(AheadCheck.Met.init(reading:)))
            return TripReportInput(
                points: points, readings: stored.map { TripReading($0.reading, at: $0.tripTime) }, units: units,
                language: language,
                tripNumber: number, aheadHourBefore: AheadCheck.hourBefore(pairs), gapMinutes: gapMinutes)
        } catch let e as ReportError {
            throw e
        } catch let e as StorageError {
            throw ReportError.storage(e)
        } catch {
            throw ReportError.storage(.failed(path: store.path, detail: "\(error)"))
        }
    }

    /// `trip-YYYY-MM-DDTHHMMZ.svg`, from the first point's time (UTC, to the minute): two trips of one
    /// day get two files (named by the date alone, the second report replaced the first without a word).
    public static func defaultFileName(for input: TripReportInput) -> String {
        let stamp = UTCTime.format(input.points.first?.time ?? Date(timeIntervalSince1970: 0))
        // "2005-09-25T08:12:30Z" → "2005-09-25T0812Z": no ":" in a file name (some file systems refuse it).
        let minute = String(stamp.prefix(16).filter { $0 != ":" })
        return "trip-" + minute + "Z.svg"
    }

    /// Writes the document to `path` (`-`: standard output) via a temporary file and a rename, so
    /// a failed write never leaves a half report that looks finished.
    public static func write(_ text: String, to path: String) throws(ReportError) {
        let destination: ExportDestination = path == "-" ? .standardOutput : .file(path: path)
        do {
            try withExportSink(destination) { (sink: ExportSink) throws(ExportError) in try sink.write(text) }
        } catch {
            switch error {
            case .cannotCreate(_, let d), .writeFailed(_, let d): throw ReportError.cannotWrite(path: path, detail: d)
            case .readerGone: return  // `report -o - | head`: the reader's choice, no failure
            case .storage(let e): throw ReportError.storage(e)
            }
        }
    }
}
