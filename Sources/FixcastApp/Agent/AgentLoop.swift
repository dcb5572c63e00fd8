import Dispatch
import FixcastAdapters
import FixcastCore
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The agent's one event loop, as gpsd's own clients have: one thread, one poll(2) over gpsd's socket,
/// the doorbell (signals and events from other threads) and the keyboard, with the reducer's next
/// deadline as its timeout.
///
/// Every decision is the pure `AgentReducer`'s, made on this thread as each event arrives; the loop
/// only performs the effects it returns. Nothing wakes "just in case": with gpsd at 1 Hz the loop
/// wakes when gpsd writes, as gpxlogger does, and idle (connected, no data) it does not wake at all.
/// Only effects that do I/O leave the thread: a reading (HTTP on libcurl's own thread, place and
/// weather services), and track and last-known writes (on the store's own thread).
final class AgentLoop {
    private let settings: Settings
    private let options: Agent.Options
    private let services: Services
    private let inbox: AgentInbox
    private var reducer: AgentReducer
    private var display: any ReadingDisplay
    private let writer: TrackWriter?
    private var gps: GPSDConnection?
    private var backoff = ReconnectBackoff()
    /// Monotonic time of the next gpsd connection attempt (nil: connected, or no gpsd in use).
    private var reconnectAt: Double?
    /// Something on the screen changed during this turn of the loop.
    private var needsRedraw = false
    /// What the reducer asked to keep, handed to the store's thread together (see `writeIntervalS`).
    private var pointsToWrite: [Fix] = []
    private var lastKnownToWrite: Position?
    /// Monotonic time the oldest unwritten point or position was asked to be kept.
    private var pendingSince: Double?
    /// Track points and the last-known position go to the store at most this long after they were
    /// asked for, together: one commit (and one wake-up of the store's thread) per few seconds instead
    /// of one per kept point, which at 10 Hz is most of the store's cost. A kill -9 loses at most this
    /// much track, or what still waits unread in gpsd's socket (`ReportGathering`: up to 10 s with no
    /// one watching); readings are committed at once (by the reading itself).
    static let writeIntervalS = 5.0
    /// Pending writes go at a turn the loop takes anyway when the next such turn would come too late
    /// (`nextTurnAnyway`): at 1 Hz the next fix comes within this long, so writes go at the first fix
    /// 4 s after the oldest; after a gathered read, whose next read is 10 s away, they go at once.
    /// Writing never costs a wake-up of its own; the poll timeout stays at `writeIntervalS` for a
    /// silent gpsd.
    static let writeEarlyS = 1.0
    private var exitCode: Int32?
    /// stdout is a pipe whose reader's going away is watched (JSON lines only).
    private let watchesStdout: Bool
    private var printFailureSaid = false
    /// The last sleep offset handed to the reducer (see `ResumeGate.isNews`).
    private var sleepOffsetPassedOn: Double?
    /// Signals routed to the doorbell. Job control only while the live screen owns the terminal.
    private let signals: [Int32]
    private var gpsEvents: [GPSEvent] = []
    /// While set and in the future, gpsd's reports are left to gather in the socket (`ReportGathering`).
    private var gpsQuietUntil: Double?
    /// When the last read that brought a fix happened (monotonic).
    private var lastGPSReadAt: Double?
    /// The alerts the last checks found, by id, for `alerts.command` (written by the check's task).
    private let latestAlerts = LatestAlerts()
    /// When implausible fixes are added to the store's counts (for `status`): `RejectedFixSaveGate`.
    private var rejectedSaves = RejectedFixSaveGate()
    private static let shutdownReadingWaitS = 3.0
    /// POLLRDHUP (Linux, `_GNU_SOURCE`, not visible to Swift): the peer closed its end. With POLLHUP
    /// and POLLERR, which poll(2) reports whatever is asked, the only events of a gathering socket.
    private static let hangUpOnly: Int16 = 0x2000

