import FixcastCore
import FoundationEssentials

/// One service's HTTP back-off (`RetryBackoff`, the rule), kept where every fixcast process sees it:
/// in the store's state under `key`, so that a `fixcast now` right after a 429 obeys it too, or in
/// this process's memory when there is no store. A store that cannot be read reads as "no back-off":
/// fixcast then asks once more rather than falling silent. The weather service holds one, the alert
/// service one per source.
actor SavedBackoff {
    let key: String
    private let state: (any StateStore)?
    private var memory = RetryBackoff()

    init(key: String, state: (any StateStore)?) {
        self.key = key
        self.state = state
    }

    /// The back-off in force.
    func current() async -> RetryBackoff {
        guard let state else { return memory }
        guard let text = try? await state.state(key), let stored = RetryBackoff(stateText: text) else {
            return RetryBackoff()
        }
        return stored
    }

    /// The instant before which no request may be made, or nil when one may be made at `now`.
    func heldUntil(now: Date) async -> Date? {
        let backoff = await current()
        return backoff.allowsRequest(now: now) ? nil : backoff.notBefore
    }

    /// An answer came: the back-off ends (written only when there was one to end).
    func recordSuccess() async {
        var backoff = await current()
        guard backoff.failures > 0 || backoff.notBefore != nil else { return }
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

    private func save(_ value: RetryBackoff) async {
        memory = value
        let text = value.failures == 0 && value.notBefore == nil ? nil : value.stateText
        try? await state?.setState(key, text)
    }
}
