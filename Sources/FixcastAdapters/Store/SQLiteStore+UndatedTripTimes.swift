internal import CSQLite
import FixcastCore
import FoundationEssentials

/// The trip times of the track points and readings that have no fix time but a dated fix received
/// near them (`UndatedTripTime`'s rule), by row id; every other row's trip time is
/// `coalesce(fix_time, time)`. Worked out once per command (`SQLiteStore.undatedTripTimes`) and handed
/// to each dated read of the store, so `trips`, `report` and the exports date every row alike.
public struct UndatedTripTimes: Sendable {
    var points: [Int64: Double] = [:]
    var readings: [Int64: Double] = [:]

    /// The moved readings' ids as a JSON array, for `json_each` in the trip queries.
    var readingIDsJSON: String { "[" + readings.keys.sorted().map(String.init).joined(separator: ",") + "]" }

    /// The ids as a JSON array of the moved readings whose trip time is in [from, to].
    func readingIDsJSON(from: Date, to: Date) -> String {
        let lo = from.timeIntervalSince1970
        let hi = to.timeIntervalSince1970
        let ids = readings.filter { $0.value >= lo && $0.value <= hi }.keys.sorted()
        return "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}

extension SQLiteStore {
    /// One pass over the track points and the undated readings in receive order (the two `time`
    /// indexes, merged), holding only the undated rows of the last gap; `gapMinutes` is the trips' gap
    /// (`report.trip_gap_min`): only a fix received closer than that dates a row.
    public func undatedTripTimes(gapMinutes: Double) throws(StorageError) -> UndatedTripTimes {
        let stmt = try db.prepare(
            """
            SELECT 0, id, time, fix_time FROM track_points
            UNION ALL SELECT 1, id, time, NULL FROM readings WHERE \(Self.readingsDatedByNeighbours) AND lat IS NOT NULL
            ORDER BY 3
            """)
        var rule = UndatedTripTime(gapMinutes: gapMinutes)
        while try stmt.step() {
            guard let received = stmt.double(2), PlausibleTime.contains(received) else { continue }
            let fix = stmt.double(3).flatMap { PlausibleTime.contains($0) ? $0 : nil }
            rule.add(
                UndatedTripTime.Item(
                    kind: stmt.int(0) == 0 ? .trackPoint : .reading, id: stmt.int64(1), receivedAt: received,
                    fixTime: fix))
        }
        var out = UndatedTripTimes()
        for a in rule.finish() where PlausibleTime.contains(a.tripTime) {
            switch a.kind {
            case .trackPoint: out.points[a.id] = a.tripTime
            case .reading: out.readings[a.id] = a.tripTime
            }
        }
        return out
    }

    /// The moved track points with their trip times, by that time; a row that is no point (no
    /// coordinate, no believable receive time) is left out.
    func movedTrackPoints(_ undated: UndatedTripTimes) throws(StorageError) -> [(time: Double, fix: Fix)] {
        guard !undated.points.isEmpty else { return [] }
        let stmt = try db.prepare("SELECT \(Self.trackPointColumns) FROM track_points WHERE id = ?1")
        var out: [(time: Double, fix: Fix)] = []
        for (id, t) in undated.points.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            try stmt.reset()
            try stmt.bind(1, Int(id))
            guard try stmt.step(), let fix = Self.fix(stmt) else { continue }
            out.append((t, fix))
        }
        return out
    }
}
