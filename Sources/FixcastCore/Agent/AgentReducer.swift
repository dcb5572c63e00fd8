import FoundationEssentials

/// Every decision of `fixcast run`, as one pure function: `(state, event) -> (state, [effect])`.
///
/// The loop owns the threads, the sockets and the clock; it turns what happens into `AgentEvent`s
/// (each with its time), carries out the `AgentEffect`s that come back, sleeps until `nextDeadline`,
/// and draws `status`. Everything else is decided here, once, and tested without a thread, a daemon
/// or a sleep:
///
/// - which readings to take and when (`ReadingScheduler`: startup once, the fix wait of
///   `FixWaitPolicy` with its retries then the last-known position, moved, periodic, resume,
///   manual, alert; one reading in flight with start/join/joinThenForce);
/// - what a reading must say about a last-known position (`ReadingRequest.notes`);
/// - which fixes go into the track (`TrackThinner`) and when the last-known position is saved
///   (`LastKnownSaveGate`);
/// - when to ask for the official alerts and which are news (`AlertWatch`);
/// - what the gps side's state is (`GPSStatus`, typed) and what the status line says;
/// - when to leave (SIGINT/SIGTERM/SIGHUP, `q`, stdout gone) and with which exit status.
///
/// Every event that carries a time also counts as reaching any deadline at or before it, so a busy
/// gpsd stream that keeps the loop's poll from timing out cannot starve the timers. Deadlines are
/// monotonic instants (`ClockReading.monotonic`); the wall clock is only shown and stored, so a
/// clock set at the first fix (a Pi without a real-time clock) moves none of them.
public struct AgentReducer: Sendable {
    public let configuration: Configuration
    /// What the live screen shows.
    public private(set) var status: AgentStatus

    private var scheduler: ReadingScheduler
    private var thinner: TrackThinner
    private var lastKnownGate: LastKnownSaveGate
    private var alerts: AlertWatch?
    /// `--at` / `--place`: the one position the agent will ever have; gps events are ignored.
    private let fixedPosition: Position?
    /// `fixedPosition == nil` as a tag test: comparing an optional `Position` with nil copies it, and
    /// the question comes at every event.
    private var followsGPS: Bool {
        if case .none = fixedPosition { return true }
        return false
    }
    private var hasStarted = false
    private var stopped = false
    /// gpsd not answering or gone (cleared when it connects again or a fix comes).
    private var gpsProblem: GPSError?
    /// The startup wait's announcement (`.waitingForFix` or `.noPosition`) until a reading is taken.
    private var fixWaitNotice: GPSStatus?
    /// The last finished reading's errors, for the status line.
    private var readingProblems: [ReadingIssue] = []
    /// Which components are failing, for the one line a change of health is worth (`ComponentHealth`).
    public private(set) var health = ComponentHealth()
    /// A reading was finished that could not be stored: the exit status says so (1), since a reading
    /// lost is never reported as success.
    public private(set) var lostReadings = 0

    /// - Parameters:
    ///   - startedAt: when the agent started (the fix wait counts from here).
    ///   - lastKnown: the stored last-known position, the fall-back when no fix comes in time.
    ///   - fixedPosition: `--at` / `--place`; its startup reading comes with `.started`.
    public init(
        configuration: Configuration, startedAt: MonotonicInstant, lastKnown: Position?, fixedPosition: Position? = nil
    ) {
        self.configuration = configuration
        scheduler = ReadingScheduler(configuration: configuration.scheduler, startedAt: startedAt, lastKnown: lastKnown)
        thinner = TrackThinner(intervalS: configuration.trackIntervalS, distanceM: configuration.trackDistanceM)
        lastKnownGate = LastKnownSaveGate(intervalS: configuration.lastKnownSaveIntervalS)
        alerts = configuration.alertCheckMin.map {
            AlertWatch(intervalMin: $0, resetDistanceKm: configuration.scheduler.moveKm)
        }
        self.fixedPosition = fixedPosition
        status = AgentStatus(position: fixedPosition)
        refreshStatus()
    }

