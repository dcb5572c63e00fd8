import FixcastCore
import FoundationEssentials

/// Writes the thinned track to the store in batches: fixes that the thinning policy accepted are
/// held for at most `commitInterval` (1 s) and then committed in one transaction.
///
/// One transaction a second instead of one per fix is what makes a 10 Hz receiver cheap (a
/// commit costs a WAL append and, at checkpoints, an fsync), and it bounds what a kill -9 can
/// lose to the last uncommitted second. Call `flush()` on shutdown.
public actor TrackRecorder {
    private let store: SQLiteStore
    private let commitInterval: Duration
    private var pending: [Fix] = []
    private var scheduledCommit: Task<Void, Never>?
    private let onError: @Sendable (StorageError) -> Void
    /// Fixes kept while the disk refuses writes (full, read-only): about an hour at one a second;
    /// the oldest go first, so the newest track survives.
    static let maxPending = 4_000

    /// The last failed commit, or nil once a commit succeeded again.
    public private(set) var lastError: StorageError?

    /// `onError` hears every failed commit (the agent shows it on the status line and keeps going).
    public init(
        store: SQLiteStore, commitInterval: Duration = .seconds(1),
        onError: @escaping @Sendable (StorageError) -> Void = { _ in }
    ) {
        self.store = store
        self.commitInterval = commitInterval
        self.onError = onError
    }

    /// Queues one accepted fix; it is committed within `commitInterval`.
    public func record(_ fix: Fix) {
        record(contentsOf: [fix])
    }

    /// Queues accepted fixes, oldest first; they are committed within `commitInterval`. One call for
    /// many fixes: each call to an actor is a task switch, which at 10 Hz costs more than the fix.
    public func record(contentsOf fixes: [Fix]) {
        guard !fixes.isEmpty else { return }
        pending.append(contentsOf: fixes)
        if pending.count > Self.maxPending { pending.removeFirst(pending.count - Self.maxPending) }
        if scheduledCommit == nil {
            let interval = commitInterval
            scheduledCommit = Task { [weak self] in
                try? await Task.sleep(for: interval)
                await self?.commitScheduled()
            }
        }
    }

    /// Commits these fixes now, after any a failed commit left pending, in one transaction: for a caller
    /// that batches already (the agent hands over the thinned points of each GPS batch, about one a
    /// second). One actor call and no timer, where `record` + `flush` would arm and cancel one.
    public func commit(_ fixes: [Fix]) async throws(StorageError) {
        pending.append(contentsOf: fixes)
        if pending.count > Self.maxPending { pending.removeFirst(pending.count - Self.maxPending) }
        try await flush()
    }

    /// Fixes waiting for their commit.
    public var pendingCount: Int { pending.count }

    /// Commits what is pending now (shutdown, SIGTERM); throws when the store refuses.
    public func flush() async throws(StorageError) {
        scheduledCommit?.cancel()
        scheduledCommit = nil
        try await commit()
    }

    private func commitScheduled() async {
        scheduledCommit = nil
        do {
            try await commit()
        } catch {
            onError(error)
        }
        // Fixes that failed stay pending; try again a second later rather than never.
        if !pending.isEmpty, scheduledCommit == nil, lastError != nil {
            let interval = commitInterval
            scheduledCommit = Task { [weak self] in
                try? await Task.sleep(for: interval)
                await self?.commitScheduled()
            }
        }
    }

    private func commit() async throws(StorageError) {
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
}
