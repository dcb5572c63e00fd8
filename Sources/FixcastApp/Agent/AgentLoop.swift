import FixcastAdapters
import FixcastCore
import FixcastRendering
import FixcastText
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The agent's one event loop, as gpsd's own clients have: one thread, one poll(2) over gpsd's socket,
/// the doorbell (signals and events from other threads) and the keyboard, with the reducer's next
/// deadline as its timeout.
///
/// It decides nothing: what to poll (`AgentReducer.gpsWatch`, `listensToPeople`, `watchesOutputReader`)
/// and for how long (`pollTimeoutMs`) are the reducer's, every wake-up becomes an `AgentEvent`, and the
/// effects that come back are performed (`AgentLoop+Effects`). Nothing wakes "just in case": with gpsd at 1 Hz
/// the loop wakes when gpsd writes, as gpxlogger does, and idle (connected, no data) it does not
/// wake at all. Only effects that do I/O leave the thread: a reading (HTTP on libcurl's own thread,
/// place and weather services), and track and last-known writes (on the store's own thread).
final class AgentLoop {
    let settings: Settings
    let options: Agent.Options
    let services: Services
    let inbox: AgentInbox
    var reducer: AgentReducer
    var display: any ReadingDisplay
    let writer: TrackWriter?
    var gps: GPSDConnection?
    /// Something on the screen changed during this turn of the loop (drawn once at its end).
    var needsRedraw = false
    /// What the reducer asked to keep, until it says to hand it to the store (`.writeTrack`).
    var pointsToWrite: [Fix] = []
    var lastKnownToWrite: Position?
    var exitCode: Int32?
    /// Said on stderr once the screen is closed (the live screen's alternate screen would hide them).
    var partingWords: [String] = []
    /// A failed print was said (`.sayOutputFailed`): the stop does not say it again.
    var outputFailureSaid = false
    /// The position a run that stops at its position resolved (`Agent.position()`).
    var resolvedPosition: ReadingRequest?
    /// Signals routed to the doorbell. Job control only while the live screen owns the terminal.
    private let signals: [Int32]
    var gpsEvents: [GPSEvent] = []
    /// The alerts the last checks found, by id, for `alerts.command` (written by the check's task).
    let latestAlerts = LatestAlerts()

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
        let display = Self.display(
            settings: settings, options: options, clock: services.clock,
            onOutputProblem: Self.outputProblemPoster(inbox, clock: services.clock))
        self.display = display
        // SIGHUP is a stop that loses nothing, as SIGTERM (unless `nohup` ignores it: then it stays so).
        // `now` keeps the default actions (Ctrl-C ends it at once, as any one-shot command).
        var signals = options.oneReading ? [] : [SIGUSR1, SIGINT, SIGTERM]
        if !options.oneReading, !LoopDoorbell.isIgnored(SIGHUP) { signals.append(SIGHUP) }
        if display.isLive { signals += [SIGWINCH, SIGTSTP, SIGCONT] }
        self.signals = signals
        writer = services.store.map { TrackWriter(store: $0, report: { inbox.post(.storageProblem($0)) }) }
        services.store?.onReplaced { inbox.post(.storeReplaced(path: $0)) }
        let address = (try? GPSDAddress(host: settings.gps.host, port: settings.gps.port)) ?? .local
        if options.fixedPosition == nil {
            gps = GPSDConnection(address: address, clock: services.clock, maxSpeedMps: settings.gps.maxSpeedMps)
        }

