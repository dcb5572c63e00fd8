import FixcastAdapters
import FixcastCore
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
