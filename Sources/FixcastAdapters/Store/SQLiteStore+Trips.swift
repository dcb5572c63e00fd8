internal import CSQLite
import FixcastCore
import FixcastText
import FoundationEssentials

/// What `fixcast trips` and `fixcast report` read: trips found from the track's fix times, and
/// a time range's track points and readings, ordered by fix time (CONTRACT.md "Trips and reports").
///
/// Fix time is the receiver's time, else the receive time (`coalesce(fix_time, time)`, the
/// expression the `track_points_trip_time` index holds; a reading's is `readingTripTime`), so a
/// replayed log's points and readings land in the log's trips whatever the wall clock said.
extension SQLiteStore {
    /// `lower AND upper` of `WeatherValueRanges.temperature`, for SQL's BETWEEN: the one range a stored
    /// temperature is believed in (the code's own numbers, not outside text).
    static var plausibleTemperatureSQL: String {
        "\(WeatherValueRanges.temperature.lower) AND \(WeatherValueRanges.temperature.upper)"
    }

    static let tripTime = "coalesce(fix_time, time)"
    /// A reading's trip time (`Reading.tripTime`, the same rule): its position's fix time; its own
    /// time when the position was the last known one, whose fix is old (gpsd had none, or was away)
    /// while the weather is of the moment, so a reading after two days parked is in no trip of two
    /// days ago; and none for a position given by hand (`now --at`, `--place`), which is not where
    /// the receiver was. A last-known reading is also dated like one without a fix time
    /// (`UndatedTripTime`: by the fixes received around it), so one taken in a dropout of a replayed
    /// log lands in the log's trip.
    static let readingTripTime =
        "CASE position_source WHEN 'manual' THEN NULL WHEN 'last-known' THEN time ELSE coalesce(fix_time, time) END"
    /// `readingTripTime BETWEEN ?1 AND ?2`, written so SQLite answers it from the store's two indexes
    /// (`readings_trip_time` on the fix time, `readings_time` on the reading's own), one for each
    /// kind of position, instead of reading every row: no schema change, so every fixcast that reads
    /// the store still can.
    static let readingInTrip =
        "((coalesce(fix_time, time) BETWEEN ?1 AND ?2 AND position_source IS NOT 'last-known' AND position_source IS NOT 'manual')"
        + " OR (time BETWEEN ?1 AND ?2 AND position_source = 'last-known'))"
    /// The readings the undated pass dates by the fixes around them: no fix time, or an old one.
    static let readingsDatedByNeighbours =
        "(fix_time IS NULL OR position_source = 'last-known') AND position_source IS NOT 'manual'"

    /// The trips of the whole store, oldest first. A gap of at least `gapMinutes` between
    /// consecutive points (by fix time), or a stop as long, starts a new trip (`TripSplitter`).
    ///
    /// One pass over the fix-time index, streamed: each point is looked at once for the gap, the stop
    /// and the step length and then dropped, so a year of driving (~1 M points) takes constant memory.
    /// Measured on 1 M points (bench/report.sh): this pass costs ~0.07 s of SQLite CPU, while a
    /// window `LAG` in SQL costs ~0.6 s for the gaps alone and ~2.4 s with the lengths summed in
    /// SQL, over the 1 s target.
    ///
    /// Where a trip ends, and its length, are `TripSplitter`'s (one rule, tested in FixcastCore), fed
    /// point by point. A point without a fix time takes the trip time of the
    /// dated fixes received around it (`UndatedTripTime`, one more pass in receive order): a
    /// receiver's first fix before it knows the date is its trip's start, not a trip of its own. A point whose fix time is outside 1970–2200 or whose
    /// position is no coordinate is left out (`PlausibleTime`): the store is data from outside too.
    public func trips(gapMinutes: Double) throws(StorageError) -> [StoredTrip] {
        try trips(gapMinutes: gapMinutes, undated: undatedTripTimes(gapMinutes: gapMinutes))
    }

