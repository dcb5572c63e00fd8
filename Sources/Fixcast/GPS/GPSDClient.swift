import CGPS
import FixcastCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Follows gpsd: connects, asks for JSON reports (`?WATCH`), and turns them into `GPSEvent`s.
///
/// libgps blocks, so the client reads on a thread of its own (a pthread), never on Swift's
/// cooperative pool. It sleeps in poll(2) on gpsd's socket and a stop pipe (`StopSignal`), so it wakes
/// only when gpsd sends, when a batch is due, or on `stop()`: an idle client costs nothing.
/// When gpsd goes away or restarts it reconnects with `ReconnectBackoff` (1 s doubling to 30 s) and
/// carries on by itself: a restarted gpsd never needs a restarted fixcast.
///
/// Usage: `let c = GPSDClient(address: a); c.start(); for await batch in c.events { … }; c.stop()`.
public final class GPSDClient: Sendable {
    public let address: GPSDAddress
    /// Every event, in order, in batches: what one read of the socket brought (often a single event;
    /// up to a second of fixes, see `follow`). Finishes after `stop()` (or when the consumer stops
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
    /// Reports that can wait are read and handed over in batches at most this often (see `follow`).
    /// Every wake-up of the reader thread or of the agent costs more than the fix it carries (the
    /// wake-ups, not reading or parsing, were most of fixcast's CPU: bench/README.md). One second
    /// matches the live screen's redraw and the track's commit (a kill -9 loses at most the last
    /// second), and a second's delay is nothing to a reading that waits for 5 km of movement.
    static let batchWindowS = 1.0
    /// A bound on one drain, so a receiver sending faster than fixcast parses still gets handed over.
    static let maxReportsPerDrain = 512

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
        var filter = TPVFilter(maxSpeedMps: maxSpeedMps)
        var everConnected = false
        let label = address.description
        defer { continuation.finish() }

