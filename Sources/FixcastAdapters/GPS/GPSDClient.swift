internal import CGPS
import FixcastCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Follows gpsd on a thread of its own and hands its events to async code (`fixcast status`'s probe, tests):
/// a `GPSDConnection` driven by a pthread, never by Swift's cooperative pool (libgps blocks).
///
/// It sleeps in poll(2) on gpsd's socket and a stop pipe (`StopSignal`), so it wakes only when gpsd
/// sends or on `stop()`: an idle client costs nothing. (`fixcast run` needs no such thread: its event
/// loop polls the connection itself.)
/// When gpsd goes away or restarts it reconnects with `ReconnectBackoff` (1 s doubling to 30 s) and
/// carries on by itself: a restarted gpsd never needs a restarted fixcast.
///
/// Usage: `let c = GPSDClient(address: a); c.start(); for await batch in c.events { … }; c.stop()`.
public final class GPSDClient: Sendable {
    public let address: GPSDAddress
    /// Every event, in order, in batches: what one read of the socket brought (often a single event).
    /// Finishes after `stop()` (or when the consumer stops
    /// listening). Empty when the client was made with `deliver`.
    public let events: AsyncStream<[GPSEvent]>

    private let continuation: AsyncStream<[GPSEvent]>.Continuation
    private let deliver: (@Sendable ([GPSEvent]) -> Void)?
    private let clock: any WallClock
    private let backoff: ReconnectBackoff
    private let signal: StopSignal
    private let started = Atomic<Bool>(false)
    private let maxSpeedMps: Double
    private let rejections = Mutex(RejectedFixCounts())

    /// With `deliver`, batches go to it, called on the reader thread, instead of to `events`: for a
    /// consumer with a stream of its own (the agent), which saves a task and its wake-up per batch.
    public init(
        address: GPSDAddress, clock: any WallClock = SystemClock(), backoff: ReconnectBackoff = ReconnectBackoff(),
        deliver: (@Sendable ([GPSEvent]) -> Void)? = nil, maxSpeedMps: Double = FixPlausibility.defaultMaxSpeedMps
    ) {
        self.maxSpeedMps = maxSpeedMps
        self.address = address
        self.clock = clock
        self.backoff = backoff
        self.deliver = deliver
        let signal = StopSignal()
        self.signal = signal
        (events, continuation) = AsyncStream.makeStream(of: [GPSEvent].self, bufferingPolicy: .bufferingNewest(1024))
        if deliver == nil {
            continuation.onTermination = { _ in signal.stop() }
        } else {
            continuation.finish()
        }
    }

    /// The fixes dropped as implausible since `start()`, by reason (for `status`, via the store).
    public var rejectedFixes: RejectedFixCounts { rejections.withLock { $0 } }

    private func send(_ batch: [GPSEvent]) {
        if let deliver { deliver(batch) } else { continuation.yield(batch) }
    }

    deinit {
        signal.stop()
    }

    /// Starts the reader thread (once; later calls do nothing).
    public func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        if !DedicatedThread.start(name: "fixcast-gpsd", { self.readLoop() }) {
            // No thread: nothing will ever arrive; say so and end the stream rather than hang.
            send(
                [.disconnected(.unreachable(address: address.description, detail: "cannot start a thread"))])
            continuation.finish()
        }
    }

    /// Stops the reader (it wakes at once and closes its connection) and ends `events`.
    public func stop() {
        signal.stop()
        continuation.finish()
    }

    // MARK: - The reader thread

    private func readLoop() {
        var backoff = self.backoff
        let connection = GPSDConnection(address: address, clock: clock, maxSpeedMps: maxSpeedMps)
        defer { continuation.finish() }
        var batch: [GPSEvent] = []
        while !signal.isStopped {
            send([connection.open()])
            guard connection.isOpen, let fd = connection.descriptor else {
                signal.wait(seconds: backoff.nextDelay())
                continue
            }
            // Sleep until gpsd sends (or a stop), then hand over everything that came.
            while !signal.isStopped {
                if !connection.hasBufferedReport, !signal.wait(seconds: nil, orReadable: fd) { continue }
                if signal.isStopped { break }
                let alive = connection.readAvailable(into: &batch)
                let rejected = connection.rejectedFixes
                rejections.withLock { $0 = rejected }
                // gpsd answered (its first report): the back-off starts again from its shortest delay.
                if batch.contains(where: { if case .connected = $0 { true } else { false } }) { backoff.reset() }
                if !batch.isEmpty { send(batch) }
                batch.removeAll(keepingCapacity: true)
                if !alive {
                    send([.disconnected(connection.lossError)])
                    signal.wait(seconds: backoff.nextDelay())
                    break
                }
            }
        }
        connection.close()
    }
}
