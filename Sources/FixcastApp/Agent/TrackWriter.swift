import Dispatch
import FixcastCore
import Synchronization

/// Writes what the agent's reducer asks to keep — thinned track points and the last-known position —
/// on the store's own thread, so the event loop never waits for a disk.
///
/// Points the disk refuses (full, read-only) are kept and go with the next write, so no track is lost
/// once the disk takes writes again; a change between "failing" and "working" is reported to the loop
/// (as `.storageProblem`) once, not per write.
final class TrackWriter: Sendable {
    private let store: any AgentStore
    private let report: @Sendable (ReadingIssue?) -> Void
    /// Touched only on the store's thread (inside `store.perform`).
    private let pending = Mutex<[Fix]>([])
    /// The last-known position of a write the disk refused, kept for the next write as the points are.
    private let pendingLastKnown = Mutex<Position?>(nil)
    private let failing = Mutex<Bool>(false)
    /// Fixes kept while the disk refuses writes: about an hour at one kept point a second; the oldest
    /// go first, so the newest track survives.
    static let maxPending = 4_000

    init(store: any AgentStore, report: @escaping @Sendable (ReadingIssue?) -> Void) {
        self.store = store
        self.report = report
    }

    /// Writes these track points and, when given, the last-known position, in one hand-over to the
    /// store's thread (one wake-up of it, not one per point: on a Pi, wake-ups are battery).
    func write(points: [Fix], lastKnown: Position?) {
        guard !points.isEmpty || lastKnown != nil else { return }
        store.perform { store in
            self.outcome(self.writeWithKept(store, points: points, lastKnown: lastKnown))
        }
    }

    /// On the store's thread: what the disk refused before, then `points`, with `lastKnown` (else a
    /// refused one), in one transaction (one commit); what it refuses now is kept for the next write.
    /// nil when written (or nothing was there to write), else the problem.
    private func writeWithKept(_ store: isolated any AgentStore, points: [Fix], lastKnown: Position?) -> ReadingIssue? {
        let batch = pending.withLock { p -> [Fix] in
            p.append(contentsOf: points)
            if p.count > Self.maxPending { p.removeFirst(p.count - Self.maxPending) }
            defer { p.removeAll(keepingCapacity: true) }
            return p
        }
        let position = pendingLastKnown.withLock { kept in
            defer { kept = nil }
            return lastKnown ?? kept
        }
        guard !batch.isEmpty || position != nil else { return nil }
        do throws(StorageError) {
            try store.appendTrackPoints(batch, lastKnown: position)
            return nil
        } catch {
            keep(batch, position)
            return ReadingIssue(error)
        }
    }

    /// A refused write's points and position, kept for the next write (the newest `maxPending` points).
    private func keep(_ batch: [Fix], _ position: Position?) {
        pending.withLock { p in p = Array((batch + p).suffix(Self.maxPending)) }
        if let position { pendingLastKnown.withLock { kept in kept = kept ?? position } }
    }

    func record(_ fix: Fix) { write(points: [fix], lastKnown: nil) }

    func saveLastKnown(_ position: Position) { write(points: [], lastKnown: position) }

    /// Points waiting because the disk refused them.
    var pendingCount: Int { pending.withLock { $0.count } }

    /// At the stop: after every write handed over so far, one more try of what the disk refused,
    /// waited for up to `timeoutS`. nil when everything kept is in the store; else why not (it is lost
    /// with the process), for the exit code and stderr.
    func finish(timeoutS: Double) -> ReadingIssue? {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<ReadingIssue?>(nil)
        store.perform { store in
            let problem = self.writeWithKept(store, points: [], lastKnown: nil)
            result.withLock { $0 = problem }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeoutS) == .success else {
            return ReadingIssue(
                component: .storage,
                message:
                    "storage: the disk did not finish the last writes (track points, the last-known position) within \(Int(timeoutS)) s, so they may be lost; check the disk holding the store."
            )
        }
        return result.withLock { $0 }
    }

    private func outcome(_ issue: ReadingIssue?) {
        let changed = failing.withLock { f -> Bool in
            defer { f = issue != nil }
            return f != (issue != nil)
        }
        if changed { report(issue) }
    }
}
