import FixcastAdapters
import FixcastCore
import FixcastText
import FoundationEssentials

/// The formats `fixcast export --format` writes (CONTRACT.md).
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// GPX 1.1: the track as trk/trkseg/trkpt, readings as wpt with the weather in extensions.
    case gpx
    /// One reading a row, RFC 4180, units in the column names.
    case csv
    /// RFC 7946 FeatureCollection: a Point per reading, a LineString for the track.
    case geojson

    /// The usual file extension.
    public var fileExtension: String { rawValue == "geojson" ? "geojson" : rawValue }
}

/// What one export wrote.
public struct ExportSummary: Sendable, Hashable {
    public var readings: Int
    public var trackPoints: Int
    /// Stored rows that could not be read and were left out (the rest was written), and the first of
    /// them: the export is then a loss, said in one sentence (`leftOutSentence`) with exit 1.
    public var unreadableRows = 0
    public var firstUnreadableRow: Int64?

    /// The sentence for rows left out of what was written from the store at `path`; nil when none was.
    public func leftOutSentence(path: String) -> String? {
        guard unreadableRows > 0 else { return nil }
        let first = firstUnreadableRow.map { " (the first is row \($0))" } ?? ""
        return "storage: \(CountedNoun.phrase(unreadableRows, "stored row")) of \(path) could not be read and "
            + "\(unreadableRows == 1 ? "was" : "were") left out\(first); the rest was written. Check the row with sqlite3."
    }

    mutating func leftOut(_ id: Int64) {
        unreadableRows += 1
        if firstUnreadableRow == nil { firstUnreadableRow = id }
    }
}

/// One format's writer: called with the readings (oldest first), then the track points.
protocol ExportWriter {
    /// Whether the format has a place for the track (CSV holds readings only).
    var includesTrack: Bool { get }
    mutating func begin(_ out: ExportSink) throws(ExportError)
    /// `time` is when the reading happened as `trips` and `report` take it (`Reading.tripTime`: the
    /// receiver's fix time; without one, the time the fixes received around it give it), or its own time
    /// where it is in no trip (a position given by hand): the time the export is ordered and ranged by,
    /// and the one a format that dates the reading itself writes.
    mutating func reading(_ reading: Reading, at time: Date, _ out: ExportSink) throws(ExportError)
    /// `time` is the point's as `trips` and `report` take it, the same way.
    mutating func trackPoint(_ fix: Fix, at time: Date, _ out: ExportSink) throws(ExportError)
    mutating func end(_ out: ExportSink) throws(ExportError)
}
