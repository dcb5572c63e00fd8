import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// Writes the stored readings and track in one of the export formats, streaming: rows are read
/// one at a time from SQLite and written through a 64 KiB buffer, so a million track points
/// cost no more memory than ten.
public enum Exporter {
    /// Exports the readings and track points whose time is in [since, until] (either may be nil)
    /// to `destination`, by that time. Runs on the store's actor (it reads the database as it writes).
    ///
    /// Times are as `trips` and `report` take them, with `gapMinutes` their gap (`report.trip_gap_min`):
    /// the receiver's fix times, and for a fix without one (the first before the receiver knew the date)
    /// the time the fixes received around it give it (`ExportStore.exportDating`, one pass over the
    /// track before the export, holding only those few rows).
    @discardableResult
    public static func export<Store: ExportStore>(
        format: ExportFormat, store: isolated Store, since: Date?, until: Date?,
        gapMinutes: Double = TripSplitter.defaultGapMinutes, to destination: ExportDestination,
        language: Language = .en
    ) throws(ExportError) -> ExportSummary {
        var summary = ExportSummary(readings: 0, trackPoints: 0)
        try withExportSink(destination) { (out: ExportSink) throws(ExportError) in
            var writer: any ExportWriter
            switch format {
            case .gpx: writer = GPXWriter(language: language)
            case .csv: writer = CSVWriter(language: language)
            case .geojson: writer = GeoJSONWriter(language: language)
            }
            try writer.begin(out)
            try mapErrors {
                let dating = try store.exportDating(gapMinutes: gapMinutes)
                try store.forEachReading(
                    since: since, until: until, dating: dating, unreadable: { summary.leftOut($0) }
                ) { time, reading in
                    try writer.reading(reading, at: time, out)
                    summary.readings += 1
                }
                guard writer.includesTrack else { return }
                try store.forEachTrackPoint(
                    since: since, until: until, dating: dating, unreadable: { summary.leftOut($0) }
                ) { time, fix in
                    try writer.trackPoint(fix, at: time, out)
                    summary.trackPoints += 1
                }
            }
            try writer.end(out)
        }
        return summary
    }

    private static func mapErrors(_ body: () throws -> Void) throws(ExportError) {
        do {
            try body()
        } catch let error as ExportError {
            throw error
        } catch let error as StorageError {
            throw ExportError.storage(error)
        } catch {
            throw ExportError.storage(.failed(path: "", detail: "\(error)"))
        }
    }
}
