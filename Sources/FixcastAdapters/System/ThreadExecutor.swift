import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An executor that runs its jobs on one thread of its own, in one of two roles:
///
/// - `.actor`: the serial executor of an actor whose work blocks in system calls (SQLite's reads,
///   writes and fsyncs). Swift's cooperative pool has one thread per core (two on a Pi): a blocking
///   SQLite commit there stalls every task. An actor that returns this executor from `unownedExecutor`
///   runs all of its isolated code on this thread instead (DESIGN.md: "SQLite on one thread of its own").
/// - `.tasks`: the task executor every fixcast task prefers (`ThreadExecutor.tasks`), so that fixcast's
///   async code never runs on Swift's global concurrent executor. On Linux that executor is libdispatch's
///   worker pool, and the first job a pool worker runs starts libdispatch's pool monitor: a timer on its
///   manager thread that fires every second for the rest of the process (swift-corelibs-libdispatch,
///   src/event/workqueue.c, `_dispatch_workq_init_once`). For `fixcast run` that was 10 of its 12 idle
///   wake-ups in 10 s and 54 of its 120 context switches a minute at 1 Hz (bench/README.md, issue 10).
///   One thread is enough: fixcast's async code waits (curl transfers run on threads of their own,
///   SQLite on the store's, gpsd on the agent loop's) and computes little.
///
/// Plain closures can be queued too (`execute`), so a caller that is not async (the agent's event loop)
/// can hand work over without a task, and timed ones (`after`) replace `Task.sleep`, whose timer is the
/// global executor's. The thread sleeps on a condition variable while there is nothing to do (until the
/// next timer, if one is set), and ends after `shutdown()` once its queue is empty and no timer is left.
public final class ThreadExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {  // state is behind `mutex`
    /// What the executor's jobs are: an actor's isolated code, or tasks that prefer it.
    public enum Role: Sendable {
        case actor
        case tasks
    }

    private enum Work {
        case job(UnownedJob)
        case closure(() -> Void)
    }

    private struct Timer {
        let due: Double
        let body: @Sendable () -> Void
    }

    /// The executor every task fixcast starts prefers (`ThreadExecutor.tasks.startTask { … }`);
    /// child tasks (`async let`, task groups) inherit the preference, and default actors honour it.
    public static let tasks = ThreadExecutor(name: "fixcast-tasks", role: .tasks)

    // Allocated, not stored properties passed as `&mutex`: pthreads needs the address of a mutex and a
    // condition to stay put, and Swift does not promise that of a stored property's inout address.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)
    private let condition: UnsafeMutablePointer<pthread_cond_t> = .allocate(capacity: 1)
    private var queue: [Work] = []
    private var head = 0
    private var timers: [Timer] = []
    private var stopping = false
    private var running = false
    /// The thread running jobs now (set while it drains), for `checkIsolated`.
    private var owner: pthread_t?
    public let name: String
    public let role: Role

    public init(name: String, role: Role = .actor) {
        self.name = name
        self.role = role
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        // Timed waits count on CLOCK_MONOTONIC, so that setting the wall clock neither fires a timer
        // early nor holds it back.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    /// Runs `body` on this executor's thread, after what is queued already.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        push(.closure(body))
    }

    /// Runs `body` on this executor's thread once `seconds` have passed (at once when not positive).
    public func after(seconds: Double, _ body: @escaping @Sendable () -> Void) {
        guard seconds > 0, seconds.isFinite else { return execute(body) }
        pthread_mutex_lock(mutex)
        timers.append(Timer(due: Syscall.monotonicSeconds() + seconds, body: body))
        pthread_mutex_unlock(mutex)
        push(nil)
    }

