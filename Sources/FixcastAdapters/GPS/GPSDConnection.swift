internal import CGPS
import FixcastCore
import FoundationEssentials

/// One connection to gpsd, driven by the thread that owns it: `open` connects and asks for JSON
/// reports (`?WATCH`), `descriptor` is the socket to sleep on with poll(2), and `readAvailable` turns
/// what gpsd sent into `GPSEvent`s without ever blocking.
///
/// It has no thread and no timer of its own, so the agent's event loop can poll gpsd's socket beside
/// its signal pipe and the keyboard, as gpsd's own clients (gpxlogger, cgps) do: one thread, one poll,
/// woken only when gpsd sends. `GPSDClient` drives one on a thread of its own for `status`'s probe.
/// Not thread-safe: one thread uses it.
public final class GPSDConnection {
    public let address: GPSDAddress
    private let clock: any WallClock
    private var handle: OpaquePointer?
    private var filter: TPVFilter
    /// The fixes dropped as implausible since this connection was made, by reason (for `status`).
    public private(set) var rejectedFixes = RejectedFixCounts()
    private var report = cgps_report()
    private var device: String?
    /// Whose reports count when gpsd serves several receivers (`ReceiverChoice`).
    private var receiverChoice = ReceiverChoice()
    private var satellites: (used: Int?, visible: Int?) = (nil, nil)
    /// Which SKY reports libgps parses (the rest are dropped unparsed: `SkyThinning` says why).
    private var skyThinning = SkyThinning()
    /// SKY reports parsed and dropped on this connection (for the tests).
    package private(set) var skyReports: (parsed: Int, skipped: Int) = (0, 0)
    /// What one read brought, in order, before its TPVs are stamped (see `readAvailable`).
    private var batch: [BatchItem] = []
    /// The receiver times of the batch's fixes, for `BatchArrival` (kept, so a read allocates none).
    private var fixTimes: [Date?] = []
    /// When the connection was last read, or opened (the system clock): the earliest a report waiting
    /// in the socket can have come (`BatchArrival`).
    private var previousReadAt: Date?
    /// Whether a connection ever worked (gpsd answered on it): a later failure is "lost", not "unreachable".
    public private(set) var everConnected = false
    /// Whether gpsd has answered on this connection: its first report (VERSION, sent at once on a
    /// connect) was read. A TCP connect alone says nothing of gpsd: a port that takes connections and
    /// closes them (another program there, a proxy with nothing behind it) would otherwise read as
    /// "gpsd answers again" at each retry, and reset the back-off between retries.
    private var answered = false
    /// gpsd answered on this connection (`answered`): a drop decided before its answer was read
    /// (`AgentEffect.dropUnansweredGPS`) is not made.
    public var hasAnswered: Bool { answered }
    /// A bound on one read, so a receiver sending faster than fixcast parses still lets the loop turn.
    static let maxReportsPerRead = 512

    /// - Parameter maxSpeedMps: `gps.max_speed_mps`: a fix implying a faster jump is held until
    ///   later fixes agree (`FixPlausibility`).
    /// - Parameter skyIntervalS: `SkyThinning`'s interval (a test passes 0 to parse every SKY).
    public init(
        address: GPSDAddress, clock: any WallClock = SystemClock(),
        maxSpeedMps: Double = FixPlausibility.defaultMaxSpeedMps, skyIntervalS: Double = SkyThinning.defaultIntervalS
    ) {
        self.address = address
        self.clock = clock
        filter = TPVFilter(maxSpeedMps: maxSpeedMps)
        skyThinning = SkyThinning(intervalS: skyIntervalS)
    }

    deinit {
        cgps_close(handle)
    }

    /// The socket to poll for reading; nil while not connected.
    public var descriptor: Int32? {
        guard let handle else { return nil }
        let fd = cgps_fd(handle)
        return fd >= 0 ? fd : nil
    }

    public var isOpen: Bool { handle != nil }

    /// The longest a connect may take before gpsd counts as not answering. A gpsd on the same machine
    /// or the LAN answers in milliseconds; a host that is off or firewalled drops the SYN, and the
    /// kernel would retry it for about two minutes while the loop that connects stands still (no
    /// redraw, no key, no signal handled). 4 s lets the kernel's first SYN retry (at 1 s, then 3 s) land.
    static let connectTimeoutMs: Int32 = 4_000