    private func trips(gapMinutes: Double, undated: UndatedTripTimes) throws(StorageError) -> [StoredTrip] {
        let moved = try movedTrackPoints(undated)
        let stmt = try db.prepare(
            "SELECT \(Self.tripTime), lat, lon, id FROM track_points ORDER BY \(Self.tripTime), id")
        var splitting = TripSplitter.Splitting(gapMinutes: gapMinutes)
        func add(_ t: Double, _ c: Coordinate) { _ = splitting.add(t, at: c) }
        var movedRows = MovedRows(moved.map { (time: $0.time, row: $0.fix.coordinate) })  // merged in by trip time
        while try stmt.step() {
            guard undated.points[stmt.int64(3)] == nil, let t = stmt.double(0), PlausibleTime.contains(t),
                let lat = stmt.double(1), let lon = stmt.double(2), let c = Coordinate(lat: lat, lon: lon)
            else { continue }
            movedRows.emit(before: t, add)
            add(t, c)
        }
        movedRows.emitRest(add)
        return splitting.finish().map { StoredTrip(span: $0, distanceKm: $0.distanceKm) }
    }

    /// One `trips` line per trip: readings in the trip (by their position's fix time), their
    /// first and last place name, their temperature range (only plausible values, `WeatherValueRanges.temperature`, as `TripReading` keeps) and
    /// the checks of the ahead forecasts they carried (`tripAheadChecks`; rain from `rainMmH`).
    public func tripSummaries(gapMinutes: Double, rainMmH: Double = AheadSettings().rainMmH) throws(StorageError)
        -> [TripSummary]
    {
        let undated = try undatedTripTimes(gapMinutes: gapMinutes)
        let trips = try trips(gapMinutes: gapMinutes, undated: undated)
        let moved = try movedReadings(undated)
        let range =
            "\(Self.readingInTrip) AND lat IS NOT NULL AND id NOT IN (SELECT value FROM json_each(?3))"
        let stats = try db.prepare(
            "SELECT count(*), min(CASE WHEN temperature_c BETWEEN \(Self.plausibleTemperatureSQL) THEN temperature_c END), max(CASE WHEN temperature_c BETWEEN \(Self.plausibleTemperatureSQL) THEN temperature_c END) FROM readings WHERE \(range)"
        )
        let first = try db.prepare(
            "SELECT place_name, \(Self.readingTripTime) FROM readings WHERE \(range) AND place_name IS NOT NULL AND place_name <> '' ORDER BY \(Self.readingTripTime), id LIMIT 1"
        )
        let last = try db.prepare(
            "SELECT place_name, \(Self.readingTripTime) FROM readings WHERE \(range) AND place_name IS NOT NULL AND place_name <> '' ORDER BY \(Self.readingTripTime) DESC, id DESC LIMIT 1"
        )
        let excluded = undated.readingIDsJSON
        var out: [TripSummary] = []
        for (i, trip) in trips.enumerated() {
            var summary = TripSummary(
                number: i + 1, start: trip.span.start, end: trip.span.end, distanceKm: trip.distanceKm,
                startPlace: nil, endPlace: nil, readings: 0, minC: nil, maxC: nil)
            for stmt in [stats, first, last] {
                try stmt.reset()
                try stmt.bind(1, trip.span.start)
                try stmt.bind(2, trip.span.end)
                try stmt.bind(3, excluded)
            }
            if try stats.step() {
                summary.readings = stats.int(0) ?? 0
                summary.minC = stats.double(1)
                summary.maxC = stats.double(2)
            }
            var firstPlace = try first.step() ? first.text(0).map { ($0, first.double(1) ?? 0) } : nil
            var lastPlace = try last.step() ? last.text(0).map { ($0, last.double(1) ?? 0) } : nil
            // The undated readings dated into this trip (in trip-time order).
            for m in moved where trip.span.contains(Date(timeIntervalSince1970: m.tripTime)) {
                summary.readings += 1
                if let c = m.temperatureC {
                    summary.minC = min(summary.minC ?? c, c)
                    summary.maxC = max(summary.maxC ?? c, c)
                }
                guard let name = m.placeName else { continue }
                if firstPlace.map({ m.tripTime < $0.1 }) ?? true { firstPlace = (name, m.tripTime) }
                if lastPlace.map({ m.tripTime >= $0.1 }) ?? true { lastPlace = (name, m.tripTime) }
            }
            summary.startPlace = firstPlace?.0
            summary.endPlace = lastPlace?.0
            summary.aheadChecks = try tripAheadChecks(
                from: trip.span.start, to: trip.span.end, rainMmH: rainMmH, excluding: excluded,
                including: undated.readingIDsJSON(from: trip.span.start, to: trip.span.end))
            out.append(summary)
        }
        return out
    }

