import FixcastAdapters
/// The agent's once-a-second tick (periodic readings, the startup fix timeout, the suspend check, the
/// "updated N min ago" text), from a thread of its own that sleeps in poll(2) between ticks.
///
/// A `Task.sleep` loop does the same through Dispatch's timer thread: a timer re-armed every second
/// and two more thread wake-ups per tick, which was a fifth of a moving agent's CPU at 5 fixes a
/// second (bench/README.md). Ticks keep to a fixed schedule (start + n s), so they never drift.
final class SecondTicker: Sendable {
    private let signal = StopSignal()
    private let fallback: Task<Void, Never>?

    init(_ tick: @escaping @Sendable () -> Void) {
        let signal = self.signal
        let started = DedicatedThread.start(name: "fixcast-tick") {
            var next = StopSignal.monotonicSeconds()
            while !signal.isStopped {
                next += 1
                let now = StopSignal.monotonicSeconds()
                if next < now { next = now }  // fell behind (a stalled machine): no burst of catch-up ticks
                signal.wait(seconds: next - now)
                if signal.isStopped { break }
                tick()
            }
        }
        // No thread to be had: tick from a task instead; slower, never silent.
        fallback =
            started
            ? nil
            : Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    tick()
                }
            }
    }

    func cancel() {
        signal.stop()
        fallback?.cancel()
    }
}
