internal import CSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The event loop's doorbell: a non-blocking pipe whose read end sits in the loop's poll(2) set.
///
/// Two things ring it. Signals, routed here by a C handler that writes the signal's number as one
/// byte (the classic self-pipe: the only async-signal-safe way to wake a poll), and other threads
/// (a finished reading) that queued an event for the loop, which write a 0. The loop reads the bytes
/// and learns which signals came, in order; nothing is decided in a signal handler.
public final class LoopDoorbell: Sendable {
    public let readEnd: Int32
    private let writeEnd: Int32

    /// nil when the system gives no pipe (out of descriptors): the caller says so and cannot run.
    public init?() {
        guard let ends = Syscall.nonBlockingPipe() else { return nil }
        (readEnd, writeEnd) = ends
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the loop from another thread (a full pipe is fine: the loop is awake then anyway).
    public func ring() {
        var byte: UInt8 = 0
        _ = Syscall.write(writeEnd, &byte, 1)
    }

    /// Routes each of `signals` to this doorbell (see `csystem_route_signal_to_pipe`). False when one
    /// could not be routed.
    @discardableResult
    public func route(signals: [Int32]) -> Bool {
        var ok = true
        for s in signals where csystem_route_signal_to_pipe(s, writeEnd) != 0 { ok = false }
        return ok
    }

    /// Blocks SIGUSR1, SIGHUP, SIGINT and SIGTERM in this thread and every thread started after it:
    /// the first thing fixcast does, so that one of them sent before the agent's loop handles it
    /// waits instead of taking its default action (SIGUSR1's kills). The loop releases them on its own
    /// thread once they are routed (`releaseHeldSignals`); every other command releases them at once.
    public static func holdSignals() {
        _ = csystem_hold_agent_signals()
    }

    /// Unblocks the held signals in this thread (see `holdSignals`); the ones that came meanwhile are
    /// delivered now.
    public static func releaseHeldSignals() {
        _ = csystem_release_agent_signals()
    }

    /// Whether `signal` was ignored when fixcast started (`nohup` ignores SIGHUP): then it stays so.
    public static func isIgnored(_ signal: Int32) -> Bool {
        csystem_signal_is_ignored(signal) != 0
    }

    /// Puts `signals` back to their default action (at shutdown, or before a job-control stop).
    public static func restoreDefault(signals: [Int32]) {
        for s in signals { _ = csystem_default_signal(s) }
    }

    /// Reads every byte rung so far: the signal numbers in the order they came (0 bytes, rung by
    /// `ring`, are left out; `rung` says whether there were any).
    public func drain() -> (signals: [Int32], rung: Bool) {
        var signals: [Int32] = []
        var rung = false
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Syscall.read(readEnd, base, raw.count)
            }
            guard n > 0 else { break }
            for b in buffer.prefix(n) {
                if b == 0 { rung = true } else { signals.append(Int32(b)) }
            }
        }
        return (signals, rung)
    }
}
