import FixcastAdapters
import FixcastCore

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
    mutating func reading(_ reading: Reading, _ out: ExportSink) throws(ExportError)
    mutating func trackPoint(_ fix: Fix, _ out: ExportSink) throws(ExportError)
    mutating func end(_ out: ExportSink) throws(ExportError)
}
