import FoundationEssentials

/// What an export streams from (CONTRACT.md "Export"): the readings and the track points of a time
/// range, one row at a time and by time, dated as `trips` and `report` date them. An export runs on
/// the store's own thread (its calls are the store's, made there), so a million rows never sit in
/// memory at once. The SQLite store implements it.
public protocol ExportStore: Actor {
    /// The times worked out for the rows that have no fix time of their own (one pass over the
    /// track), handed to both reads so that readings and track points are dated alike.
    associatedtype Dating: Sendable
    /// `gapMinutes` is the trips' gap (`report.trip_gap_min`).
    func exportDating(gapMinutes: Double) throws(StorageError) -> Dating
    /// Calls `body` with each reading whose time is in [since, until] (either may be nil) and that time, by it;
    /// a stored row that cannot be read is left out and its id given to `unreadable`.
    func forEachReading(
        since: Date?, until: Date?, dating: Dating, unreadable: (Int64) -> Void,
        _ body: (Date, Reading) throws -> Void) throws
    /// Calls `body` with each track point whose time is in [since, until] and that time, by it; a row
    /// that cannot be read is left out and its id given to `unreadable`.
    func forEachTrackPoint(
        since: Date?, until: Date?, dating: Dating, unreadable: (Int64) -> Void,
        _ body: (Date, Fix) throws -> Void) throws
}