    /// Connects (blocking for as long as the TCP connect takes: on loopback, at once; at most
    /// `connectTimeoutMs`) and asks for reports. `.opened` when the connection is open (`.connected`
    /// follows from `readAvailable` with gpsd's first report), else `.disconnected` with the reason.
    public func open() -> GPSEvent {
        close()
        let label = address.description
        if let missing = LoadableLibrary.gps.load() { return .disconnected(.libraryMissing(missing)) }
        var err: Int32 = 0
        guard let h = cgps_open(address.host, String(address.port), Self.connectTimeoutMs, &err) else {
            if err == CGPS_ERR_RESOLVE_TIMEOUT { return .disconnected(.nameNotResolved(address: label)) }
            let detail = String(cString: cgps_errstr(err))
            return .disconnected(
                everConnected ? .connectionLost(address: label) : .unreachable(address: label, detail: detail))
        }
        guard cgps_watch_json(h) == 0 else {
            cgps_close(h)
            return .disconnected(.watchRefused(address: label))
        }
        handle = h
        previousReadAt = clock.now()
        filter.reset()
        device = nil
        satellites = (nil, nil)
        skyThinning.reset()
        receiverChoice.reset()
        skyReports = (0, 0)
        answered = false
        return .opened(address: label)
    }

    /// Why the connection closed, for the `.disconnected` event after `readAvailable` found it lost:
    /// lost once gpsd had answered on it (or on an earlier one), else not answering (what accepted the
    /// connection closed it without a word of gpsd's).
    public var lossError: GPSError { ended(notAnswering: "it closed the connection without answering") }

    /// Why a connection that gpsd took but did not answer on is dropped (`GPSDLink.answerTimeoutS`).
    public var unansweredError: GPSError {
        ended(
            notAnswering: "it took the connection but said nothing gpsd says within \(Int(GPSDLink.answerTimeoutS)) s")
    }

    /// A connection that ended: lost once gpsd had answered on it or an earlier one (`everConnected`
    /// is set with `answered`), else not answering, for `detail`.
    private func ended(notAnswering detail: String) -> GPSError {
        let label = address.description
        return everConnected ? .connectionLost(address: label) : .unreachable(address: label, detail: detail)
    }

    public func close() {
        cgps_close(handle)
        handle = nil
    }

    /// Appends the events in every report received already or waiting in the socket now (never
    /// blocks). False when the connection is lost (it is closed then; `open` again after a back-off).
    ///
    /// The reports are read first and their fixes stamped after, together: a read can bring reports
    /// that waited in the socket (the agent gathers them, `ReportGathering`), and each fix is stamped
    /// with when it came (`BatchArrival`), not with the read.
    public func readAvailable(into events: inout [GPSEvent]) -> Bool {
        readAvailable(into: &events, at: MonotonicInstant(seconds: Syscall.monotonicSeconds()))
    }

    /// `readAvailable(into:)` at the monotonic instant `now`, which decides the SKY reports parsed.
    package func readAvailable(into events: inout [GPSEvent], at now: MonotonicInstant) -> Bool {
        guard let handle else { return false }
        batch.removeAll(keepingCapacity: true)
        var reads = 0
        // Whether the socket may hold more: until a receive reads less than it could (one recv(2) a
        // second at 1 Hz: poll(2) said readable, and no select(2) asks again after it).
        var more = true
        var alive = true
        while reads < Self.maxReportsPerRead {
            let parsed = cgps_read(handle, &report, skyThinning.parses(at: now) ? 1 : 0)
            if parsed == 1 {
                // gpsd answered when it sent one of its objects (VERSION first): any line of text is
                // parsed, so an SSH banner or a web server on gpsd's port is not gpsd answering.
                if !answered, report.got != 0 {
                    answered = true
                    everConnected = true
                    batch.append(.event(.connected(address: address.description)))
                }
                take(report, at: now)
                reads += 1
                continue
            }
            if parsed < 0 { alive = false }
            guard alive, more else { break }
            let received = cgps_receive(handle)
            if received < 0 { alive = false }
            if received <= 0 { break }
            more = received == 2
        }
        let readAt = clock.now()
        fixTimes.removeAll(keepingCapacity: true)
        for item in batch { if let time = item.fixTime { fixTimes.append(time) } }
        var arrival = BatchArrival(fixTimes: fixTimes, readAt: readAt, previousReadAt: previousReadAt)
        previousReadAt = readAt
        for item in batch {
            switch item {
            case .event(let event): events.append(event)
            case .tpv(let tpv):
                // A report without a fix is not stamped in the track; the read's time is its own.
                classify(tpv, receivedAt: tpv.claimsFix ? arrival.next(receiverTime: tpv.time) : readAt, into: &events)
            }
        }
        guard alive else {
            close()
            return false
        }
        return true
    }

