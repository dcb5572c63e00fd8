import FixcastCore
import FoundationEssentials

/// The implausible fixes each process dropped (`FixPlausibility`), added up in the `state` table
/// under `RejectedFixCounts.key` so that `status`, another process, can show them.
extension SQLiteStore {
    /// Adds `counts` to the stored totals, in one write transaction (two processes adding at once
    /// both count). Unreadable stored text (not fixcast's) starts again from `counts`.
    public func addRejectedFixes(_ counts: RejectedFixCounts) throws(StorageError) {
        guard counts.total > 0 else { return }
        try updateState(RejectedFixCounts.key) { stored in
            let total = (stored.flatMap(RejectedFixCounts.init(jsonText:)) ?? RejectedFixCounts()) + counts
            return (total.json.serialized(), ())
        }
    }

    /// The stored totals (zeros when none were ever stored).
    public func rejectedFixes() throws(StorageError) -> RejectedFixCounts {
        try state(RejectedFixCounts.key).flatMap(RejectedFixCounts.init(jsonText:)) ?? RejectedFixCounts()
    }
}