    /// When (monotonic) the loop must send `.deadline` if nothing else happens first; nil: wait for
    /// events only.
    public var nextDeadline: MonotonicInstant? {
        guard !stopped, followsGPS || hasStarted else { return nil }
        // No array: this runs at every event and every turn of the loop (at 1 Hz, for hours).
        switch (scheduler.nextTickAt, alerts?.nextCheckAt) {
        case (let tick?, let check?): return min(tick, check)
        case (let tick?, nil): return tick
        case (nil, let check): return check
        }
    }

    public mutating func handle(_ event: AgentEvent) -> [AgentEffect] {
        guard !stopped else { return [] }
        let before = status
        var effects: [AgentEffect] = []
        var notices: [HealthNotice] = []
        var time: ClockReading?
        switch event {
        case .started(let at, let sleepOffsetS):
            time = at
            hasStarted = true
            if let sleepOffsetS {  // the resume gate's baseline: a cold start is not a resume
                effects += decide(scheduler.handle(.resumeSample(sleepOffsetS: sleepOffsetS, at: at)), at: at)
            }
            if let fixedPosition {
                effects += decide(scheduler.handle(.fix(fixedPosition, at: at)), at: at)
            }
        case .storedReadingLoaded(let reading):
            if status.reading == nil { status.reading = reading }
        case .gps(let gpsEvent, let at):
            time = at
            if followsGPS {
                effects += handle(gpsEvent, at: at)
                if let notice = gpsHealth(gpsEvent) { notices.append(notice) }
            }
        case .deadline(let at):
            effects += timedChecks(at: at)
        case .resumeSample(let offset, let at):
            time = at
            effects += decide(scheduler.handle(.resumeSample(sleepOffsetS: offset, at: at)), at: at)
        case .manualRequest(let at):
            time = at
            effects += decide(scheduler.handle(.manualRequest(at: at)), at: at)
        case .key(let key, let at):
            time = at
            switch LiveCommand(key: key) {
            case .refresh: effects += decide(scheduler.handle(.manualRequest(at: at)), at: at)
            case .quit: return stop()
            case nil: break
            }
        case .readingFinished(let reading, let at):
            time = at
            status.reading = reading
            readingProblems = reading.errors
            if reading.id == nil, reading.errors.contains(where: { $0.component == .storage }) { lostReadings += 1 }
            notices += health.observe(reading)
            // The movement trigger measures from where the weather is for (the asked point, or a
            // cache hit's own point), never from the API's grid cell.
            effects += decide(
                scheduler.handle(.readingFinished(weatherFetchedAt: reading.weather?.coordinate, at: at)), at: at)
        case .alertsChecked(let ids, let at):
            time = at
            if var watch = alerts {
                status.activeAlertIDs = ids
                let news = watch.news(in: ids)
                alerts = watch
                if !news.isEmpty {
                    effects += decide(scheduler.handle(.newAlerts(at: at)), at: at)
                    effects.append(.announceAlerts(news))
                }
            }
        case .storageProblem(let issue):
            status.storage = issue
            if let notice = health.observe(.storage, problem: issue) { notices.append(notice) }
        case .stopRequested:
            return stop()
        case .outputLost(let readerGone, _):
            return stop(printingFailed: !readerGone)
        }
        if let time, let due = nextDeadline, time.monotonic >= due { effects += timedChecks(at: time) }
        refreshStatus()
        if !notices.isEmpty { effects.append(.announceHealth(notices)) }
        if effects.count > 1 { effects.sort { Self.rank($0) < Self.rank($1) } }  // at most one of each kind
        if status != before { effects.append(.redraw) }
        return effects
    }

    // MARK: - Parts

    private mutating func handle(_ event: GPSEvent, at now: ClockReading) -> [AgentEffect] {
        switch event {
        case .connected, .device:
            gpsProblem = nil
            return []
        case .fix(let fix):
            gpsProblem = nil
            let position = Position(fix: fix)
            status.position = position
            var effects = decide(scheduler.handle(.fix(position, at: now)), at: now)
            if thinner.accept(fix) {
                effects.append(.recordTrackPoint(fix))
                if lastKnownGate.shouldSave(at: now.monotonic) { effects.append(.saveLastKnown(position)) }
            }
            return effects
        case .noFix:
            return decide(scheduler.handle(.fixLost(at: now)), at: now)
        case .satellites(let used, _):
            if let used { status.position?.satellitesUsed = used }
            return []
        case .disconnected(let error):
            gpsProblem = error
            return decide(scheduler.handle(.fixLost(at: now)), at: now)
        }
    }

