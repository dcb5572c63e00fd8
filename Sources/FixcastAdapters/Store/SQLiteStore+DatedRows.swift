internal import CSQLite
import FixcastCore
import FoundationEssentials

/// The track points and readings of a time range, each with the time `trips`, `report` and the
/// exports date it by, in that order, streamed (CONTRACT.md "Trips and reports", README's export row).
///
/// One rule for all three: a row's time is its fix time (`tripTime`, `readingExportTime`), except that a
/// row without a usable one takes the time the dated fixes received around it give it
/// (`UndatedTripTime`, worked out once per command by `undatedTripTimes`). Those few rows are left out of
/// the streamed query and merged back in at their own time; everything else is read one row at a time,
/// so a million track points export in constant memory.
extension SQLiteStore {
    /// The columns a track point is read back from (`fix(_:)`).
    static let trackPointColumns = "time, lat, lon, alt_m, speed_mps, track_deg, mode, fix_time"

    /// Calls `body` with each track point whose time (as `trips` dates it: `undated`'s, else its fix
    /// time, else its receive time) is in [since, until], by that time, and that time. A point whose time
    /// is outside 1970–2200 is left out, as `trips` leaves it out.
    ///
    /// A row that cannot be read (a position off the globe, a mode that is no mode: the store is data
    /// from outside too) is left out and its id given to `unreadable`, as `trips` leaves it out: one
    /// bad row made the export fail whole, saying the store was damaged and should be moved aside.
    public func forEachTrackPoint(
        since: Date?, until: Date?, dating undated: UndatedTripTimes, unreadable: (Int64) -> Void = { _ in },
        _ body: (Date, Fix) throws -> Void
    ) throws {
        let (lo, hi) = Self.bounds(since, until)
        let stmt = try db.prepare(
            "SELECT \(Self.trackPointColumns), \(Self.tripTime), id FROM track_points WHERE \(Self.tripTime) BETWEEN ?1 AND ?2 ORDER BY \(Self.tripTime), id"
        )
        try stmt.bind(1, lo)
        try stmt.bind(2, hi)
        var moved = MovedRows(
            try movedTrackPoints(undated).filter { $0.time >= lo && $0.time <= hi }.map { (time: $0.time, row: $0.fix) }
        )
        while try stmt.step() {
            guard undated.points[stmt.int64(9)] == nil else { continue }  // dated by its neighbours: merged in
            guard let t = stmt.date(8), stmt.date(0) != nil else { continue }  // no believable time
            guard let fix = Self.fix(stmt) else {
                unreadable(stmt.int64(9))
                continue
            }
            try moved.emit(before: t.timeIntervalSince1970) { try body(Date(timeIntervalSince1970: $0), $1) }
            try body(t, fix)
        }
        try moved.emitRest { try body(Date(timeIntervalSince1970: $0), $1) }
    }

    /// Which readings `forEachReading(since:until:dating:among:)` reads.
    enum DatedReadings {
        /// Those in a trip, with a position (`readingInTrip`): what `trips` counts and `report` draws.
        case inTrips
        /// Every one: those in no trip (a position given by hand, none at all) by their own time.
        case all
    }

    /// Calls `body` with each reading whose time (its trip time as `trips` dates it, `undated`'s for
    /// one without a usable fix time; else its own time) is in [since, until], by that time, and that
    /// time; `among` says which readings.
    func forEachReading(
        since: Date?, until: Date?, dating undated: UndatedTripTimes, among: DatedReadings,
        unreadable: (Int64) -> Void = { _ in }, _ body: (Date, Reading) throws -> Void
    ) throws {
        let (lo, hi) = Self.bounds(since, until)
        let query =
            switch among {
            case .inTrips:
                "WHERE \(Self.readingInTrip) AND lat IS NOT NULL ORDER BY \(Self.readingTripTime), id"
            case .all:
                "WHERE \(Self.readingExportTime) BETWEEN ?1 AND ?2 ORDER BY \(Self.readingExportTime), id"
            }
        let stmt = try db.prepare("SELECT \(Self.readingColumns), id FROM readings \(query)")
        try stmt.bind(1, lo)
        try stmt.bind(2, hi)
        // Only ids and times are held; each moved reading is read when its turn comes.
        var moved = MovedRows(
            undated.readings.map { (time: $0.value, row: $0.key) }.filter { $0.time >= lo && $0.time <= hi }
                .sorted { ($0.time, $0.row) < ($1.time, $1.row) })
        let one = try db.prepare("SELECT \(Self.readingColumns) FROM readings WHERE id = ?1")
        // A reading whose stored JSON cannot be read is left out and said (`unreadable`), as a track point.
        func readable(_ statement: SQLiteStatement, id: Int64) throws -> Reading? {
            do {
                return try readingRow(statement)
            } catch .corrupt {
                unreadable(id)
                return nil
            }
        }
        func emitMoved(_ t: Double, _ id: Int64) throws {
            try one.reset()
            try one.bind(1, Int(id))
            if try one.step(), let r = try readable(one, id: id) { try body(Date(timeIntervalSince1970: t), r) }
        }
        while try stmt.step() {
            guard undated.readings[stmt.int64(3)] == nil else { continue }  // dated by the fixes around it
            guard let r = try readable(stmt, id: stmt.int64(3)) else { continue }
            let t = r.tripTime ?? r.time  // `readingExportTime`, the order of the query
            try moved.emit(before: t.timeIntervalSince1970, emitMoved)
            try body(t, r)
        }
        try moved.emitRest(emitMoved)
    }

