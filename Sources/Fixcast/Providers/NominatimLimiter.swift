import FixcastCore
import FoundationEssentials

/// The one gate every Nominatim request of this process passes (OSMF usage policy: at most one request
/// per second). Wraps the pure `NominatimRateGate` with a monotonic clock and a sleep, and lets one
/// request through at a time, so the gate can space each request from the previous one's answer.
public actor NominatimLimiter {
    /// The process-wide limiter; `NominatimPlaces` uses it unless a test passes its own.
    public static let shared = NominatimLimiter()

    /// 50 ms above the policy's second, for the difference between fixcast's clock and the server's.
    public static let safetyMargin: TimeInterval = 0.05

    private var gate: NominatimRateGate
    private let start = ContinuousClock.now
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(spacing: TimeInterval = NominatimRateGate.policySpacing + NominatimLimiter.safetyMargin) {
        gate = NominatimRateGate(minimumSpacing: spacing)
    }

    /// Runs `request` when its turn comes: after every earlier request has finished and one spacing has
    /// passed since it started and since it finished.
    public func run<T: Sendable>(_ request: @Sendable () async -> T) async -> T {
        await acquire()
        let delay = gate.reserve(now: now())
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
        let result = await request()
        gate.finished(at: now())
        release()
        return result
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