    /// What is due at `now`: the fix wait's next step or a periodic reading, and an alert check.
    private mutating func timedChecks(at now: ClockReading) -> [AgentEffect] {
        guard followsGPS || hasStarted else { return [] }
        var effects = decide(scheduler.handle(.tick(at: now)), at: now)
        if var watch = alerts, watch.isDue(at: now.monotonic), let position = scheduler.readingPosition {
            watch.checkStarted(at: position.coordinate, now: now.monotonic)
            alerts = watch
            effects.append(.checkAlerts(position))
        }
        return effects
    }

    private mutating func decide(_ decision: ReadingScheduler.Decision, at now: ClockReading) -> [AgentEffect] {
        switch decision {
        case .none:
            return []
        case .takeReading(var request):
            fixWaitNotice = nil  // the wait is over: a reading is on its way
            request.notes = ReadingRequest.notes(
                for: request.position, fixLostSince: scheduler.fixLostSince, at: now.wall)
            var effects: [AgentEffect] = [.takeReading(request)]
            // The first reading starts the alert checks.
            if var watch = alerts, watch.lastCheckAt == nil {
                watch.checkStarted(at: request.position.coordinate, now: now.monotonic)
                alerts = watch
                effects.append(.checkAlerts(request.position))
            }
            return effects
        case .retryFix(let retry, let of):
            fixWaitNotice = .waitingForFix(retry: retry, of: of, timeoutS: scheduler.fixWait.limits.timeoutS)
            return []
        case .noPosition:
            fixWaitNotice = .noPosition
            return []
        }
    }

    /// The health change a gps event makes: gpsd away (unreachable, lost, refusing) or answering again.
    private mutating func gpsHealth(_ event: GPSEvent) -> HealthNotice? {
        switch event {
        case .disconnected(let error):
            return health.observe(.gps, problem: ReadingIssue(error))
        case .connected(let address):
            return health.observe(.gps, problem: nil, recovered: HealthNotice.gpsdBack(address: address))
        case .fix, .noFix, .device, .satellites:
            return nil
        }
    }

    /// Leaves; exit 1 when something was lost: a reading that could not be stored or printed, or
    /// track and last-known writes still failing (what waits for the disk is lost with the process).
    private mutating func stop(printingFailed: Bool = false) -> [AgentEffect] {
        stopped = true
        let lost = printingFailed || lostReadings > 0 || status.storage != nil
        return [.exit(code: lost ? 1 : 0)]
    }

    private var gpsStatus: GPSStatus {
        if !followsGPS { return .fixing }
        if let gpsProblem { return .problem(gpsProblem) }
        if scheduler.hasLiveFix { return .fixing }
        if let lost = scheduler.fixLostSince { return .lost(since: lost) }
        return fixWaitNotice ?? .starting
    }

    private mutating func refreshStatus() {
        status.fixLostSince = scheduler.fixLostSince
        status.gps = gpsStatus
        status.updating = scheduler.isReadingInFlight
        // Built only when the gps or the store has a problem: most events change neither, and the
        // reading's own problems are shared, not copied.
        let gpsIssue = status.gps.issue
        let problems =
            gpsIssue == nil && status.storage == nil
            ? readingProblems : [gpsIssue, status.storage].compactMap { $0 } + readingProblems
        if problems != status.problems { status.problems = problems }
    }

    private static func rank(_ effect: AgentEffect) -> Int {
        switch effect {
        case .takeReading: return 0
        case .checkAlerts: return 1
        case .announceAlerts: return 2
        case .recordTrackPoint: return 3
        case .saveLastKnown: return 4
        case .announceHealth: return 5
        case .redraw: return 6
        case .exit: return 7
        }
    }
}