    /// The undated readings with a dated trip time, by trip time: what a `trips` line counts of them.
    private func movedReadings(_ undated: UndatedTripTimes) throws(StorageError)
        -> [(tripTime: Double, placeName: String?, temperatureC: Double?)]
    {
        guard !undated.readings.isEmpty else { return [] }
        let stmt = try db.prepare(
            "SELECT nullif(place_name, ''), CASE WHEN temperature_c BETWEEN \(Self.plausibleTemperatureSQL) THEN temperature_c END FROM readings WHERE id = ?1"
        )
        var out: [(tripTime: Double, placeName: String?, temperatureC: Double?)] = []
        for (id, t) in undated.readings.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            try stmt.reset()
            try stmt.bind(1, Int(id))
            guard try stmt.step() else { continue }
            out.append((t, stmt.text(0), stmt.double(1)))
        }
        return out
    }

    /// The track points whose trip time (fix time, or that of the dated fixes around an undated point)
    /// is in [from, to], by that time.
    public func tripTrackPoints(from: Date, to: Date, gapMinutes: Double = TripSplitter.defaultGapMinutes)
        throws(StorageError) -> [TripTrackPoint]
    {
        try tripTrackPoints(from: from, to: to, undated: undatedTripTimes(gapMinutes: gapMinutes))
    }

    /// A trip's track points and readings (`tripTrackPoints`, `tripReadings`), with the undated rows'
    /// trip times worked out once for both: that pass reads the whole track.
    public func tripContents(from: Date, to: Date, gapMinutes: Double) throws(StorageError)
        -> (points: [TripTrackPoint], readings: [StoredTripReading])
    {
        let undated = try undatedTripTimes(gapMinutes: gapMinutes)
        return (
            try tripTrackPoints(from: from, to: to, undated: undated),
            try tripReadings(from: from, to: to, undated: undated)
        )
    }

    private func tripTrackPoints(from: Date, to: Date, undated: UndatedTripTimes) throws(StorageError)
        -> [TripTrackPoint]
    {
        var out: [TripTrackPoint] = []
        try storageErrors {
            try forEachTrackPoint(since: from, until: to, dating: undated) {
                out.append(TripTrackPoint(time: $0, coordinate: $1.coordinate))
            }
        }
        return out
    }

    /// The readings with a position whose trip time is in [from, to], by that time.
    public func tripReadings(from: Date, to: Date, gapMinutes: Double = TripSplitter.defaultGapMinutes)
        throws(StorageError) -> [Reading]
    {
        try tripReadings(from: from, to: to, undated: undatedTripTimes(gapMinutes: gapMinutes)).map(\.reading)
    }

    private func tripReadings(from: Date, to: Date, undated: UndatedTripTimes) throws(StorageError)
        -> [StoredTripReading]
    {
        var out: [StoredTripReading] = []
        try storageErrors {
            try forEachReading(since: from, until: to, dating: undated, among: .inTrips) {
                out.append(StoredTripReading(tripTime: $0, reading: $1))
            }
        }
        return out
    }
}

extension SQLiteStore: TripStore {}
