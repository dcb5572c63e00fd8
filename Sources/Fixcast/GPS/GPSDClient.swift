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
/// cooperative pool. It polls with `gps_waiting` every 100 ms so that `stop()` is noticed promptly.
/// When gpsd goes away or restarts it reconnects with `ReconnectBackoff` (1 s doubling to 30 s) and
/// carries on by itself: a restarted gpsd never needs a restarted fixcast.
///
/// Usage: `let c = GPSDClient(address: a); c.start(); for await e in c.events { … }; c.stop()`.
public final class GPSDClient: Sendable {
    public let address: GPSDAddress
    /// Every event, in order; finishes after `stop()` (or when the consumer stops listening).
    public let events: AsyncStream<GPSEvent>

    private let continuation: AsyncStream<GPSEvent>.Continuation
    private let clock: any WallClock
    private let backoff: ReconnectBackoff
    private let signal: StopSignal
    private let started = Atomic<Bool>(false)
    /// How long one `gps_waiting` blocks: the longest `stop()` can go unnoticed.
    private static let pollMicroseconds: Int32 = 100_000
    /// Fixes are handed over in bursts at most this often. Every hand-over wakes a task of the agent,
    /// and at 10 Hz and faster those wake-ups, not reading or parsing, were most of fixcast's CPU
    /// (bench/README.md); a quarter of a second is invisible on a weather screen. Other events go at
    /// once, after the fixes before them, so the order is kept.
    static let fixBatchWindowS = 0.25

    public init(
        address: GPSDAddress, clock: any WallClock = SystemClock(), backoff: ReconnectBackoff = ReconnectBackoff()
    ) {
        self.address = address
        self.clock = clock
        self.backoff = backoff
        let signal = StopSignal()
        self.signal = signal
        (events, continuation) = AsyncStream.makeStream(of: GPSEvent.self, bufferingPolicy: .bufferingNewest(4096))
        continuation.onTermination = { _ in signal.stop() }
    }

    deinit {
        signal.stop()
    }

    /// Starts the reader thread (once; later calls do nothing).
    public func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let client = Unmanaged<GPSDClient>.fromOpaque(raw).takeRetainedValue()
                client.readLoop()
                return nil
            }, box)
        if rc == 0 {
            pthread_detach(thread)
        } else {
            // No thread: nothing will ever arrive; say so and end the stream rather than hang.
            Unmanaged<GPSDClient>.fromOpaque(box).release()
            continuation.yield(
                .disconnected(.unreachable(address: address.description, detail: "cannot start a thread")))
            continuation.finish()
        }
    }

    /// Stops the reader (within ~100 ms) and ends `events`.
    public func stop() {
        signal.stop()
        continuation.finish()
    }

    // MARK: - The reader thread

    private func readLoop() {
        var backoff = self.backoff
        var filter = TPVFilter()
        var everConnected = false
        let label = address.description
        defer { continuation.finish() }

        while !signal.isStopped {
            var err: Int32 = 0
            guard let handle = cgps_open(address.host, String(address.port), &err) else {
                let detail = String(cString: cgps_errstr(err))
                continuation.yield(
                    .disconnected(
                        everConnected ? .connectionLost(address: label) : .unreachable(address: label, detail: detail)))
                pause(seconds: backoff.nextDelay())
                continue
            }
            guard cgps_watch_json(handle) == 0 else {
                cgps_close(handle)
                continuation.yield(.disconnected(.watchRefused(address: label)))
                pause(seconds: backoff.nextDelay())
                continue
            }
            backoff.reset()
            filter.reset()
            everConnected = true
            continuation.yield(.connected(address: label))
            let lost = follow(handle, filter: &filter)
            cgps_close(handle)
            if lost {
                continuation.yield(.disconnected(.connectionLost(address: label)))
                pause(seconds: backoff.nextDelay())
            }
        }
    }

    /// Reads reports until stopped (false) or the connection is lost (true).
    private func follow(_ handle: OpaquePointer, filter: inout TPVFilter) -> Bool {
        var report = cgps_report()
        var device: String?
        var satellites: (used: Int?, visible: Int?) = (nil, nil)
        var pending: [Fix] = []
        var pendingSince = 0.0
        func flush() {
            for fix in pending { continuation.yield(.fix(fix)) }
            pending.removeAll(keepingCapacity: true)
        }
        defer { flush() }
        while !signal.isStopped {
            if !pending.isEmpty, Self.monotonicSeconds() - pendingSince >= Self.fixBatchWindowS { flush() }
            guard cgps_wait(handle, Int32(Self.pollMicroseconds / (pending.isEmpty ? 1 : 4))) == 1 else { continue }
            guard cgps_read(handle, &report) == 1 else { return true }
            if signal.isStopped { return false }
            let got = report.got
            if got & Int32(CGPS_GOT_DEVICE) != 0 {
                let path = withUnsafeBytes(of: report.device) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if !path.isEmpty, path != device {
                    device = path
                    flush()
                    continuation.yield(.device(path))
                }
            }
            if got & Int32(CGPS_GOT_SKY) != 0 {
                let used = report.satellites_used >= 0 ? Int(report.satellites_used) : nil
                let visible = report.satellites_visible >= 0 ? Int(report.satellites_visible) : nil
                if used != satellites.used || visible != satellites.visible {
                    satellites = (used, visible)
                    flush()
                    continuation.yield(.satellites(used: used, visible: visible))
                }
            }
            if got & Int32(CGPS_GOT_TPV) != 0 {
                let tpv = Self.tpv(from: report, satellitesUsed: satellites.used)
                switch filter.classify(tpv, receivedAt: clock.now()) {
                case .fix(let fix):
                    if pending.isEmpty { pendingSince = Self.monotonicSeconds() }
                    pending.append(fix)
                case .noFix:
                    flush()
                    continuation.yield(.noFix)
                case .invalidPosition, .duplicate: break
                }
            }
        }
        return false
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }

    /// Sleeps up to `seconds` in short slices, returning early when stopped.
    private func pause(seconds: Double) {
        var left = seconds
        while left > 0, !signal.isStopped {
            let slice = min(left, 0.05)
            usleep(useconds_t(slice * 1_000_000))
            left -= slice
        }
    }

    static func tpv(from r: cgps_report, satellitesUsed: Int?) -> TPVReport {
        let time: Date? =
            r.time_valid != 0
            ? Date(timeIntervalSince1970: Double(r.time_sec) + Double(r.time_nsec) / 1_000_000_000) : nil
        // eph when gpsd computed it; otherwise the larger of the two axis errors.
        var horizontal = r.eph
        if !horizontal.isFinite {
            let axes = [r.epx, r.epy].filter(\.isFinite)
            horizontal = axes.max() ?? .nan
        }
        return TPVReport(
            mode: Int(r.mode), time: time, lat: r.lat, lon: r.lon, altitudeM: r.alt, speedMps: r.speed,
            trackDeg: r.track, horizontalErrorM: horizontal, verticalErrorM: r.epv, satellitesUsed: satellitesUsed)
    }
}

/// A stop request shared by the client, its stream's termination handler and the reader thread.
final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    func stop() { flag.store(true, ordering: .releasing) }
    var isStopped: Bool { flag.load(ordering: .acquiring) }
}