    /// Drops every report waiting unread, without blocking; false when the connection is lost (it is
    /// closed then). For reports left to gather across a suspend: they came before it, or in the moments
    /// after it, and a read now could not tell which, so no arrival time would be true (`BatchArrival`
    /// measures from the last read, which was before the suspend). The receiver sends again within a
    /// second; what follows is stamped from now.
    public func discardWaiting() -> Bool {
        guard let handle else { return false }
        // A bound as `maxReportsPerRead` is on a read: 32 buffers of 20 kB, more than 512 reports.
        guard cgps_discard(handle, 32) >= 0 else {
            close()
            return false
        }
        previousReadAt = clock.now()
        return true
    }

    /// Whether a report waits, received already or in the socket, asked now (one poll(2) unless one is
    /// received already): for a socket the caller left out of its poll for a while.
    public var hasWaitingReport: Bool {
        guard let handle else { return false }
        return cgps_wait(handle, 0) == 1
    }

    /// Whether a whole report was received already and not read (then poll(2) would not wake for it):
    /// after a read that stopped at `maxReportsPerRead`. No system call.
    public var hasBufferedReport: Bool {
        guard let handle else { return false }
        return cgps_buffered(handle) == 1
    }

    private func take(_ report: cgps_report, at now: MonotonicInstant) {
        let got = report.got
        if got & Int32(CGPS_GOT_SKY_SKIPPED) != 0 {
            skyReports.skipped += 1
            return
        }
        if got & Int32(CGPS_GOT_DEVICE) != 0 {
            let raw = withUnsafeBytes(of: report.device) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let path = TextCap.capped(raw, maxBytes: TextCap.gpsdString)
            if !path.isEmpty, path != device {
                device = path
                batch.append(.event(.device(path)))
            }
        }
        // Another receiver's satellites while the chosen one has a fix (`ReceiverChoice`): not its count.
        if got & Int32(CGPS_GOT_SKY) != 0, !receiverChoice.isOthers(device) {
            skyThinning.parsed(at: now)
            skyReports.parsed += 1
            let used = report.satellites_used >= 0 ? Int(report.satellites_used) : nil
            let visible = report.satellites_visible >= 0 ? Int(report.satellites_visible) : nil
            if used != satellites.used || visible != satellites.visible {
                satellites = (used, visible)
                batch.append(.event(.satellites(used: used, visible: visible)))
            }
        }
        if got & Int32(CGPS_GOT_TPV) != 0 {
            let tpv = Self.tpv(from: report, satellitesUsed: satellites.used)
            // Another receiver on the same gpsd while the chosen one gives fixes: not counted (decided
            // here, in the order gpsd sent the reports, so its SKY reports after it are judged alike).
            if receiverChoice.counts(device: device, claimsFix: tpv.claimsFix, receiverTime: tpv.time) {
                batch.append(.tpv(tpv))
            }
        }
    }

    private func classify(_ tpv: TPVReport, receivedAt: Date, into events: inout [GPSEvent]) {
        switch filter.classify(tpv, receivedAt: receivedAt) {
        case .fix(let fix): events.append(.fix(fix))
        case .noFix: events.append(.noFix)
        case .invalidPosition, .duplicate: break
        case .implausible(let why): rejectedFixes.add(why)
        }
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

/// One report of a read, before the read's fixes are stamped.
private enum BatchItem {
    case event(GPSEvent)
    case tpv(TPVReport)

    /// For `BatchArrival`: the receiver time of a report that claims a fix; nil for the rest.
    var fixTime: Date?? {
        guard case .tpv(let tpv) = self, tpv.claimsFix else { return nil }
        return .some(tpv.time)
    }
}

extension LoadableLibrary {
    /// libgps, opened at the first connection to gpsd.
    static var gps: LoadableLibrary {
        LoadableLibrary(
            soname: cgps_library_soname(), load: cgps_library_load, error: cgps_library_error,
            probe: cgps_library_probe)
    }
}
