#if canImport(Glibc)
    import Glibc
#endif

/// The one place system calls that a signal can interrupt are retried: a call that fails with EINTR
/// is made again, any other failure is returned as is (with `errno` set) for the caller to name.
///
/// fixcast routes signals to handlers (SIGUSR1, SIGWINCH, SIGTSTP...), so any blocking call may come
/// back with EINTR even with SA_RESTART (poll(2) is never restarted, see signal(7)).
package enum Syscall {
    /// `body()` again while it returns -1 with EINTR.
    @inline(__always)
    package static func retrying<T: FixedWidthInteger>(_ body: () -> T) -> T {
        while true {
            let r = body()
            if r == -1 && errno == EINTR { continue }
            return r
        }
    }

    /// poll(2) over `fds` for at most `timeoutMs` (-1: no limit). An interruption by a signal counts
    /// as "nothing ready" (0), so the caller goes round its loop and reads its signal pipe.
    package static func poll(_ fds: inout [pollfd], timeoutMs: Int32) -> Int32 {
        let n = Glibc.poll(&fds, nfds_t(fds.count), timeoutMs)
        if n == -1 && errno == EINTR { return 0 }
        return n
    }

    /// read(2), retried on EINTR.
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        retrying { Glibc.read(fd, buffer, count) }
    }

    /// write(2), retried on EINTR.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        retrying { Glibc.write(fd, buffer, count) }
    }

    /// Seconds on CLOCK_MONOTONIC (never jumps with the wall clock).
    package static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
