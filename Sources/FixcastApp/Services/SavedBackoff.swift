import FixcastCore
import FoundationEssentials

/// One service's HTTP back-off (`RetryBackoff`, the rule), kept where every fixcast process sees it:
/// in the store's state under `key`, so that a `fixcast now` right after a 429 obeys it too, and in
/// this process's memory. A store that cannot be read, or refused the last write (a full SD card, a
/// read-only file), leaves this process obeying what the server told it: the copy in memory counts,
/// the stricter of it and the store's (`RetryBackoff.stricter`). A store with nothing readable, and
/// no answer in this process, reads as "no back-off", so fixcast asks once more rather than falling
/// silent. The weather service holds one, the place service one for Nominatim, the alert service one
/// per source.
actor SavedBackoff {
    let key: String
    private let state: (any StateStore)?
    private var memory = RetryBackoff()
    /// Whether the store refused the last write of `memory`: then the store's copy is not the whole story.
    private var unsaved = false

    init(key: String, state: (any StateStore)?) {
        self.key = key
        self.state = state
    }

    /// The back-off in force.
    func current() async -> RetryBackoff {
        guard let state else { return memory }
        let text: String?
        do {
            text = try await state.state(key)
        } catch {
            return memory
        }
        let stored = text.flatMap(RetryBackoff.init(stateText:)) ?? RetryBackoff()
        guard unsaved else { return stored }
        // An answer this process had and could not write ended the back-off: the store's copy is older
        // (its failures would make the next wait longer than the server asked for).
        if memory.isClear { return memory }
        return RetryBackoff.stricter(memory, stored)
    }

    /// The instant before which no request may be made, or nil when one may be made at `now`.
    func heldUntil(now: Date) async -> Date? {
        let backoff = await current()
        return backoff.allowsRequest(now: now) ? nil : backoff.notBefore
    }

    /// An answer came: the back-off ends (written only when there was one to end).
    func recordSuccess() async {
        var backoff = await current()
        guard !backoff.isClear else { return }
        backoff.recordSuccess()
        await save(backoff)
    }

    /// An HTTP status came back; one `backsOff` names (429 and 5xx: `RetryBackoff.backsOff`; Nominatim
    /// adds 403) starts or lengthens the back-off, others change nothing.
    func recordFailure(
        status: Int, retryAfter: String?, now: Date, backsOff: (Int) -> Bool = RetryBackoff.backsOff(status:)
    ) async {
        guard backsOff(status) else { return }
        var backoff = await current()
        backoff.recordFailure(status: status, retryAfter: retryAfter, now: now, backsOff: backsOff)
        await save(backoff)
    }

    /// Kept in memory first: a store that refuses the write (`current` then still finds it) costs
    /// only the other processes' sight of it.
    private func save(_ value: RetryBackoff) async {
        memory = value
        guard let state else { return }
        let text = value.isClear ? nil : value.stateText
        do {
            try await state.setState(key, text)
            unsaved = false
        } catch {
            unsaved = true
        }
    }
}
