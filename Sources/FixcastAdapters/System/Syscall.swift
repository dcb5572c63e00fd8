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

    /// POLLRDHUP (Linux, `_GNU_SOURCE`, not visible to Swift): the peer closed its end. With POLLHUP
    /// and POLLERR, which poll(2) reports whatever is asked, the events of a socket watched for a
    /// hang-up only.
    package static let pollHangUp: Int16 = 0x2000

    /// open(2), retried on EINTR (opening a FIFO blocks until the other end opens, and a signal can
    /// cut that short).
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        retrying { Glibc.open(path, flags, mode) }
    }

    /// waitpid(2), retried on EINTR.
    package static func waitpid(_ pid: pid_t, _ status: inout Int32, _ options: Int32) -> pid_t {
        retrying { Glibc.waitpid(pid, &status, options) }
    }

    /// fsync(2), retried on EINTR.
    package static func fsync(_ fd: Int32) -> Int32 {
        retrying { Glibc.fsync(fd) }
    }

    /// read(2), retried on EINTR.
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        retrying { Glibc.read(fd, buffer, count) }
    }

    /// write(2), retried on EINTR.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        retrying { Glibc.write(fd, buffer, count) }
    }

    /// A pipe whose ends never block and are closed on exec (a wake-up channel for poll(2)); nil when
    /// the system has no descriptors left.
    package static func nonBlockingPipe() -> (readEnd: Int32, writeEnd: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    /// Seconds on CLOCK_MONOTONIC (never jumps with the wall clock).
    package static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
