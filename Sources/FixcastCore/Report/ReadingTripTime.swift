import FoundationEssentials

extension Reading {
    /// When a reading happened for its trip (CONTRACT.md "Trips and reports"), or nil when it is
    /// in no trip: its position's fix time, so a replayed log's readings land in the log's trips
    /// whatever the wall clock said; its own time when the position was the last known one, whose
    /// fix is old (gpsd had none, or was away) while the weather is of the moment, or when the fix
    /// had no time; and none for a position given by hand (`now --at`, `--place`), which is not where
    /// the receiver was. The store's queries hold the same rule (`SQLiteStore.readingTripTime`), and
    /// date a reading without a usable fix time by the fixes received around it (`UndatedTripTime`).
    public var tripTime: Date? {
        guard let position else { return nil }
        switch position.source {
        case .manual: return nil
        case .lastKnown: return time
        case .gps: return position.fixTime ?? time
        }
    }
}