        let lastKnown = services.store.flatMap { s in Self.onStoreThread(s) { try? $0.lastKnownPosition() } ?? nil }
        reducer = AgentReducer(
            configuration: Self.configuration(
                settings: settings, options: options, store: services.store, liveScreen: display.isLive,
                gpsdAddress: address.description),
            startedAt: services.clock.reading().monotonic, lastKnown: lastKnown, fixedPosition: options.fixedPosition)
    }

    /// Runs until the reducer says `exit` (SIGINT, SIGTERM, SIGHUP, `q`, stdout gone); returns the exit code.
    func run() -> Int32 {
        inbox.doorbell.route(signals: signals)
        // Held since main (`LoopDoorbell.holdSignals`): routed now, so let them come, to this thread
        // alone (every other thread inherited the hold): one that came during start-up arrives now.
        LoopDoorbell.releaseHeldSignals()
        defer { LoopDoorbell.restoreDefault(signals: signals) }
        let clock = services.clock
        // The seed's launch screen with data: the last stored reading at once, marked with its age.
        if !options.oneReading, let store = services.store,
            let last = Self.onStoreThread(store, { try? $0.lastReading() }) ?? nil
        {
            handle(.storedReadingLoaded(last))
        }
        if let issue = services.storeIssue { handle(.storageProblem(issue)) }
        handle(.started(at: clock.reading(), sleepOffsetS: SuspendClock.sleepOffsetS()))
        drawIfNeeded(at: clock.reading())

        var fds: [pollfd] = []
        while exitCode == nil {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: inbox.doorbell.readEnd, events: Int16(POLLIN), revents: 0))
            let watch = reducer.gpsWatch
            let gpsFD = watch == nil ? nil : gps?.descriptor
            if let gpsFD {
                fds.append(
                    pollfd(fd: gpsFD, events: watch == .reports ? Int16(POLLIN) : Syscall.pollHangUp, revents: 0))
            }
            let keyFD = reducer.listensToPeople ? display.keyboard : nil
            if let keyFD { fds.append(pollfd(fd: keyFD, events: Int16(POLLIN), revents: 0)) }
            // Its reader going away (`| head -1`) shows as POLLERR, asked or not.
            let stdoutWatched = reducer.watchesOutputReader
            if stdoutWatched { fds.append(pollfd(fd: 1, events: 0, revents: 0)) }

            // A read that stopped at its bound leaves reports received: poll(2) would not wake for them.
            let buffered = watch == .reports && (gps?.hasBufferedReport ?? false)
            let from = clock.reading().monotonic
            let timeout = AgentReducer.pollTimeoutMs(until: reducer.nextDeadline, at: from, reportHeld: buffered)
            let ready = Syscall.poll(&fds, timeoutMs: timeout)
            let now = clock.reading()
            if let offset = SuspendClock.sleepOffsetS() { handle(.resumeSample(sleepOffsetS: offset, at: now)) }
            if ready > 0, fds[0].revents != 0 { serviceDoorbell(now: now) }
            var index = 1
            if gpsFD != nil {
                // Reports, or (gathering) gpsd hung up: what it sent before is read, then the end is seen.
                if buffered || fds[index].revents != 0 { readGPS() }
                index += 1
            }
            if keyFD != nil {
                if fds[index].revents != 0 {
                    readKeys(hungUp: fds[index].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0, now: now)
                }
                index += 1
            }
            if stdoutWatched, fds[index].revents != 0 { handle(.outputLost(.readerGone, at: now)) }
            if let deadline = reducer.nextDeadline, deadline <= now.monotonic { handle(.deadline(at: now)) }
            drawIfNeeded(at: now)
        }
        gps?.close()
        let trackProblem = writer.map { $0.finish(timeoutS: 5) }
        let unprinted = display.close()
        for sentence in partingWords { Console.err(sentence + "\n") }
        if let trackProblem { handle(.trackFinished(trackProblem)) }
        guard unprinted > 0 else { return exitCode ?? ExitCode.success }
        if !outputFailureSaid { Console.err(Self.stalledReaderSentence(unprinted: unprinted) + "\n") }
        return ExitCode.failure
    }

    // MARK: - Events in

    func handle(_ event: AgentEvent) {
        for effect in reducer.handle(event) { perform(effect) }
    }

    private func serviceDoorbell(now: ClockReading) {
        let (signalsCaught, _) = inbox.doorbell.drain()
        for s in signalsCaught {
            switch s {
            case SIGUSR1: handle(.manualRequest(at: now))
            case SIGINT, SIGTERM, SIGHUP: handle(.stopRequested(at: now))
            case SIGWINCH:
                display.terminalResized()
                handle(.screenChanged(at: now))
            case SIGTSTP: stopForJobControl()
            case SIGCONT: continueAfterJobControl()
            default: break
            }
        }
        for event in inbox.take() { handle(event) }
    }

    /// Reads what gpsd sent and hands it on: its events, the read's end, and a connection found lost.
    func readGPS() {
        guard let gps else { return }
        gpsEvents.removeAll(keepingCapacity: true)
        let alive = gps.readAvailable(into: &gpsEvents)
        let now = services.clock.reading()
        for event in gpsEvents { handle(.gps(event, at: now)) }
        handle(.gpsReadEnded(connected: alive, rejectedFixes: gps.rejectedFixes, at: now))
        if !alive { handle(.gps(.disconnected(gps.lossError), at: now)) }
    }

    private func readKeys(hungUp: Bool, now: ClockReading) {
        guard let live = display as? LiveDisplay else { return }
        let keys = live.readKeys()
        // Nothing to read and poll said so: the terminal hung up. Nothing to read alone is not that: a
        // key that was there when poll looked may have been flushed meanwhile (a Ctrl-Z or `fg` served
        // first drops the keys typed), and the live screen must not turn into JSON lines for it.
        if keys.isEmpty {
            if hungUp { handle(.terminalHungUp(at: now)) }
            return
        }
        for key in keys { handle(.key(key, at: now)) }
    }
}
