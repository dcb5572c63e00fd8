import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A stop request for a dedicated thread, and the thread's way to sleep: `wait` blocks in poll(2) on a
/// pipe that `stop()` writes to, so a stop wakes the thread at once and a thread with nothing to do
/// never wakes at all (no polling every few hundred milliseconds; on a Pi, idle means idle).
package final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    /// The pipe's ends; -1 when the system gave no pipe (then `wait` sleeps in short slices instead).
    private let readEnd: Int32
    private let writeEnd: Int32
    /// Without a pipe, the longest a stop can go unnoticed.
    private static let sliceMs: Int32 = 250

    package init() {
        let ends = Syscall.nonBlockingPipe()
        readEnd = ends?.readEnd ?? -1
        writeEnd = ends?.writeEnd ?? -1
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    package func stop() {
        guard !flag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if writeEnd >= 0 {
            var byte: UInt8 = 1
            _ = Syscall.write(writeEnd, &byte, 1)
        }
    }

    package var isStopped: Bool { flag.load(ordering: .acquiring) }

    /// Sleeps until `seconds` have passed (nil: no time limit), `fd` is readable, or `stop()` is
    /// called, whichever comes first. True when `fd` is readable (or failed: a read will tell).
    @discardableResult
    package func wait(seconds: Double?, orReadable fd: Int32? = nil) -> Bool {
        var deadline: Double?
        if let seconds { deadline = Self.monotonicSeconds() + max(0, seconds) }
        while !isStopped {
            var timeoutMs: Int32 = -1
            if let deadline {
                let left = deadline - Self.monotonicSeconds()
                if left <= 0 { return false }
                timeoutMs = Int32(min(left * 1000, 3_600_000).rounded(.up))
            }
            if readEnd < 0 { timeoutMs = timeoutMs < 0 ? Self.sliceMs : min(timeoutMs, Self.sliceMs) }
            var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
            if let fd { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let n = Syscall.poll(&fds, timeoutMs: timeoutMs)
            if n > 0, fds.count > 1, fds[1].revents != 0 { return true }
            if n < 0 { return fd != nil }  // let the caller's read find the error
        }
        return false
    }

    package static func monotonicSeconds() -> Double { Syscall.monotonicSeconds() }
}
