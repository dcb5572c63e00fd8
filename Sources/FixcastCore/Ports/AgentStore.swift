import FoundationEssentials

/// What `run`'s event loop keeps in the store, and reads back from it once at start: the thinned track
/// with the last-known position, the alert ids already told, the rejected fixes' counts, the last
/// reading. The loop never waits for a disk, so it hands its work to the store's own thread
/// (`perform`) and the requirements are the store's own synchronous calls, made there. The SQLite
/// store implements it.
public protocol AgentStore: Actor {
    /// Runs `work` on the store's thread without a task, after the work handed over before it.
    nonisolated func perform(_ work: @escaping @Sendable (isolated Self) -> Void)
    /// Adds `handler`, called with the store's path each time the file at the path was found replaced
    /// and the store opened it anew.
    nonisolated func onReplaced(_ handler: @escaping @Sendable (String) -> Void)
    /// Appends `fixes` to the track and, when given, saves the last-known position: all or none.
    func appendTrackPoints(_ fixes: [Fix], lastKnown: Position?) throws(StorageError)
    /// Adds to the counts of fixes refused as implausible.
    func addRejectedFixes(_ counts: RejectedFixCounts) throws(StorageError)
    func state(_ key: String) throws(StorageError) -> String?
    func setState(_ key: String, _ value: String?) throws(StorageError)
    func lastKnownPosition() throws(StorageError) -> Position?
    /// The most recent reading, nil when none is stored.
    func lastReading() throws(StorageError) -> Reading?
}
