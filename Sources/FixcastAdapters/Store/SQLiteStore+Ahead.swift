import FixcastCore
import FoundationEssentials

/// Every ahead forecast, kept (CONTRACT.md "Weather ahead": "Every ahead forecast is stored").
///
/// A forecast is written in the transaction that stores the reading carrying it, so a kill keeps
/// both or neither. Readings taken between two refreshes carry the same forecast: it is stored once
/// and each reading names it (`readings.ahead_id`), with its own `stale` mark (`readings.ahead_stale`).
extension SQLiteStore {
    /// Stores `forecast` unless the same forecast is stored already, and returns its row. Part of
    /// the caller's transaction.
    func saveAheadForecast(_ forecast: AheadForecast) throws(StorageError) -> Int64 {
        var kept = forecast
        kept.stale = false
        // A sample or alert without a finite time or distance (columns that may not be NULL, and a
        // non-finite number is bound as NULL) is left out: it must not fail the reading's transaction.
        kept.samples = kept.samples.filter {
            $0.eta.timeIntervalSince1970.isFinite && $0.distanceKm.isFinite && $0.coordinate.lat.isFinite
                && $0.coordinate.lon.isFinite
        }
        kept.alerts = kept.alerts.filter { $0.atKm.isFinite }
        if let same = try storedAheadForecastID(equalTo: kept) { return same }
        let stmt = try db.kept(AheadRow.insertSQL("ahead_forecasts", AheadRow.forecastColumns))
        try stmt.bindAll(AheadRow.values(of: kept))
        _ = try stmt.step()
        let id = db.lastInsertRowID
        let sample = try db.kept(AheadRow.childInsertSQL("ahead_samples", AheadRow.sampleColumns))
        for (seq, s) in kept.samples.enumerated() {
            try sample.bindAll([.int(Int(id)), .int(seq)] + AheadRow.values(of: s))
            _ = try sample.step()
            try sample.reset()
        }
        let alert = try db.kept(AheadRow.childInsertSQL("ahead_alerts", AheadRow.alertColumns))
        for (seq, a) in kept.alerts.enumerated() {
            try alert.bindAll([.int(Int(id)), .int(seq)] + AheadRow.values(of: a))
            _ = try alert.step()
            try alert.reset()
        }
        return id
    }

    /// Stores a forecast no reading carries (`fixcast ahead`'s) in a transaction of its own, unless the
    /// same forecast is stored already (`saveAheadForecast`, as for a reading's); returns its row.
    @discardableResult
    public func storeAheadForecast(_ forecast: AheadForecast) throws(StorageError) -> Int64 {
        try db.transaction { () throws(StorageError) -> Int64 in try saveAheadForecast(forecast) }
    }

    /// The row of a stored forecast equal to `forecast` (made at the same moment, same in every value),
    /// compared as it reads back (`AheadRow.asStored`): a time between whole seconds does not come back
    /// bit for bit, and compared as made no stored forecast was ever the same.
    private func storedAheadForecastID(equalTo forecast: AheadForecast) throws(StorageError) -> Int64? {
        let stmt = try db.prepare("SELECT id FROM ahead_forecasts WHERE made_at = ?1 ORDER BY id DESC")
        try stmt.bind(1, forecast.madeAt)
        var candidates: [Int64] = []
        while try stmt.step() { candidates.append(stmt.int64(0)) }
        let readBack = AheadRow.asStored(forecast)
        for id in candidates where try aheadForecast(id: id) == readBack { return id }
        return nil
    }

    /// Links the reading in row `readingID` to its forecast, storing the forecast when it is new.
    func linkAhead(_ forecast: AheadForecast, toReading readingID: Int64) throws(StorageError) {
        let id = try saveAheadForecast(forecast)
        let stmt = try db.kept("UPDATE readings SET ahead_id = ?1, ahead_stale = ?2 WHERE id = ?3")
        try stmt.bindAll([.int(Int(id)), .of(forecast.stale), .int(Int(readingID))])
        _ = try stmt.step()
    }

    /// The stored forecast in row `id`, with its samples and alerts in order; nil when there is no
    /// such row or it holds no believable forecast (`AheadRow`). Samples and alerts that are not
    /// believable are left out.
    public func aheadForecast(id: Int64) throws(StorageError) -> AheadForecast? {
        let head = try db.kept(AheadRow.selectSQL("ahead_forecasts", AheadRow.forecastColumns, where: "id = ?1"))
        try head.bind(1, Int(id))
        guard try head.step(), var forecast = AheadRow.forecast(head) else { return nil }
        let samples = try db.kept(
            AheadRow.selectSQL("ahead_samples", AheadRow.sampleColumns, where: "forecast_id = ?1 ORDER BY seq"))
        try samples.bind(1, Int(id))
        while try samples.step() {
            if let s = AheadRow.sample(samples) { forecast.samples.append(s) }
        }
        let alerts = try db.kept(
            AheadRow.selectSQL("ahead_alerts", AheadRow.alertColumns, where: "forecast_id = ?1 ORDER BY seq"))
        try alerts.bind(1, Int(id))
        while try alerts.step() {
            if let a = AheadRow.alert(alerts) { forecast.alerts.append(a) }
        }
        return forecast
    }

