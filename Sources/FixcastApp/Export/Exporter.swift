import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// Writes the stored readings and track in one of the export formats, streaming: rows are read
/// one at a time from SQLite and written through a 64 KiB buffer, so a million track points
/// cost no more memory than ten.
public enum Exporter {
    /// Exports the readings and track points whose time is in [since, until] (either may be nil)
    /// to `destination`. Runs on the store's actor (it reads the database as it writes).
    @discardableResult
    public static func export(
        format: ExportFormat, store: isolated SQLiteStore, since: Date?, until: Date?,
        to destination: ExportDestination,
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
                try store.forEachReading(since: since, until: until) { reading in
                    // The store's order (`readingExportTime`), the same rule.
                    try writer.reading(reading, at: reading.tripTime ?? reading.time, out)
                    summary.readings += 1
                }
            }
            if writer.includesTrack {
                try mapErrors {
                    try store.forEachTrackPoint(since: since, until: until) { fix in
                        try writer.trackPoint(fix, out)
                        summary.trackPoints += 1
                    }
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
