internal import CSQLite
import FixcastCore
import FixcastText
import FoundationEssentials

/// A trip found in the store: its extent in fix time and its length along the stored track.
public struct StoredTrip: Sendable, Hashable {
    public var span: TripSpan
    public var distanceKm: Double
}

/// What `fixcast trips` and `fixcast report` read: trips found from the track's fix times, and
/// a time range's track points and readings, ordered by fix time (CONTRACT.md "Trips and reports").
///
/// Fix time is the receiver's time, else the receive time (`coalesce(fix_time, time)`, the
/// expression the `track_points_trip_time` and `readings_trip_time` indexes hold), so a replayed
/// log's points and readings land in the log's trips whatever the wall clock said.
extension SQLiteStore {
    static let tripTime = "coalesce(fix_time, time)"

    /// The trips of the whole store, oldest first. A gap of at least `gapMinutes` between
    /// consecutive points (by fix time) starts a new trip.
    ///
    /// One pass over the fix-time index, streamed: each point is looked at once for the gap and
    /// the step length and then dropped, so a year of driving (~1 M points) takes constant memory.
    /// Measured on 1 M points (bench/report.sh): this pass costs ~0.07 s of SQLite CPU, while a
    /// window `LAG` in SQL costs ~0.6 s for the gaps alone and ~2.4 s with the lengths summed in
    /// SQL, over the 1 s target.
    ///
    /// Where a trip ends is `TripSplitter`'s rule (one rule, tested in FixcastCore), fed point by point;
    /// this pass adds only each trip's length. A point whose fix time is outside 1970–2200 or whose
    /// position is no coordinate is left out (`PlausibleTime`): the store is data from outside too.
    public func trips(gapMinutes: Double) throws(StorageError) -> [StoredTrip] {
        let stmt = try db.prepare(
            "SELECT \(Self.tripTime), lat, lon FROM track_points ORDER BY \(Self.tripTime), id")
        var splitting = TripSplitter.Splitting(gapMinutes: gapMinutes)
        var lengthsKm: [Double] = []
        var previousCoordinate: Coordinate?
        while try stmt.step() {
            guard let t = stmt.double(0), PlausibleTime.contains(t), let lat = stmt.double(1),
                let lon = stmt.double(2), let c = Coordinate(lat: lat, lon: lon)
            else { continue }
            if splitting.add(t) {
                lengthsKm.append(0)
            } else if let p = previousCoordinate {
                lengthsKm[lengthsKm.count - 1] += GreatCircle.distanceKm(p, c)
            }
            previousCoordinate = c
        }
        return zip(splitting.finish(), lengthsKm).map { StoredTrip(span: $0, distanceKm: $1) }
    }

    /// One `trips` line per trip: readings in the trip (by their position's fix time), their
    /// first and last place name, their temperature range (only plausible values, -90…60 °C) and
    /// the checks of the ahead forecasts they carried (`tripAheadChecks`; rain from `rainMmH`).
    public func tripSummaries(gapMinutes: Double, rainMmH: Double = AheadSettings().rainMmH) throws(StorageError)
        -> [TripSummary]
    {
        let trips = try trips(gapMinutes: gapMinutes)
        let range = "\(Self.tripTime) BETWEEN ?1 AND ?2 AND lat IS NOT NULL"
        let stats = try db.prepare(
            "SELECT count(*), min(CASE WHEN temperature_c BETWEEN -90 AND 60 THEN temperature_c END), max(CASE WHEN temperature_c BETWEEN -90 AND 60 THEN temperature_c END) FROM readings WHERE \(range)"
        )
        let first = try db.prepare(
            "SELECT place_name FROM readings WHERE \(range) AND place_name IS NOT NULL AND place_name <> '' ORDER BY \(Self.tripTime), id LIMIT 1"
        )
        let last = try db.prepare(
            "SELECT place_name FROM readings WHERE \(range) AND place_name IS NOT NULL AND place_name <> '' ORDER BY \(Self.tripTime) DESC, id DESC LIMIT 1"
        )
        var out: [TripSummary] = []
        for (i, trip) in trips.enumerated() {
            var summary = TripSummary(
                number: i + 1, start: trip.span.start, end: trip.span.end, distanceKm: trip.distanceKm,
                startPlace: nil, endPlace: nil, readings: 0, minC: nil, maxC: nil)
            for stmt in [stats, first, last] {
                try stmt.reset()
                try stmt.bind(1, trip.span.start)
                try stmt.bind(2, trip.span.end)
            }
            if try stats.step() {
                summary.readings = stats.int(0) ?? 0
                summary.minC = stats.double(1)
                summary.maxC = stats.double(2)
            }
            if try first.step() { summary.startPlace = first.text(0) }
            if try last.step() { summary.endPlace = last.text(0) }
            summary.aheadChecks = try tripAheadChecks(from: trip.span.start, to: trip.span.end, rainMmH: rainMmH)
            out.append(summary)
        }
        return out
    }

    /// The track points whose fix time is in [from, to], by fix time.
    public func tripTrackPoints(from: Date, to: Date) throws(StorageError) -> [TripTrackPoint] {
        let stmt = try db.prepare(
            "SELECT \(Self.tripTime), lat, lon FROM track_points WHERE \(Self.tripTime) BETWEEN ?1 AND ?2 ORDER BY \(Self.tripTime), id"
        )
        try stmt.bind(1, from)
        try stmt.bind(2, to)
        var out: [TripTrackPoint] = []
        while try stmt.step() {
            guard let t = stmt.date(0) else { continue }  // no believable time: left out, as `trips` does
            guard let lat = stmt.double(1), let lon = stmt.double(2), let c = Coordinate(lat: lat, lon: lon)
            else { throw StorageError.corrupt(path: path, detail: "a stored track point is out of range") }
            out.append(TripTrackPoint(time: t, coordinate: c))
        }
        return out
    }

    /// The readings with a position whose fix time is in [from, to], by fix time.
    public func tripReadings(from: Date, to: Date) throws(StorageError) -> [Reading] {
        let stmt = try db.prepare(
            "SELECT \(Self.readingColumns) FROM readings WHERE \(Self.tripTime) BETWEEN ?1 AND ?2 AND lat IS NOT NULL ORDER BY \(Self.tripTime), id"
        )
        try stmt.bind(1, from)
        try stmt.bind(2, to)
        var out: [Reading] = []
        while try stmt.step() { out.append(try readingRow(stmt)) }
        return out
    }
}