    /// The forecast stored last (by its row, not `made_at`: see `lastReading`), a reading's or `fixcast ahead`'s; nil when none
    /// is stored. Rows are read newest first until one holds a believable forecast: `line` asks this
    /// every few seconds, and a year of forecasts is tens of thousands of rows.
    public func lastAheadForecast() throws(StorageError) -> AheadForecast? {
        // `+made_at`: the range is checked on each row, not looked up in `ahead_forecasts_made_at`,
        // which would read and sort every forecast before the newest (a year's 17,000, each call).
        let stmt = try db.prepare(
            "SELECT id FROM ahead_forecasts WHERE +made_at >= 0 AND +made_at < ?1 ORDER BY id DESC")
        try stmt.bind(1, PlausibleTime.latestSeconds)
        while try stmt.step() {
            if let forecast = try aheadForecast(id: stmt.int64(0)) { return forecast }
        }
        return nil
    }

    /// `reading` with the forecast its row names (`ahead_id` in `aheadColumn`, `ahead_stale` after it)
    /// as its `ahead`; the stored forecast is what a reading carries, whatever its JSON held.
    func withStoredAhead(_ reading: Reading, _ stmt: SQLiteStatement, aheadColumn: Int32) throws(StorageError)
        -> Reading
    {
        var r = reading
        r.ahead = nil
        if let id = stmt.int(aheadColumn), var forecast = try aheadForecast(id: Int64(id)) {
            forecast.stale = (stmt.int(aheadColumn + 1) ?? 0) != 0
            r.ahead = forecast
        }
        return r
    }

    /// The readings `tripAheadChecks` pairs with forecasts: those in the trip [?1, ?2] but for the
    /// undated ones dated elsewhere (?3), and those dated into it (?4), as JSON arrays of ids. The two
    /// sets are joined by `UNION` inside `id IN`, not by `OR`: a top-level `OR … id IN (…)` made
    /// SQLite read every reading once per trip (a year's 626 trips took 10 s, two years' 29 s), while
    /// this answers from `readingInTrip`'s two indexes and the row id (under 1 ms a trip).
    static let aheadCheckReadingsSQL =
        "SELECT time, lat, lon, temperature_c, precipitation_mm, stale, ahead_id FROM readings WHERE lat IS NOT NULL"
        + " AND id IN (SELECT id FROM readings WHERE \(readingInTrip) AND id NOT IN (SELECT value FROM json_each(?3))"
        + " UNION SELECT value FROM json_each(?4)) ORDER BY id"

    /// The checks of the forecasts carried by the readings whose fix time is in [from, to] against
    /// those readings (`AheadCheck`), from the readings' columns, without parsing their JSON: `trips`
    /// does this for every trip of the store. A temperature or rate outside its physical range, or a
    /// time outside 1970–2200, is unknown; a reading without a believable position checks nothing.
    /// `excluding` and `including` (JSON arrays of reading ids) are the undated readings whose trip
    /// time is not their receive time (`UndatedTripTimes`): left out of their own time, put in this trip.
    public func tripAheadChecks(
        from: Date, to: Date, rainMmH: Double, excluding: String = "[]", including: String = "[]"
    ) throws(StorageError) -> AheadCheck.Summary {
        let stmt = try db.prepare(Self.aheadCheckReadingsSQL)
        try stmt.bind(1, from)
        try stmt.bind(2, to)
        try stmt.bind(3, excluding)
        try stmt.bind(4, including)
        var met: [AheadCheck.Met] = []
        var forecastIDs: [Int64] = []
        var seen = Set<Int64>()
        while try stmt.step() {
            if let id = stmt.int(6), seen.insert(Int64(id)).inserted { forecastIDs.append(Int64(id)) }
            guard let time = AheadRow.date(stmt, 0), let lat = stmt.number(1), let lon = stmt.number(2),
                let c = Coordinate(lat: lat, lon: lon)
            else { continue }
            let fresh = (stmt.int(5) ?? 0) == 0
            met.append(
                AheadCheck.Met(
                    time: time, coordinate: c,
                    temperatureC: fresh ? AheadRow.checked(stmt.number(3), WeatherValueRanges.temperature) : nil,
                    precipitationMmH: fresh ? AheadRow.checked(stmt.number(4), WeatherValueRanges.precipitation) : nil))
        }
        guard !forecastIDs.isEmpty else { return .none }
        var forecasts: [AheadForecast] = []
        for id in forecastIDs.sorted() {
            if let f = try aheadForecast(id: id) { forecasts.append(f) }
        }
        let track = try arrivalTrack(for: forecasts)
        return AheadCheck.summary(AheadCheck.pairs(forecasts: forecasts, met: met, track: track), rainMmH: rainMmH)
    }

    /// The track that can time the forecasts' samples (`AheadCheck.arrival`): the points received from
    /// the first forecast's making to 30 min after the last sample's ETA, on the clock the ETAs and the
    /// readings' times are on (`time`, when fixcast received the fix).
    private func arrivalTrack(for forecasts: [AheadForecast]) throws(StorageError) -> [TrackSample] {
        guard let first = forecasts.map(\.madeAt).min(),
            let last = forecasts.flatMap({ $0.samples.map(\.eta) }).max()
        else { return [] }
        let stmt = try db.prepare(
            "SELECT time, lat, lon FROM track_points WHERE time >= ?1 AND time <= ?2 ORDER BY time")
        try stmt.bind(1, first)
        try stmt.bind(2, last.addingTimeInterval(AheadCheck.withinS))
        var out: [TrackSample] = []
        while try stmt.step() {
            guard let time = AheadRow.date(stmt, 0), let lat = stmt.number(1), let lon = stmt.number(2),
                let c = Coordinate(lat: lat, lon: lon)
            else { continue }
            out.append(TrackSample(time: time, coordinate: c))
        }
        return out
    }
}

extension SQLiteStore: AheadForecastStore {}
