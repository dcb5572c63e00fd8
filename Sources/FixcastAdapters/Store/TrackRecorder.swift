import FixcastCore
import FoundationEssentials

/// Writes the thinned track to the store, a batch at a time: each `commit` writes the fixes it is
/// given, after any that an earlier refused commit left, in one transaction.
///
/// The agent commits the points of each GPS batch (about a second of fixes) as it arrives. One
/// transaction a second instead of one per fix is what makes a 10 Hz receiver cheap (a commit costs
/// a WAL append and, at checkpoints, an fsync), and it bounds what a kill -9 can lose to the last
/// second. Fixes the disk refused are kept and go with the next commit, so a full or read-only disk
/// loses no track once it takes writes again.
public actor TrackRecorder {
    private let store: SQLiteStore
    private var pending: [Fix] = []
    /// Fixes kept while the disk refuses writes (full, read-only): about an hour at one a second;
    /// the oldest go first, so the newest track survives.
    static let maxPending = 4_000

    /// The last failed commit, or nil once a commit succeeded again.
    public private(set) var lastError: StorageError?

    public init(store: SQLiteStore) {
        self.store = store
    }

    /// Commits these fixes (oldest first), after any a refused commit left, in one transaction. One
    /// call for many fixes: each call to an actor is a task switch, which at 10 Hz costs more than
    /// the fix. When the store refuses, the fixes stay pending and the error is thrown.
    public func commit(_ fixes: [Fix]) async throws(StorageError) {
        pending.append(contentsOf: fixes)
        if pending.count > Self.maxPending { pending.removeFirst(pending.count - Self.maxPending) }
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        do {
            try await store.appendTrackPoints(batch)
            lastError = nil
        } catch {
            // Put the batch back in front of what arrived meanwhile.
            pending = Array((batch + pending).suffix(Self.maxPending))
            lastError = error
            throw error
        }
    }

    /// Fixes waiting for a commit (those a refused commit kept).
    public var pendingCount: Int { pending.count }
}