        while !signal.isStopped {
            var err: Int32 = 0
            guard let handle = cgps_open(address.host, String(address.port), &err) else {
                let detail = String(cString: cgps_errstr(err))
                send([
                    .disconnected(
                        everConnected ? .connectionLost(address: label) : .unreachable(address: label, detail: detail))
                ])
                signal.wait(seconds: backoff.nextDelay())
                continue
            }
            guard cgps_watch_json(handle) == 0 else {
                cgps_close(handle)
                send([.disconnected(.watchRefused(address: label))])
                signal.wait(seconds: backoff.nextDelay())
                continue
            }
            backoff.reset()
            filter.reset()
            everConnected = true
            send([.connected(address: label)])
            let lost = follow(handle, filter: &filter)
            cgps_close(handle)
            if lost {
                send([.disconnected(.connectionLost(address: label))])
                signal.wait(seconds: backoff.nextDelay())
            }
        }
    }

    /// Reads reports until stopped (false) or the connection is lost (true).
    ///
    /// Reads are coalesced: once a report has arrived that can wait (a fix after the first, a change
    /// of satellites), the thread sleeps out the rest of `batchWindowS` while gpsd's messages gather
    /// in the socket, then reads everything that is there (libgps takes up to 8 KB per `recv`) and
    /// hands it all over as one batch. gpxlogger wakes and makes two system calls for every gpsd
    /// message; this thread wakes about once a second whatever the receiver's rate (bench/run.sh
    /// compares the two).
    /// Nothing waits until fixes flow, so the first fix after connecting or after a lost fix goes the
    /// moment it arrives (`fixcast now` answers with it). A lost fix or a new device ends the batch
    /// it is read in and goes at once.
    private func follow(_ handle: OpaquePointer, filter: inout TPVFilter) -> Bool {
        var report = cgps_report()
        var device: String?
        var satellites: (used: Int?, visible: Int?) = (nil, nil)
        var batch: [GPSEvent] = []
        var waitingSince: Double?  // when the oldest event that can wait joined the batch
        var urgent = false
        var fixing = false  // a fix went out since connecting or since the last lost fix

        func deliver() {
            if !batch.isEmpty { send(batch) }
            batch.removeAll(keepingCapacity: true)
            waitingSince = nil
            urgent = false
        }
        func canWait(_ event: GPSEvent) {
            batch.append(event)
            // Until fixes flow, nothing is held back: the first fix must not wait behind a SKY report.
            if !fixing {
                urgent = true
            } else if waitingSince == nil {
                waitingSince = StopSignal.monotonicSeconds()
            }
        }
        func mustGo(_ event: GPSEvent) {
            batch.append(event)
            urgent = true
        }
        func take(_ report: cgps_report) {
            let got = report.got
            if got & Int32(CGPS_GOT_DEVICE) != 0 {
                let path = withUnsafeBytes(of: report.device) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if !path.isEmpty, path != device {
                    device = path
                    mustGo(.device(path))
                }
            }
            if got & Int32(CGPS_GOT_SKY) != 0 {
                let used = report.satellites_used >= 0 ? Int(report.satellites_used) : nil
                let visible = report.satellites_visible >= 0 ? Int(report.satellites_visible) : nil
                if used != satellites.used || visible != satellites.visible {
                    satellites = (used, visible)
                    canWait(.satellites(used: used, visible: visible))
                }
            }
            if got & Int32(CGPS_GOT_TPV) != 0 {
                let tpv = Self.tpv(from: report, satellitesUsed: satellites.used)
                switch filter.classify(tpv, receivedAt: clock.now()) {
                case .fix(let fix):
                    if fixing {
                        canWait(.fix(fix))
                    } else {
                        fixing = true
                        mustGo(.fix(fix))
                    }
                case .noFix:
                    fixing = false
                    mustGo(.noFix)
                case .invalidPosition, .duplicate: break
                case .implausible(let why): rejections.withLock { $0.add(why) }
                }
            }
        }
        /// Reads the reports libgps has buffered or the socket holds, stopping early at one that must go
        /// at once; false when the connection is lost.
        func drain() -> Bool {
            var reads = 0
            repeat {
                guard cgps_read(handle, &report) == 1 else { return false }
                if signal.isStopped { return true }
                take(report)
                reads += 1
            } while !urgent && reads < Self.maxReportsPerDrain && cgps_wait(handle, 0) == 1
            return true
        }

        defer { deliver() }
        while !signal.isStopped {
            if urgent { deliver() }
            if let since = waitingSince {
                signal.wait(seconds: since + Self.batchWindowS - StopSignal.monotonicSeconds())
                if signal.isStopped { return false }
                let flowing = cgps_wait(handle, 0) == 1
                if flowing, !drain() { return true }
                deliver()
                // While reports keep coming, keep to the rhythm: sleep a window, then read what came,
                // rather than wake for the first report of each window. Back to sleeping on the
                // socket once a window brings nothing.
                if flowing, fixing { waitingSince = StopSignal.monotonicSeconds() }
                continue
            }
            // Nothing held back: sleep until gpsd sends (or a stop), unless libgps holds a report already.
            if cgps_wait(handle, 0) != 1, !signal.wait(seconds: nil, orReadable: cgps_fd(handle)) { continue }
            guard drain() else { return true }
        }
        return false
    }

    static func tpv(from r: cgps_report, satellitesUsed: Int?) -> TPVReport {
        let time: Date? =
            r.time_valid != 0
            ? Date(timeIntervalSince1970: Double(r.time_sec) + Double(r.time_nsec) / 1_000_000_000) : nil
        // eph when gpsd computed it; otherwise the larger of the two axis errors.
        var horizontal = r.eph
        if !horizontal.isFinite {
            horizontal = r.epx.isFinite ? (r.epy.isFinite ? max(r.epx, r.epy) : r.epx) : r.epy
        }
        return TPVReport(
            mode: Int(r.mode), time: time, lat: r.lat, lon: r.lon, altitudeM: r.alt, speedMps: r.speed,
            trackDeg: r.track, horizontalErrorM: horizontal, verticalErrorM: r.epv, satellitesUsed: satellitesUsed)
    }
}

