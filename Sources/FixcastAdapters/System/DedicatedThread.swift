#if canImport(Glibc)
    import Glibc
#endif

/// Work on a thread of its own (a detached pthread), named as `top -H` and `ps -L` show it.
///
/// For loops that block in system calls (libgps reads, timed sleeps): run on Swift's cooperative
/// pool they would hold one of its few threads (two on a two-core Pi) and starve every task.
package final class DedicatedThread: Sendable {
    let name: String
    private let body: @Sendable () -> Void

    private init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs `body` on a new thread; false when the system refuses one (the caller must say so).
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        DedicatedThread(name: name, body: body).launch()
    }

    private func launch() -> Bool {
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let work = Unmanaged<DedicatedThread>.fromOpaque(raw).takeRetainedValue()
                work.run()
                return nil
            }, box)
        guard rc == 0 else {
            Unmanaged<DedicatedThread>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private func run() {
        Self.nameThisThread(name)
        body()
    }

    /// Writing /proc/thread-self/comm does what `pthread_setname_np` does (Swift's Glibc module leaves
    /// that one out); Linux keeps at most 15 bytes.
    private static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        _ = Array(name.utf8.prefix(15)).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
