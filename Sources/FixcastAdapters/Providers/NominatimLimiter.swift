import FixcastCore
import FoundationEssentials

/// The one gate every Nominatim request of this process passes (OSMF usage policy: at most one request
/// per second). Wraps the pure `NominatimRateGate` with a monotonic clock and a sleep, and lets one
/// request through at a time, so the gate can space each request from the previous one's answer.
///
/// With a store (`run(sharedThrough:)`), the policy holds across processes too: each request also books
/// its slot in the store's `state` table (one transaction, `NominatimRateGate.sharedSlot`) on the wall
/// clock, waits for it, and records its answer's time there. A store that cannot be written (read-only,
/// locked beyond the busy timeout) leaves only the per-process spacing, as without a store.
public actor NominatimLimiter {
    /// The process-wide limiter; `NominatimPlaces` uses it unless a test passes its own.
    public static let shared = NominatimLimiter()

    /// 50 ms above the policy's second, for the difference between fixcast's clock and the server's.
    public static let safetyMargin: TimeInterval = 0.05

    private var gate: NominatimRateGate
    private let start = ContinuousClock.now
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The clock the shared slot is kept on: every process on the machine reads the same one.
    private let wallClock: any WallClock

    public init(
        spacing: TimeInterval = NominatimRateGate.policySpacing + NominatimLimiter.safetyMargin,
        wallClock: any WallClock = SystemClock()
    ) {
        gate = NominatimRateGate(minimumSpacing: spacing)
        self.wallClock = wallClock
    }

    /// Runs `request` when its turn comes: after every earlier request has finished and one spacing has
    /// passed since it started and since it finished; with `shared`, also one spacing after the latest
    /// request any other process on that store booked or saw answered.
    public func run<T: Sendable>(
        sharedThrough shared: (any AtomicStateStore)? = nil, _ request: @Sendable () async -> T
    ) async -> T {
        await acquire()
        await sleep(gate.reserve(now: now()))
        if let shared { await sleep(await bookSharedSlot(shared)) }
        let result = await request()
        gate.finished(at: now())
        if let shared { await recordSharedFinish(shared) }
        release()
        return result
    }

    /// Books the next shared slot; returns how long to wait for it (0 when the store cannot be used).
    private func bookSharedSlot(_ shared: any AtomicStateStore) async -> TimeInterval {
        let gate = self.gate
        let clock = wallClock
        let delay = try? await shared.updateState(NominatimRateGate.sharedStateKey) { text in
            // Read the clock inside the transaction: the lock may have been waited for.
            let booking = gate.sharedSlot(after: NominatimRateGate.sharedStateTime(text), now: clock.now())
            return (NominatimRateGate.sharedStateText(booking.slot), booking.delay)
        }
        return delay ?? 0
    }

    /// Records this request's answer time, so a process booking after it spaces from the answer.
    private func recordSharedFinish(_ shared: any AtomicStateStore) async {
        let clock = wallClock
        _ = try? await shared.updateState(NominatimRateGate.sharedStateKey) { text in
            let latest = NominatimRateGate.sharedLatest(
                stored: NominatimRateGate.sharedStateTime(text), finished: clock.now())
            return (NominatimRateGate.sharedStateText(latest), ())
        }
    }

    private func sleep(_ delay: TimeInterval) async {
        guard delay > 0 else { return }
        // Not cancellable on purpose: a cancelled waiter that sent early would break the spacing.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            ThreadExecutor.tasks.after(seconds: delay) { continuation.resume() }
        }
    }

    private func acquire() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next waiter in arrival order (busy stays true), or frees the gate.
    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    private func now() -> Date {
        let elapsed = ContinuousClock.now - start
        return Date(
            timeIntervalSinceReferenceDate: Double(elapsed.components.seconds)
                + Double(elapsed.components.attoseconds) / 1e18)
    }
}
