import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastApp
@testable import FixcastTestSupport

/// The one saved HTTP back-off the weather and alert services share (issue 19 item 7).
@Suite struct SavedBackoffTests {
    actor MemoryState: StateStore {
        var values: [String: String] = [:]
        var failing = false
        var refusingWrites = false
        func state(_ key: String) async throws(StorageError) -> String? {
            if failing { throw .failed(path: "/p", detail: "d") }
            return values[key]
        }
        func setState(_ key: String, _ value: String?) async throws(StorageError) {
            if failing { throw .failed(path: "/p", detail: "d") }
            if refusingWrites { throw .readOnly(path: "/p") }
            values[key] = value
        }
        func stateHeads(prefix: String, length: Int) async throws(StorageError) -> [String: String] {
            if failing { throw .failed(path: "/p", detail: "d") }
            return values.filter { $0.key.hasPrefix(prefix) }.mapValues { String($0.prefix(length)) }
        }
        func fail() { failing = true }
        func refuseWrites() { refusingWrites = true }
    }

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aFailureHoldsRequestsBackAndIsSavedForTheNextProcess() async {
        let state = MemoryState()
        let backoff = SavedBackoff(key: "weather.backoff.x", state: state)
        #expect(await backoff.heldUntil(now: Self.t0) == nil)
        await backoff.recordFailure(status: 503, retryAfter: nil, now: Self.t0)
        #expect(await backoff.heldUntil(now: Self.t0) == Self.t0.addingTimeInterval(RetryBackoff.initialDelayS))
        #expect(await backoff.heldUntil(now: Self.t0.addingTimeInterval(RetryBackoff.initialDelayS)) == nil)
        // Another process (a new SavedBackoff on the same store) sees it.
        let next = SavedBackoff(key: "weather.backoff.x", state: state)
        #expect(await next.current().failures == 1)
        await next.recordFailure(status: 429, retryAfter: "120", now: Self.t0)
        #expect(await backoff.heldUntil(now: Self.t0) == Self.t0.addingTimeInterval(120))
        await backoff.recordSuccess()
        #expect(await state.values["weather.backoff.x"] == nil, "a success clears the saved state")
        #expect(await next.heldUntil(now: Self.t0) == nil)
    }

    @Test func statusesThatAreTheRequestsFaultChangeNothing() async {
        let state = MemoryState()
        let backoff = SavedBackoff(key: "k", state: state)
        await backoff.recordFailure(status: 404, retryAfter: "600", now: Self.t0)
        #expect(await state.values.isEmpty)
        #expect(await backoff.heldUntil(now: Self.t0) == nil)
    }

    @Test func withoutAStoreItLivesInMemory() async {
        let memory = SavedBackoff(key: "k", state: nil)
        await memory.recordFailure(status: 500, retryAfter: nil, now: Self.t0)
        #expect(await memory.heldUntil(now: Self.t0) != nil)
        await memory.recordSuccess()
        #expect(await memory.heldUntil(now: Self.t0) == nil)
    }

    /// A store that cannot be read leaves this process's own copy in force; a store with nothing in
    /// it and no answer in this process is no back-off.
    @Test func aStoreThatCannotBeReadLeavesThisProcesssCopyInForce() async {
        let state = MemoryState()
        let backoff = SavedBackoff(key: "k", state: state)
        await backoff.recordFailure(status: 500, retryAfter: nil, now: Self.t0)
        await state.fail()
        #expect(await backoff.heldUntil(now: Self.t0) == Self.t0.addingTimeInterval(RetryBackoff.initialDelayS))
        #expect(await SavedBackoff(key: "k", state: state).heldUntil(now: Self.t0) == nil)
    }

    /// A full disk or a read-only store refuses the write of a 429's Retry-After: before, the back-off
    /// read only the store, found nothing, and the next trigger asked again (Nominatim's 403 too).
    @Test func aStoreThatRefusesTheWriteStillHoldsRequestsBack() async {
        let state = MemoryState()
        await state.refuseWrites()
        let backoff = SavedBackoff(key: "k", state: state)
        await backoff.recordFailure(status: 429, retryAfter: "600", now: Self.t0)
        #expect(await state.values.isEmpty)
        #expect(await backoff.heldUntil(now: Self.t0.addingTimeInterval(599)) == Self.t0.addingTimeInterval(600))
        await backoff.recordFailure(
            status: 403, retryAfter: nil, now: Self.t0, backsOff: RetryBackoff.backsOffNominatim(status:))
        #expect(await backoff.current().failures == 2)
        // The store's copy, when it has a later deadline (another process's), wins over memory's.
        let shared = MemoryState()
        let mine = SavedBackoff(key: "k", state: shared)
        await mine.recordFailure(status: 503, retryAfter: nil, now: Self.t0)
        await SavedBackoff(key: "k", state: shared).recordFailure(status: 429, retryAfter: "900", now: Self.t0)
        #expect(await mine.heldUntil(now: Self.t0) == Self.t0.addingTimeInterval(900))
    }

    /// The store kept a back-off, then began to refuse writes; an answer ended it in this process: the
    /// store's older copy does not come back (its failures made the next wait longer than asked).
    @Test func anAnswerTheStoreCouldNotKeepStillEndsTheBackoff() async {
        let state = MemoryState()
        let backoff = SavedBackoff(key: "k", state: state)
        await backoff.recordFailure(status: 503, retryAfter: nil, now: Self.t0)
        await backoff.recordFailure(status: 503, retryAfter: nil, now: Self.t0.addingTimeInterval(100))
        #expect(await state.values["k"] != nil)
        await state.refuseWrites()
        await backoff.recordSuccess()
        #expect(await backoff.current().failures == 0)
        #expect(await backoff.heldUntil(now: Self.t0.addingTimeInterval(101)) == nil)
    }
}