    /// Suspends the calling task for `seconds`, or until it is cancelled, on this executor's timer:
    /// `Task.sleep` would time it on the global executor (see `.tasks`).
    public func sleep(seconds: Double) async {
        let wake = SleepWake()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                guard wake.arm(continuation) else { return }
                after(seconds: seconds) { wake.fire() }
            }
        } onCancel: {
            wake.fire()
        }
    }

    /// Runs `body` as a task that prefers this executor and blocks the calling thread until it ends:
    /// the process's entry point, which must not be an async `main` (that one starts on the global
    /// executor).
    public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        // A semaphore is a futex, not libdispatch's pool: waiting on one starts no worker.
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        startTask {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        // Signalled only after the value was stored.
        guard let value = result.withLock({ $0 }) else { preconditionFailure("the task ended without a value") }
        return value
    }

    /// Starts a task that prefers this executor: the one way fixcast starts a task. A bare `Task { }`
    /// or `Task.detached` would run on Swift's global executor and bring back libdispatch's
    /// once-a-second pool monitor (see `.tasks`); TaskStartDisciplineTests reads Sources and fails on one.
    @discardableResult
    public func startTask<Success: Sendable>(_ operation: sending @escaping () async -> Success) -> Task<Success, Never>
    {
        Task(executorPreference: self, operation: operation)  // task-start: the one allowed
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the calling thread is the one draining this executor (so `assumeIsolated` in a closure
    /// queued with `execute` is honest). A call from elsewhere is a programming error, and stops.
    public func checkIsolated() {
        pthread_mutex_lock(mutex)
        let here = owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        pthread_mutex_unlock(mutex)
        precondition(here, "\(name): isolated code ran off its thread")
    }

    /// Lets the thread end once the queue is empty and no timer is left. Work queued later starts a
    /// new thread.
    public func shutdown() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Queues `work` (nil: only wakes the thread, for a new timer) and starts the thread if none runs.
    private func push(_ work: Work?) {
        pthread_mutex_lock(mutex)
        if let work { queue.append(work) }
        stopping = false
        var start = false
        if !running {
            running = true
            start = true
        }
        pthread_mutex_unlock(mutex)
        // Signalled after the unlock: the woken thread (on the other core at once) takes the mutex
        // free instead of finding it held and waiting on it, which cost each hand-over two more futex
        // calls, one on each side (bench/README.md, 2026-12-02). The queue was changed under the
        // mutex, and the waiter looks at it under the mutex before it waits, so no wake-up is lost.
        pthread_cond_signal(condition)
        if start, !DedicatedThread.start(name: name, { self.drain() }) {
            // No thread to be had: run here rather than never (the caller waits, but nothing is lost).
            pthread_mutex_lock(mutex)
            running = false
            pthread_mutex_unlock(mutex)
            drainInline()
        }
    }

    /// The next job or closure, the due timers first; waits for one when `waiting`.
    private func next(waiting: Bool) -> Work? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            let first = timers.indices.min { timers[$0].due < timers[$1].due }
            if let first, timers[first].due <= Syscall.monotonicSeconds() {
                return .closure(timers.remove(at: first).body)
            }
            if head < queue.count { break }
            if !waiting || (stopping && timers.isEmpty) {
                running = waiting ? false : running
                return nil
            }
            if let first {
                let earliest = timers[first].due
                var deadline = timespec()
                let whole = earliest.rounded(.down)
                deadline.tv_sec = Int(whole)
                deadline.tv_nsec = min(999_999_999, Int(((earliest - whole) * 1e9).rounded(.up)))
                pthread_cond_timedwait(condition, mutex, &deadline)
            } else {
                pthread_cond_wait(condition, mutex)
            }
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
        case .job(let job):
            switch role {
            case .actor: job.runSynchronously(on: asUnownedSerialExecutor())
            case .tasks: job.runSynchronously(on: asUnownedTaskExecutor())
            }
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
        pthread_mutex_lock(mutex)
        owner = thread
        pthread_mutex_unlock(mutex)
    }
}

/// Resumes a sleeping task once: at its timer or at its cancellation, whichever comes first.
private final class SleepWake: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, fired: Bool)>((nil, false))

    /// Keeps `continuation` for `fire`; false (and resumed at once) when it fired already.
    func arm(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        let firedAlready = state.withLock { s -> Bool in
            if s.fired { return true }
            s.continuation = continuation
            return false
        }
        if firedAlready { continuation.resume() }
        return !firedAlready
    }

    func fire() {
        let waiting = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.fired = true
            defer { s.continuation = nil }
            return s.continuation
        }
        waiting?.resume()
    }
}