    /// Calls `body` with each reading whose time (as `forEachReading(since:until:dating:_:)`) is in
    /// [since, until], oldest first: the dating worked out here with `gapMinutes` (a pass over the track).
    public func forEachReading(
        since: Date?, until: Date?, gapMinutes: Double = TripSplitter.defaultGapMinutes,
        _ body: (Reading) throws -> Void
    ) throws {
        try forEachReading(since: since, until: until, dating: undatedTripTimes(gapMinutes: gapMinutes)) {
            try body($1)
        }
    }

    /// Calls `body` with every reading whose time is in [since, until] and that time, by it: a reading's
    /// trip time as `trips` dates it (one without a usable fix time by the fixes received around it),
    /// else its own (a position given by hand is in no trip, but is still exported).
    public func forEachReading(
        since: Date?, until: Date?, dating undated: UndatedTripTimes, unreadable: (Int64) -> Void = { _ in },
        _ body: (Date, Reading) throws -> Void
    ) throws {
        try forEachReading(since: since, until: until, dating: undated, among: .all, unreadable: unreadable, body)
    }

    /// The track point in the current row of a `trackPointColumns` query as the `Fix` it was stored from
    /// (the error estimates and satellite count are not kept in the track); nil when the row is no
    /// point (no believable receive time, no coordinate, an unknown mode).
    static func fix(_ stmt: SQLiteStatement) -> Fix? {
        guard let received = stmt.date(0), let lat = stmt.double(1), let lon = stmt.double(2),
            let coordinate = Coordinate(lat: lat, lon: lon), let mode = stmt.text(6).flatMap(FixMode.init(rawValue:))
        else { return nil }
        return Fix(
            time: stmt.date(7), receivedAt: received, coordinate: coordinate, mode: mode, altitudeM: stmt.double(3),
            speedMps: stmt.double(4), trackDeg: stmt.double(5))
    }

    /// [since, until] in seconds, open ends unbounded.
    static func bounds(_ since: Date?, _ until: Date?) -> (Double, Double) {
        (
            since?.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude,
            until?.timeIntervalSince1970 ?? Double.greatestFiniteMagnitude
        )
    }

    /// Runs `body`, any error it throws as a `StorageError`, for the typed-throws callers of the streams.
    func storageErrors<T>(_ body: () throws -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch let e as StorageError {
            throw e
        } catch {
            throw StorageError.failed(path: path, detail: "\(error)")
        }
    }
}

/// The rows dated by their neighbours (few, sorted by that time), merged into a stream sorted by time:
/// before each streamed row, the moved rows earlier than it; on a tie the streamed row goes first.
struct MovedRows<Row> {
    private let rows: [(time: Double, row: Row)]
    private var next = 0

    init(_ rows: [(time: Double, row: Row)]) { self.rows = rows }

    /// Hands over the moved rows before `time`.
    mutating func emit(before time: Double, _ body: (Double, Row) throws -> Void) rethrows {
        while next < rows.count, rows[next].time < time {
            try body(rows[next].time, rows[next].row)
            next += 1
        }
    }

    /// Hands over the moved rows not handed over yet (those after the stream's last row).
    mutating func emitRest(_ body: (Double, Row) throws -> Void) rethrows {
        try emit(before: .infinity, body)
    }
}

extension SQLiteStore: ExportStore {
    /// The rows without a fix time of their own, dated by the fixes around them (`undatedTripTimes`).
    public func exportDating(gapMinutes: Double) throws(StorageError) -> UndatedTripTimes {
        try undatedTripTimes(gapMinutes: gapMinutes)
    }
}