    init?(settings: Settings, options: Agent.Options, services: Services) {
        guard let doorbell = LoopDoorbell() else {
            Console.err(
                "fixcast run: the system has no file descriptors left for the agent's loop; close some programs and try again.\n"
            )
            return nil
        }
        self.settings = settings
        self.options = options
        self.services = services
        let inbox = AgentInbox(doorbell: doorbell)
        self.inbox = inbox
        let displayOptions = DisplayOptions(settings: settings)
        var display: any ReadingDisplay = JSONLinesDisplay(language: settings.display.lang)
        if !options.json {
            if let live = LiveDisplay(options: displayOptions, demo: options.demoLabel != nil) {
                display = live
            } else {
                Console.err("fixcast run: the terminal cannot show the live screen; printing JSON lines instead.\n")
            }
        }
        self.display = display
        watchesStdout = !display.isLive && Console.stdoutIsPipe
        // SIGHUP is a stop that loses nothing, as SIGTERM (unless `nohup` ignores it: then it stays so).
        var signals = [SIGUSR1, SIGINT, SIGTERM]
        if !LoopDoorbell.isIgnored(SIGHUP) { signals.append(SIGHUP) }
        if display.isLive { signals += [SIGWINCH, SIGTSTP, SIGCONT] }
        self.signals = signals
        writer = services.store.map { TrackWriter(store: $0, report: { inbox.post(.storageProblem($0)) }) }

        let store = services.store
        let lastKnown = store.flatMap { s in Self.onStoreThread(s) { try? $0.lastKnownPosition() } ?? nil }
        reducer = AgentReducer(
            configuration: AgentReducer.Configuration(
                settings: settings, alertCheckMin: settings.alerts.enabled ? settings.alerts.checkMin : nil),
            startedAt: services.clock.now(), lastKnown: lastKnown, fixedPosition: options.fixedPosition)
    }

    /// Runs until an exit effect (SIGINT, SIGTERM, SIGHUP, `q`, stdout gone); returns the exit code.
    func run() -> Int32 {
        inbox.doorbell.route(signals: signals)
        // Held since main (`LoopDoorbell.holdSignals`): routed now, so let them come, to this thread
        // alone (every other thread inherited the hold): one that came during start-up arrives now.
        LoopDoorbell.releaseHeldSignals()
        defer { LoopDoorbell.restoreDefault(signals: signals) }
        let clock = services.clock

        // The seed's launch screen with data: the last stored reading at once, marked with its age.
        if let store = services.store, let last = Self.onStoreThread(store, { try? $0.lastReading() }) ?? nil {
            handle(.storedReadingLoaded(last))
        }
        if let issue = services.storeIssue { handle(.storageProblem(issue)) }
        sleepOffsetPassedOn = SuspendClock.sleepOffsetS()
        handle(.started(at: clock.now(), sleepOffsetS: sleepOffsetPassedOn))
        if options.fixedPosition == nil {
            let address = (try? GPSDAddress(host: settings.gps.host, port: settings.gps.port)) ?? .local
            gps = GPSDConnection(address: address, clock: clock, maxSpeedMps: settings.gps.maxSpeedMps)
            connectGPS()
        }
        redraw(now: clock.now())

        var fds: [pollfd] = []
        while exitCode == nil {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: inbox.doorbell.readEnd, events: Int16(POLLIN), revents: 0))
            // While reports are being gathered (`gpsQuietUntil`, `ReportGathering`), gpsd's socket is
            // polled for a hang-up only: its reports wait in the socket and are read together when the
            // window ends, but gpsd going away (the socket's peer closed it) wakes the loop at once.
            let gathering = gpsQuietUntil.map { Syscall.monotonicSeconds() < $0 } ?? false
            let gpsFD = gps?.descriptor
            if let gpsFD {
                fds.append(pollfd(fd: gpsFD, events: gathering ? Self.hangUpOnly : Int16(POLLIN), revents: 0))
            }
            let keyFD = display.keyboard
            if let keyFD { fds.append(pollfd(fd: keyFD, events: Int16(POLLIN), revents: 0)) }
            // stdout a pipe: its reader going away (`| head -1`) shows as POLLERR, asked or not.
            if watchesStdout { fds.append(pollfd(fd: 1, events: 0, revents: 0)) }

            let buffered = !gathering && (gps?.hasBufferedReport ?? false)
            let timeout = buffered ? 0 : timeoutMs(now: clock.now())
            let ready = Syscall.poll(&fds, timeoutMs: timeout)
            let now = clock.now()
            let turnAt = Syscall.monotonicSeconds()  // one read a turn for the monotonic timers below
            if let offset = SuspendClock.sleepOffsetS(), ResumeGate.isNews(offset, after: sleepOffsetPassedOn) {
                // The machine slept: reports left to gather came before the suspend or just after it,
                // and when is unknowable now. They go unread; the receiver sends again within a second.
                if sleepOffsetPassedOn != nil, gpsQuietUntil != nil { dropGathered(now: now) }
                sleepOffsetPassedOn = offset
                handle(.resumeSample(sleepOffsetS: offset, at: now))
            }

