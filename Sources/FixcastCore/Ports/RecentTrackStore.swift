import FoundationEssentials

/// What weather ahead reads of the stored track (it learns the speed and the course from it). The
/// SQLite store implements it.
public protocol RecentTrackStore: Sendable {
    /// The track points received at or after `since`, oldest first; an implementation may keep only
    /// the newest of them (the SQLite store: `recentTrackLimit`, 2,000, more than 20 minutes at 1/s).
    func recentTrack(since: Date) async throws(StorageError) -> [Fix]
}
