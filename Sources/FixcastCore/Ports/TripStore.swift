import FoundationEssentials

/// A trip found in the store: its extent in fix time and its length along the stored track.
public struct StoredTrip: Sendable, Hashable {
    public var span: TripSpan
    public var distanceKm: Double

    public init(span: TripSpan, distanceKm: Double) {
        self.span = span
        self.distanceKm = distanceKm
    }
}

/// A stored reading in a trip, with the time it has there (`Reading.tripTime`: its position's fix
/// time; its own time when the position was the last known one; or the time the fixes received
/// around it gave it): the time the report draws it at.
public struct StoredTripReading: Sendable, Hashable {
    public var tripTime: Date
    public var reading: Reading

    public init(tripTime: Date, reading: Reading) {
        self.tripTime = tripTime
        self.reading = reading
    }
}

/// What a trip report reads of the store (CONTRACT.md "Trips and reports"): the trips found from the
/// track's fix times, and a time range's track points and readings, ordered by fix time. The SQLite
/// store implements it.
public protocol TripStore: Sendable {
    /// Where the store is, for a sentence that names it.
    var path: String { get }
    /// The trips, oldest first; a gap of `gapMinutes` without track points starts a new one.
    func trips(gapMinutes: Double) async throws(StorageError) -> [StoredTrip]
    /// The track points and readings from `from` to `to`, by fix time.
    func tripContents(from: Date, to: Date, gapMinutes: Double) async throws(StorageError)
        -> (points: [TripTrackPoint], readings: [StoredTripReading])
    /// How many track points the store holds.
    func trackPointCount() async throws(StorageError) -> Int
}