            if ready > 0, fds[0].revents != 0 { serviceDoorbell(now: now) }
            var index = 1
            if gpsFD != nil {
                if gathering {
                    // gpsd hung up: what it sent before is read (and kept), then the end is seen.
                    if fds[index].revents != 0 { readGathered(now: now) }
                } else if buffered || fds[index].revents != 0 {
                    readGPS(now: now)
                }
                index += 1
            }
            if let until = gpsQuietUntil, turnAt >= until {
                readGathered(now: now)  // nothing waiting: back to waking when the receiver sends
            }
            if keyFD != nil {
                if fds[index].revents != 0 { readKeys(now: now) }
                index += 1
            }
            if watchesStdout, fds[index].revents != 0 { handle(.outputLost(readerGone: true, at: now)) }
            if let deadline = reducer.nextDeadline, deadline <= now { handle(.deadline(at: now)) }
            if let at = reconnectAt, turnAt >= at { connectGPS() }
            if display.isLive, ready == 0 { needsRedraw = true }  // the screen's clock turned a minute
            if needsRedraw {
                needsRedraw = false
                redraw(now: now)
            }
            if let since = pendingSince, since + Self.writeIntervalS <= nextTurnAnyway(after: turnAt) { flushWrites() }
        }
        shutdown()
        return exitCode ?? ExitCode.success
    }

    // MARK: - Events in

    private func handle(_ event: AgentEvent) {
        for effect in reducer.handle(event) { perform(effect) }
    }

    private func serviceDoorbell(now: Date) {
        let (signalsCaught, _) = inbox.doorbell.drain()
        for s in signalsCaught {
            switch s {
            case SIGUSR1:
                readGathered(now: now)
                handle(.manualRequest(at: now))
            case SIGINT, SIGTERM, SIGHUP:
                readGathered(now: now)
                handle(.stopRequested(at: now))
            case SIGWINCH: redraw(now: now)
            case SIGTSTP: stopForJobControl()
            case SIGCONT: continueAfterJobControl()
            default: break
            }
        }
        for event in inbox.take() {
            handle(event)
            if case .readingFinished(let reading, _) = event { print(reading, now: now) }
        }
    }

    /// Prints a finished reading (JSON lines; the live screen draws it at the redraw). A reader that
    /// went away stops the agent as SIGTERM does; stdout refusing writes is said once and stops it
    /// with exit 1 (the reading is stored; printed, it is not).
    private func print(_ reading: Reading, now: Date) {
        switch display.show(reading) {
        case .written:
            break
        case .readerGone:
            handle(.outputLost(readerGone: true, at: now))
        case .failed(let code):
            printingFailed(errno: code)
            handle(.outputLost(readerGone: false, at: now))
        }
    }

    private func printingFailed(errno code: Int32) {
        guard !printFailureSaid else { return }
        printFailureSaid = true
        Console.err(Console.runOutputLossSentence(errno: code) + "\n")
    }

    private func readGPS(now: Date) {
        guard let gps else { return }
        gpsEvents.removeAll(keepingCapacity: true)
        let readAt = Syscall.monotonicSeconds()
        let alive = gps.readAvailable(into: &gpsEvents)
        for event in gpsEvents { handle(.gps(event, at: now)) }
        // What comes next may gather in the socket for a while (a fast receiver, or no one watching);
        // the first fix, a lost fix and gpsd going away are never held.
        var fixes = 0
        var lostFix = false
        var timed = true
        for event in gpsEvents {
            switch event {
            case .fix(let fix):
                fixes += 1
                if fix.time == nil { timed = false }
            case .noFix: lostFix = true
            default: break
            }
        }
        if let window = ReportGathering.windowS(
            fixes: fixes, lostFix: lostFix, connected: alive, sincePreviousFixReadS: lastGPSReadAt.map { readAt - $0 },
            timed: timed, headless: !display.isLive)
        {
            gpsQuietUntil = readAt + window
        }
        if fixes > 0 { lastGPSReadAt = readAt }
        saveRejectedFixes()
        if !alive { lostGPS(now: now) }
    }

    private func lostGPS(now: Date) {
        guard let gps else { return }
        handle(.gps(.disconnected(.connectionLost(address: gps.address.description)), at: now))
        reconnectAt = Syscall.monotonicSeconds() + backoff.nextDelay()
    }

    /// Ends a gather window without reading what it gathered (after a suspend, see `run`).
    private func dropGathered(now: Date) {
        gpsQuietUntil = nil
        lastGPSReadAt = nil  // the receiver's rate is learnt anew, so the next fix is read as it comes
        if let gps, gps.isOpen, !gps.discardWaiting() { lostGPS(now: now) }
    }

    /// The next turn the loop will take anyway, without a timer of the writes' own: the end of a gather
    /// window, or (as far as it can count on one) the next fix of a 1 Hz receiver. Pending writes that
    /// would be overdue by then go now.
    private func nextTurnAnyway(after turnAt: Double) -> Double {
        if let until = gpsQuietUntil, until > turnAt { return until }
        return turnAt + Self.writeEarlyS
    }

    /// Ends a gather window and reads what waits: at the window's end, or early when a person asks for
    /// something (a reading, a key, the stop), so that it acts on the newest fix and the track keeps
    /// every fix up to the stop.
    private func readGathered(now: Date) {
        guard gpsQuietUntil != nil else { return }
        gpsQuietUntil = nil
        if gps?.hasWaitingReport == true { readGPS(now: now) }
    }

    private func flushWrites() {
        pendingSince = nil
        guard !pointsToWrite.isEmpty || lastKnownToWrite != nil else { return }
        writer?.write(points: pointsToWrite, lastKnown: lastKnownToWrite)
        pointsToWrite.removeAll(keepingCapacity: true)
        lastKnownToWrite = nil
    }

    /// Adds the fixes rejected since the last save to the store's totals, when the gate says so
    /// (always at shutdown).
    private func saveRejectedFixes(force: Bool = false) {
        guard let gps, let store = services.store else { return }
        guard let delta = rejectedSaves.toSave(total: gps.rejectedFixes, at: Syscall.monotonicSeconds(), force: force),
            delta.total > 0
        else { return }
        store.perform { try? $0.addRejectedFixes(delta) }
    }

    private func connectGPS() {
        guard let gps else { return }
        let event = gps.open()
        handle(.gps(event, at: services.clock.now()))
        if gps.isOpen {
            backoff.reset()
            reconnectAt = nil
        } else {
            reconnectAt = Syscall.monotonicSeconds() + backoff.nextDelay()
        }
    }

    private func readKeys(now: Date) {
        guard let live = display as? LiveDisplay else { return }
        let keys = live.readKeys()
        if keys.isEmpty {
            // Readable yet nothing to read: the terminal hung up. Carry on without a keyboard.
            display = JSONLinesDisplay(language: settings.display.lang)
            live.close()
            return
        }
        readGathered(now: now)
        for key in keys { handle(.key(key, at: now)) }
    }

    /// Ctrl-Z: give the terminal back, then stop for real (the default action of SIGTSTP).
    private func stopForJobControl() {
        guard let live = display as? LiveDisplay else { return }
        live.suspend()
        LoopDoorbell.restoreDefault(signals: [SIGTSTP])
        raise(SIGTSTP)  // stops here until `fg` or `bg` sends SIGCONT
        inbox.doorbell.route(signals: [SIGTSTP])
        continueAfterJobControl()
    }

    private func continueAfterJobControl() {
        guard let live = display as? LiveDisplay else { return }
        live.resume()
        redraw(now: services.clock.now())
    }

    /// Draws the reducer's status, with the problem of a link beside the agent (MQTT) on the status line.
    private func redraw(now: Date) {
        guard display.isLive else { return }
        var status = reducer.status
        if let link = options.linkProblem?() { status.problems.append(link) }
        display.redraw(status, now: now)
    }

    /// Milliseconds until the earliest of: the reducer's deadline, the next gpsd attempt, and (on the
    /// live screen) the next turn of its clock's minute. -1: nothing timed, sleep until an event.
    private func timeoutMs(now: Date) -> Int32 {
        var wait = Double.infinity  // a running minimum, no array: this runs at every turn
        if let deadline = reducer.nextDeadline { wait = min(wait, deadline.timeIntervalSince(now)) }
        let monotonic = Syscall.monotonicSeconds()
        if let at = reconnectAt { wait = min(wait, at - monotonic) }
        if let since = pendingSince { wait = min(wait, since + Self.writeIntervalS - monotonic) }
        if let until = gpsQuietUntil { wait = min(wait, until - monotonic) }
        if display.isLive {
            let t = now.timeIntervalSince1970
            wait = min(wait, (t / 60).rounded(.down) * 60 + 60 - t)
        }
        guard wait.isFinite else { return -1 }
        return Int32(min(max(0, wait) * 1000, 3_600_000).rounded(.up))
    }

    // MARK: - Effects out

    private func perform(_ effect: AgentEffect) {
        switch effect {
        case .takeReading(let request):
            startReading(request)
        case .recordTrackPoint(let fix):
            pointsToWrite.append(fix)
            if pendingSince == nil { pendingSince = Syscall.monotonicSeconds() }
        case .saveLastKnown(let position):
            lastKnownToWrite = position
            if pendingSince == nil { pendingSince = Syscall.monotonicSeconds() }
        case .checkAlerts(let position):
            checkAlerts(at: position)
        case .announceAlerts(let ids):
            let alerts = latestAlerts.find(ids)
            for alert in alerts { services.alertCommand.run(alert: alert) }
        case .announceHealth(let notices):
            // The live screen's status line shows these; headless, stderr is the journal.
            guard !display.isLive else { return }
            for notice in notices { Console.err(notice.message + "\n") }
        case .redraw:
            needsRedraw = true  // drawn once at the end of this turn of the loop
        case .exit(let code):
            exitCode = code
        }
    }

    /// Asks the alert service (its cache answers within `alerts.check_min`, so the reading that asked
    /// at the same moment costs no second request). A failure reads as "no alert active": the
    /// reading's `errors` say why, and an alert already seen stays seen.
    private func checkAlerts(at position: Position) {
        let service = services.alerts
        let inbox = self.inbox
        let latest = latestAlerts
        let clock = services.clock
        let offline = options.offline
        let checked = services.onAlertsChecked
        ThreadExecutor.tasks.startTask {
            let outcome = await service.alerts(at: position.coordinate, offline: offline)
            let active = outcome.report?.active ?? []
            latest.keep(active)
            checked?(outcome.report, clock.now())
            inbox.post(.alertsChecked(activeIDs: active.map(\.id), at: clock.now()))
        }
    }

    private func startReading(_ request: ReadingRequest) {
        let maker = services.readings
        let inbox = self.inbox
        let clock = services.clock
        let offline = options.offline
        let place = options.fixedPlace
        ThreadExecutor.tasks.startTask {
            let reading = await maker.reading(
                at: request.position, trigger: request.trigger, force: request.forced, offline: offline,
                knownPlace: place, notes: request.notes)
            inbox.post(.readingFinished(reading, at: clock.now()))
        }
    }

    /// A reading in flight may finish briefly (its row commits and it is printed); then the track is
    /// flushed and the terminal given back.
    private func shutdown() {
        let deadline = Syscall.monotonicSeconds() + Self.shutdownReadingWaitS
        // The reducer has stopped taking events; whether a reading is under way is its last word.
        var readingInFlight = reducer.status.updating
        while readingInFlight, Syscall.monotonicSeconds() < deadline {
            var fds = [pollfd(fd: inbox.doorbell.readEnd, events: Int16(POLLIN), revents: 0)]
            let left = deadline - Syscall.monotonicSeconds()
            _ = Syscall.poll(&fds, timeoutMs: Int32(max(0, left) * 1000))
            _ = inbox.doorbell.drain()
            for event in inbox.take() {
                if case .readingFinished(let reading, _) = event {
                    readingInFlight = false
                    if case .failed(let code) = display.show(reading) {
                        printingFailed(errno: code)
                        exitCode = ExitCode.failure
                    }
                }
            }
        }
        flushWrites()
        saveRejectedFixes(force: true)
        gps?.close()
        writer?.flush(timeoutS: 5)
        display.close()
    }

    /// Runs `body` on the store's thread and waits for it (start-up reads, before the loop runs).
    private static func onStoreThread<T: Sendable>(
        _ store: SQLiteStore, _ body: @escaping @Sendable (isolated SQLiteStore) -> T
    ) -> T? {
        // As `ThreadExecutor.runBlocking` hands its task's value over.
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        store.perform { s in
            let value = body(s)
            result.withLock { $0 = value }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return result.withLock { $0 }
    }
}

/// The alerts the agent's checks found, by id: written by a check's task, read by the loop when the
/// reducer says which ids are news.
private final class LatestAlerts: Sendable {
    private let byID = Mutex<[String: Alert]>([:])

    func keep(_ alerts: [Alert]) {
        byID.withLock { known in for alert in alerts { known[alert.id] = alert } }
    }

    func find(_ ids: [String]) -> [Alert] {
        byID.withLock { known in ids.compactMap { known[$0] } }
    }
}
