import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A serial executor that runs its jobs on one thread of its own, for an actor whose work blocks in
/// system calls (SQLite's reads, writes and fsyncs).
///
/// Swift's cooperative pool has one thread per core (two on a Pi): a blocking SQLite commit there
/// stalls every task. An actor that returns this executor from `unownedExecutor` runs all of its
/// isolated code on this thread instead (DESIGN.md: "SQLite on one thread of its own"). Plain closures
/// can be queued too (`execute`), so a caller that is not async (the agent's event loop) can hand work
/// over without a task. The thread sleeps on a condition variable while there is nothing to do, and
/// ends after `shutdown()` once its queue is empty.
public final class ThreadExecutor: SerialExecutor, @unchecked Sendable {  // state is behind `lock`
    private enum Work {
        case job(UnownedJob)
        case closure(() -> Void)
    }

    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var queue: [Work] = []
    private var head = 0
    private var stopping = false
    private var running = false
    /// The thread running jobs now (set while it drains), for `checkIsolated`.
    private var owner: pthread_t?
    public let name: String

    public init(name: String) {
        self.name = name
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    /// Runs `body` on this executor's thread, after what is queued already.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        push(.closure(body))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the calling thread is the one draining this executor (so `assumeIsolated` in a closure
    /// queued with `execute` is honest). A call from elsewhere is a programming error, and stops.
    public func checkIsolated() {
        pthread_mutex_lock(&mutex)
        let here = owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        pthread_mutex_unlock(&mutex)
        precondition(here, "\(name): isolated code ran off its thread")
    }

    /// Lets the thread end once the queue is empty. Work queued later starts a new thread.
    public func shutdown() {
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    private func push(_ work: Work) {
        pthread_mutex_lock(&mutex)
        queue.append(work)
        stopping = false
        var start = false
        if !running {
            running = true
            start = true
        }
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
        if start, !DedicatedThread.start(name: name, { self.drain() }) {
            // No thread to be had: run here rather than never (the caller waits, but nothing is lost).
            pthread_mutex_lock(&mutex)
            running = false
            pthread_mutex_unlock(&mutex)
            drainInline()
        }
    }

    private func next(waiting: Bool) -> Work? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while head == queue.count {
            if !waiting || stopping {
                running = waiting ? false : running
                return nil
            }
            pthread_cond_wait(&condition, &mutex)
        }
        let work = queue[head]
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return work
    }

    private func run(_ work: Work) {
        switch work {
        case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
        case .closure(let body): body()
        }
    }

    private func drain() {
        setOwner(pthread_self())
        while let work = next(waiting: true) { run(work) }
    }

    private func drainInline() {
        setOwner(pthread_self())
        while let work = next(waiting: false) { run(work) }
        setOwner(nil)
    }

    private func setOwner(_ thread: pthread_t?) {
        pthread_mutex_lock(&mutex)
        owner = thread
        pthread_mutex_unlock(&mutex)
    }
}
