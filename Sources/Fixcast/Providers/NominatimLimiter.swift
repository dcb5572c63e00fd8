import FoundationEssentials
import FixcastCore

/// The one gate every Nominatim request of this process passes (OSMF usage policy: at most one request
/// per second). Wraps the pure `NominatimRateGate` with a monotonic clock and a sleep.
///
/// The spacing is the policy's 1 s plus 100 ms, because the gate sees when fixcast sends and the server
/// sees when the request arrives: connection set-up of one request may take longer than the next one's.
public actor NominatimLimiter {
    /// The process-wide limiter; `NominatimPlaces` uses it unless a test passes its own.
    public static let shared = NominatimLimiter()

    public static let safetyMargin: TimeInterval = 0.1

    private var gate: NominatimRateGate
    private let start = ContinuousClock.now

    public init(spacing: TimeInterval = NominatimRateGate.policySpacing + NominatimLimiter.safetyMargin) {
        gate = NominatimRateGate(minimumSpacing: spacing)
    }

    /// Returns when this caller may send. The slot is booked before sleeping, so callers that arrive
    /// together leave one spacing apart, in arrival order.
    public func waitForTurn() async {
        let elapsed = ContinuousClock.now - start
        let now = Date(timeIntervalSinceReferenceDate: Double(elapsed.components.seconds)
            + Double(elapsed.components.attoseconds) / 1e18)
        let delay = gate.reserve(now: now)
        if delay > 0 {
            // Not cancellable on purpose: a cancelled waiter that sent early would break the spacing.
            let nanos = UInt64((delay * 1e9).rounded(.up))
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Task.detached {
                    try? await Task.sleep(nanoseconds: nanos)
                    continuation.resume()
                }
            }
        }
    }
}
