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
/// - what a reading must say about a last-known position (`ReadingRequest.lastKnownNote`);
/// - which fixes go into the track (`TrackThinner`) and when the last-known position is saved
///   (`LastKnownSaveGate`);
/// - when to ask for the official alerts and which are news (`AlertWatch`);
/// - what the gps side's state is (`GPSStatus`, typed) and what the status line says, and which of
///   its changes a headless run says on stderr (`health` for gpsd, `fixHealth` for the receiver);
/// - how gpsd's socket is read (`GPSDLink`): reports left to gather (`ReportGathering`) and read
///   early when a person asks for something, dropped across a suspend, the reconnect back-off, when
///   a receiver that stopped sending has lost its fix (`ReceiverSilence`), when rejected-fix counts
///   are saved;
/// - when kept track points go to the store (`TrackWriteBatch`), when the screen is drawn (a change,
///   a resize, its clock's minute), when a finished reading is printed, JSON lines after a hang-up;
/// - when to leave (SIGINT/SIGTERM/SIGHUP, `q`, stdout gone), how long a reading in flight may
///   finish first (`shutdownReadingWaitS`), and with which exit status.
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
    /// Leaving, waiting until then for the reading in flight (`shutdownReadingWaitS`).
    private var stoppingUntil: MonotonicInstant?
    /// The stop waits for the reading in flight, which has not finished yet.
    private var readingAwaitedAtStop = false
    /// A reading could not be printed (stdout refuses writes): exit 1.
    private var printingFailed = false
    /// gpsd's socket: gather windows, reconnect back-off, rejected-fix saves.
    public private(set) var gpsd: GPSDLink
    private var writes = TrackWriteBatch()
    /// The live screen is up (false headless, and after its terminal hung up).
    public private(set) var liveScreen: Bool
    /// When the live screen's clock turns its next minute (monotonic; from the wall clock at the
    /// last redraw).
    private var minuteTurnsAt: MonotonicInstant?
    /// The last sleep offset passed on to the scheduler (`ResumeGate.isNews`).
    private var sleepOffsetPassedOn: Double?
    /// A person's requests made during a gather window, decided once what gathered was read.
    private var afterRead: [AgentEvent] = []
    /// A reading in flight at a stop may finish this long (its row commits and it is printed).
    public static let shutdownReadingWaitS = 3.0
    /// gpsd not answering or gone (cleared when it connects again or a fix comes).
    private var gpsProblem: GPSError?
    /// The startup wait's announcement (`.waitingForFix` or `.noPosition`) until a reading is taken.
    private var fixWaitNotice: GPSStatus?
    /// The last finished reading's errors, for the status line.
    private var readingProblems: [ReadingIssue] = []
    /// Why the last reading could not be stored (nil: it was, or none was taken); storage's health
    /// counts it beside the track's writes (`ComponentHealth.observe(_:trackProblem:)`).
    private var readingStoreProblem: ReadingIssue?
    /// Whether the last reading was for the last known position (`readingProblemsNow`).
    private var readingWasAtLastKnown = false
    /// Which components are failing, for the one line a change of health is worth (`ComponentHealth`).
    public private(set) var health = ComponentHealth()
    /// The receiver's side of the gps, apart from gpsd's (`health`): no fix yet at start-up, or a
    /// receiver gone silent, said once, and once again when fixes come (`fixHealthNotice`).
    public private(set) var fixHealth = ComponentHealth()
    /// When the last fix was handled: a silent receiver's fix counts as lost from then.
    private var lastFixAt: ClockReading?
    /// A reading was finished that could not be stored: the exit status says so (1), since a reading
    /// lost is never reported as success.
    public private(set) var lostReadings = 0
    /// One-reading run (`stopsAfterFirstReading`): the reading came without weather, or there was
    /// no position at all, or it was stopped before its reading: exit 1.
    private var oneReadingFailed = false
    /// One-reading run: its reading finished.
    private var oneReadingDone = false
    /// The code of the `.exit` said at the stop (nil before it).
    private var decidedExit: Int32?
    private var oneReading: Bool { configuration.stopsAfterFirstReading }

    /// - Parameters:
    ///   - startedAt: when the agent started (the fix wait counts from here).
    ///   - lastKnown: the stored last-known position, the fall-back when no fix comes in time.
    ///   - fixedPosition: `--at` / `--place`; its startup reading comes with `.started`.
    public init(
        configuration: Configuration, startedAt: MonotonicInstant, lastKnown: Position?, fixedPosition: Position? = nil
    ) {
        self.configuration = configuration
        var schedule = configuration.scheduler
        if configuration.stopsAfterFirstReading { schedule.givesUpWhenUnreachable = true }
        scheduler = ReadingScheduler(configuration: schedule, startedAt: startedAt, lastKnown: lastKnown)
        thinner = TrackThinner(
            intervalS: configuration.trackIntervalS, distanceM: configuration.trackDistanceM,
            stillIntervalS: configuration.trackStillIntervalS)
        lastKnownGate = LastKnownSaveGate(intervalS: configuration.lastKnownSaveIntervalS)
        alerts = configuration.alertCheckMin.map { AlertWatch(intervalMin: $0, seen: configuration.alertsSeen) }
        self.fixedPosition = fixedPosition
        liveScreen = configuration.liveScreen
        // A one-reading run has a person waiting for its first fix: each report is read as it comes.
        gpsd = GPSDLink(headless: !configuration.liveScreen && !configuration.stopsAfterFirstReading)
        status = AgentStatus(position: fixedPosition)
        refreshStatus()
    }

    /// When (monotonic) the loop must send `.deadline` if nothing else happens first; nil: wait for
    /// events only.
    public var nextDeadline: MonotonicInstant? {
        if stopped { return nil }
        if let stoppingUntil { return stoppingUntil }
        // No array: this runs at every event and every turn of the loop (at 1 Hz, for hours).
        var due = Self.earliest(gpsd.nextDeadline, writes.deadline)
        if liveScreen { due = Self.earliest(due, minuteTurnsAt) }
        guard followsGPS || hasStarted else { return due }
        return Self.earliest(due, Self.earliest(scheduler.nextTickAt, alerts?.nextCheckAt))
    }

    /// How the loop polls gpsd's socket now; nil: not at all (no gpsd, or leaving).
    public var gpsWatch: GPSDLink.Watch? {
        guard followsGPS, !stopped, stoppingUntil == nil else { return nil }
        return gpsd.watch
    }

    /// Whether the loop listens to the keyboard and stdout's reader (not while leaving).
    public var listensToPeople: Bool { !stopped && stoppingUntil == nil }

    public mutating func handle(_ event: AgentEvent) -> [AgentEffect] {
        if stopped {
            // The exit said at the stop counted the track's writes as they stood; the last one, made
            // after it, decides: lost points make it 1, a disk that took everything at last clears it.
            guard case .trackFinished(let issue) = event else { return [] }
            var effects: [AgentEffect] = []
            // Said once, as while running: a disk that refused only the last write is news here. On
            // stderr whatever the display was: the live screen is closed by now, and `now` has printed.
            if let notice = health.observe(.storage, problem: issue ?? readingStoreProblem) {
                effects.append(.announceHealth([notice]))
            }
            let code = exitCode(trackProblem: issue)
            if code != decidedExit { effects.append(.exit(code: code)) }
            return effects
        }
        if stoppingUntil != nil { return whileStopping(event) }
        switch event {
        case .resumeSample(let offset, _):
            // Sampled at every turn of the loop: only a change is worth the reducer's time.
            guard ResumeGate.isNews(offset, after: sleepOffsetPassedOn) else { return [] }
        case .manualRequest, .key, .stopRequested:
            // A person asked during a gather window: what gathered is read first, so that the
            // answer is for the newest fix and the track keeps every fix up to a stop.
            if gpsd.endGathering() {
                afterRead.append(event)
                return [.readGPS]
            }
        default:
            break
        }
        var effects = apply(event)
        if case .gpsReadEnded = event, !afterRead.isEmpty {
            let waiting = afterRead
            afterRead = []
            for request in waiting { effects += apply(request) }
        }
        return effects
    }

    private mutating func apply(_ event: AgentEvent) -> [AgentEffect] {
        guard !stopped else { return [] }
        let before = status
        var drawAnyway = false
        var effects: [AgentEffect] = []
        var notices: [HealthNotice] = []
        var time: ClockReading?
        switch event {
        case .started(let at, let sleepOffsetS):
            time = at
            hasStarted = true
            drawAnyway = liveScreen  // the launch screen
            if followsGPS { effects.append(.connectGPS) }
            sleepOffsetPassedOn = sleepOffsetS
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
                gpsd.saw(gpsEvent, at: at.monotonic)
                effects += handle(gpsEvent, at: at)
                if let notice = gpsHealth(gpsEvent) { notices.append(notice) }
            }
        case .gpsReadEnded(let connected, let rejected, let at):
            time = at
            if let delta = gpsd.readEnded(
                connected: connected, rejected: rejected, fixAwaited: scheduler.isWaitingForFix, at: at.monotonic)
            {
                effects.append(.saveRejectedFixes(delta))
            }
        case .deadline(let at):
            time = at
            effects += timedChecks(at: at)
        case .resumeSample(let offset, let at):
            time = at
            // The machine slept: what gathered came before the suspend or just after it, and when
            // is unknowable now. It goes unread; the receiver sends again within a second.
            if sleepOffsetPassedOn != nil, gpsd.resumed(at: at.monotonic) { effects.append(.dropGathered) }
            sleepOffsetPassedOn = offset
            effects += decide(scheduler.handle(.resumeSample(sleepOffsetS: offset, at: at)), at: at)
        case .manualRequest(let at):
            time = at
            effects += decide(scheduler.handle(.manualRequest(at: at)), at: at)
        case .key(let key, let at):
            time = at
            switch LiveCommand(key: key) {
            case .refresh: effects += decide(scheduler.handle(.manualRequest(at: at)), at: at)
            case .quit: return stop(at: at)
            case nil: break
            }
        case .readingFinished(let reading, let at) where oneReading:
            // The one reading: printed, then the agent leaves at the next turn, once the print's
            // outcome is known (`whileStopping`).
            status.reading = reading
            noteWhetherStored(reading)
            // Its problems are printed with it: seen, so the same problem at the last track write is
            // not said again at the end (a store locked by another program was said twice).
            _ = health.observe(reading, trackProblem: status.storage)
            if reading.weather == nil { oneReadingFailed = true }
            oneReadingDone = true
            stoppingUntil = at.monotonic
            return [.printReading(reading)]
        case .readingFinished(let reading, let at):
            time = at
            effects.append(.printReading(reading))
            status.reading = reading
            readingProblems = reading.errors
            readingWasAtLastKnown = reading.position?.source == .lastKnown
            noteWhetherStored(reading)
            notices += health.observe(reading, trackProblem: status.storage)
            // The movement trigger measures from where the weather is for (the asked point, or a
            // cache hit's own point), never from the API's grid cell.
            effects += decide(
                scheduler.handle(.readingFinished(weatherFetchedAt: Self.freshWeatherPoint(reading), at: at)), at: at)
        case .alertsChecked(let answered, let at):
            time = at
            // No answer (the source failed and nothing stored stood in): nothing is known to have ended.
            if var watch = alerts, let ids = answered {
                status.activeAlertIDs = ids
                let before = watch.remembered
                let news = watch.news(in: ids)
                alerts = watch
                if !news.isEmpty {
                    effects += decide(scheduler.handle(.newAlerts(at: at)), at: at)
                    effects.append(.announceAlerts(news))
                }
                if watch.remembered != before { effects.append(.rememberAlertsSeen(watch.remembered)) }
            }
        case .storageProblem(let issue), .trackFinished(let issue):  // the latter comes after the stop
            status.storage = issue
            // The track's writes working again is not the store's recovery while the last reading was lost.
            if let notice = health.observe(.storage, problem: issue ?? readingStoreProblem) { notices.append(notice) }
        case .storeReplaced(let path):
            notices.append(HealthNotice.storeReplaced(path: path))
        case .stopRequested(let at):
            return stop(at: at)
        case .screenChanged(let at):
            time = at
            drawAnyway = liveScreen
        case .terminalHungUp(let at):
            time = at
            guard liveScreen else { break }
            liveScreen = false  // carry on without a keyboard, as `run --json` does
            gpsd.headless = true
            minuteTurnsAt = nil
            effects.append(.useJSONLines)
        case .outputLost(let loss, let at):
            return outputFailure(loss) + stop(at: at)
        }
        if let time {
            if let due = nextDeadline, time.monotonic >= due { effects += timedChecks(at: time) }
            if writes.isDue(at: time.monotonic, gatheringUntil: gpsd.quietUntil) { effects.append(.writeTrack) }
            if liveScreen, let turn = minuteTurnsAt, time.monotonic >= turn { drawAnyway = true }
        }
        refreshStatus()
        if status.gps != before.gps, let notice = fixHealthNotice() { notices.append(notice) }
        // A one-reading run says what went wrong in its reading's notes or its one sentence.
        if !notices.isEmpty, !liveScreen, !oneReading { effects.append(.announceHealth(notices)) }
        if effects.count > 1 { effects.sort { Self.rank($0) < Self.rank($1) } }  // at most one of each kind
        if !stopped, status != before || drawAnyway {
            effects.append(.redraw)
            if liveScreen, let time {
                minuteTurnsAt = Self.nextTurn(after: time, fixObtainedAt: status.position?.obtainedAt)
            }
        }
        return effects
    }

    /// While leaving: the reading in flight may finish (it is printed, then the agent leaves at the
    /// next turn, once the print's outcome is known), or the wait runs out.
    private mutating func whileStopping(_ event: AgentEvent) -> [AgentEffect] {
        switch event {
        case .readingFinished(let reading, let at):
            status.reading = reading
            noteWhetherStored(reading)
            readingAwaitedAtStop = false
            stoppingUntil = at.monotonic
            return [.printReading(reading)]
        case .outputLost(let loss, _):
            return outputFailure(loss)
        case .deadline(let at):
            guard let until = stoppingUntil, at.monotonic >= until else { return [] }
            return leave(at: at)
        default:
            return []  // a second stop, a key, gpsd: nothing more is taken in
        }
    }

    /// Whether `reading` was stored: a loss counts for the exit, and its problem stands beside the
    /// track's for storage's health (`readingStoreProblem`) until a reading is stored again.
    private mutating func noteWhetherStored(_ reading: Reading) {
        readingStoreProblem = reading.id == nil ? reading.errors.first { $0.component == .storage } : nil
        if readingStoreProblem != nil { lostReadings += 1 }
    }

    /// A print that failed: said once (`sayOutputFailed`), and the exit says 1; a reader gone is no loss.
    private mutating func outputFailure(_ loss: OutputLoss) -> [AgentEffect] {
        guard loss != .readerGone else { return [] }
        defer { printingFailed = true }
        return printingFailed ? [] : [.sayOutputFailed(loss)]
    }

    // MARK: - Parts

    private mutating func handle(_ event: GPSEvent, at now: ClockReading) -> [AgentEffect] {
        switch event {
        case .opened:
            return decide(scheduler.handle(.gpsConnection(.opened, at: now)), at: now)
        case .connected:
            gpsProblem = nil
            return decide(scheduler.handle(.gpsConnection(.connected, at: now)), at: now)
        case .device:
            gpsProblem = nil
            return []
        case .fix(let fix):
            gpsProblem = nil
            lastFixAt = now
            let position = Position(fix: fix)
            status.position = position
            // Kept before the reading is decided: a run that stops at its position leaves in that
            // decision, and the write it leaves with must hold this fix.
            var effects: [AgentEffect] = []
            if thinner.accept(fix) {
                if !oneReading { effects.append(.recordTrackPoint(fix)) }
                writes.kept(at: now.monotonic)
                if lastKnownGate.shouldSave(at: now.monotonic) { effects.append(.saveLastKnown(position)) }
            }
            return effects + decide(scheduler.handle(.fix(position, at: now)), at: now)
        case .noFix:
            return decide(scheduler.handle(.fixLost(at: now)), at: now)
        case .satellites(let used, _):
            if let used { status.position?.satellitesUsed = used }
            return []
        case .disconnected(let error):
            gpsProblem = error
            let connection: FixWaitPolicy.Event
            switch error {
            case .unreachable, .watchRefused, .libraryMissing, .nameNotResolved: connection = .unreachable
            default: connection = .connectionLost
            }
            let lost = decide(scheduler.handle(.fixLost(at: now)), at: now)
            return lost + decide(scheduler.handle(.gpsConnection(connection, at: now)), at: now)
        }
    }

    /// What is due at `now`: the fix wait's next step or a periodic reading, and an alert check.
    private mutating func timedChecks(at now: ClockReading) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        if gpsd.connectionDue(at: now.monotonic) { effects.append(.connectGPS) }
        if gpsd.answerOverdue(at: now.monotonic) { effects.append(.dropUnansweredGPS) }
        if gpsd.gatheringOver(at: now.monotonic), gpsd.endGathering() { effects.append(.readGPS) }
        // A receiver gone quiet: its fix is lost from its last fix on, as if gpsd had said so.
        if followsGPS, gpsd.silenceDue(at: now.monotonic), scheduler.hasLiveFix, let last = lastFixAt {
            _ = scheduler.handle(.fixLost(at: last))
        }
        guard followsGPS || hasStarted else { return effects }
        let decided = decide(scheduler.handle(.tick(at: now)), at: now)
        // A one-reading run that gave up leaves now: no reconnect, no read.
        if stopped { return decided }
        effects += decided
        if var watch = alerts, watch.isDue(at: now.monotonic), let position = scheduler.readingPosition {
            watch.checkStarted(now: now.monotonic)
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
            request.notes =
                ReadingRequest.lastKnownNote(
                    for: request.position, because: lastKnownReason(for: request.trigger), at: now.wall
                ).map { [$0] } ?? []
            if configuration.stopsAtPosition {
                oneReadingDone = true
                return [.positionResolved(request)] + leave(at: now)
            }
            if oneReading {
                // `fixcast now`'s one reading is `once` (CONTRACT.md), not a `run` starting up, so
                // the store, MQTT and the exports tell the two apart.
                request.trigger = .once
                // The reading says what the store said at the start (`now` exits 1 for it).
                if let storage = status.storage { request.notes.append(storage) }
                if configuration.forcesTheReading { request.forced = true }
            }
            var effects: [AgentEffect] = [.takeReading(request)]
            // The first reading starts the alert checks.
            if var watch = alerts, watch.lastCheckAt == nil {
                watch.checkStarted(now: now.monotonic)
                alerts = watch
                effects.append(.checkAlerts(request.position))
            }
            return effects
        case .retryFix(let retry, let of):
            fixWaitNotice = .waitingForFix(retry: retry, of: of, timeoutS: scheduler.fixWait.limits.timeoutS)
            return []
        case .noPosition:
            fixWaitNotice = .noPosition
            guard oneReading else { return [] }
            oneReadingFailed = true
            // Without libgps, or without the host's address, no wait could have worked: say that, not
            // "gpsd is not answering; start gpsd".
            if let problem = gpsProblem {
                switch problem {
                case .libraryMissing, .nameNotResolved: return [.sayNoPosition(problem)] + leave(at: now)
                default: break
                }
            }
            let why = scheduler.fixWaitFailure ?? .unreachable
            return [.sayNoPosition(GPSError(why, address: configuration.gpsdAddress))] + leave(at: now)
        }
    }

    /// Why a reading for `trigger` would be at the last known position: the startup wait's failure
    /// for the startup reading, else since when there is no fix.
    private func lastKnownReason(for trigger: Trigger) -> ReadingRequest.LastKnownReason {
        if trigger == .startup, let why = scheduler.fixWaitFailure {
            if why == .unreachable, case .nameNotResolved? = gpsProblem {
                return .hostNotLookedUp(address: configuration.gpsdAddress)
            }
            return .fixWait(why, address: configuration.gpsdAddress)
        }
        return scheduler.fixLostSince.map { .fixLostSince($0) } ?? .noFixYet
    }

    /// The health change a gps event makes: gpsd away (unreachable, lost, refusing) or answering again.
    private mutating func gpsHealth(_ event: GPSEvent) -> HealthNotice? {
        switch event {
        case .disconnected(let error):
            return health.observe(.gps, problem: ReadingIssue(error))
        case .connected(let address):
            return health.observe(.gps, problem: nil, recovered: HealthNotice.gpsdBack(address: address))
        case .opened, .fix, .noFix, .device, .satellites:
            return nil
        }
    }

    /// The change of the receiver's health that the gps status just made, if it is one: no fix yet at
    /// start-up (the first retry, then no position), a receiver gone silent, and fixes coming after
    /// either. A fix lost with the receiver still talking (a tunnel: gpsd says so) is no failure of
    /// the receiver and is not said; gpsd itself away is `health`'s.
    private mutating func fixHealthNotice() -> HealthNotice? {
        switch status.gps {
        case .waitingForFix, .noPosition, .silent:
            return fixHealth.observe(.gps, problem: status.gps.issue)
        case .fixing:
            return fixHealth.observe(.gps, problem: nil, recovered: HealthNotice.fixesCome)
        case .starting, .lost, .problem:
            return nil
        }
    }

    /// Leaves at once, or once the reading in flight finished (at most `shutdownReadingWaitS`).
    private mutating func stop(at now: ClockReading) -> [AgentEffect] {
        guard scheduler.isReadingInFlight else { return leave(at: now) }
        stoppingUntil = now.monotonic.advanced(by: Self.shutdownReadingWaitS)
        readingAwaitedAtStop = true
        return []
    }

    /// The kept track and the rejected counts go to the store; exit 1 when something was lost: a
    /// reading that could not be stored or printed, or track and last-known writes still failing
    /// (what waits for the disk is lost with the process).
    private mutating func leave(at now: ClockReading) -> [AgentEffect] {
        stopped = true
        stoppingUntil = nil
        // The wait ran out: the reading is dropped with the process, and a person is told so.
        var effects: [AgentEffect] = readingAwaitedAtStop ? [.sayReadingAbandoned] : []
        if writes.takeAll() { effects.append(.writeTrack) }
        if let left = gpsd.rejectedLeft(at: now.monotonic) { effects.append(.saveRejectedFixes(left)) }
        let code = exitCode(trackProblem: status.storage)
        decidedExit = code
        effects.append(.exit(code: code))
        return effects
    }

    /// 1 when something was lost: a reading that could not be stored or printed, the one reading
    /// not taken, or (`trackProblem`) track and last-known writes failing.
    private func exitCode(trackProblem: ReadingIssue?) -> Int32 {
        let oneReadingLost = oneReading && (oneReadingFailed || !oneReadingDone)
        let lost = printingFailed || lostReadings > 0 || trackProblem != nil || oneReadingLost
        return lost ? 1 : 0
    }

    private static func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// When the live screen next reads differently with nothing happening: its clock's next minute,
    /// or the next whole minute of the fix's age ("just now" turns "1 min ago" a minute after the last
    /// fix, not at the clock's minute up to a minute later), whichever comes first.
    private static func nextTurn(after now: ClockReading, fixObtainedAt: Date?) -> MonotonicInstant {
        let minute = nextMinute(after: now)
        guard let obtained = fixObtainedAt else { return minute }
        let age = now.wall.timeIntervalSince(obtained)
        guard age.isFinite, age >= 0 else { return minute }
        return min(minute, now.monotonic.advanced(by: ((age / 60).rounded(.down) + 1) * 60 - age))
    }

    /// When the screen's clock (which shows the wall clock's hours and minutes) turns next, as a
    /// monotonic instant.
    private static func nextMinute(after now: ClockReading) -> MonotonicInstant {
        let t = now.wall.timeIntervalSince1970
        return now.monotonic.advanced(by: (t / 60).rounded(.down) * 60 + 60 - t)
    }

    private var gpsStatus: GPSStatus {
        if !followsGPS { return .fixing }
        if let gpsProblem { return .problem(gpsProblem) }
        if scheduler.hasLiveFix { return .fixing }
        if gpsd.silence.isSilent { return .silent(forS: gpsd.silence.limitS) }
        if let lost = scheduler.fixLostSince { return .lost(since: lost) }
        return fixWaitNotice ?? .starting
    }

    /// The last reading's problems as they still stand: its last-known note ("gps: no fix …; using the
    /// last known position") stops being true when a live fix comes, though no reading follows a fix
    /// within 5 km of it.
    private var readingProblemsNow: [ReadingIssue] {
        guard readingWasAtLastKnown, scheduler.hasLiveFix else { return readingProblems }
        return readingProblems.filter { $0.component != .gps }
    }

    private mutating func refreshStatus() {
        status.fixLostSince = scheduler.fixLostSince
        status.gps = gpsStatus
        status.updating = scheduler.isReadingInFlight
        // Built only when the gps or the store has a problem: most events change neither, and the
        // reading's own problems are shared, not copied.
        let gpsIssue = status.gps.issue
        let readingSays = readingProblemsNow
        let problems =
            gpsIssue == nil && status.storage == nil
            ? readingSays : [gpsIssue, status.storage].compactMap { $0 } + readingSays
        if problems != status.problems { status.problems = problems }
    }

    /// Where the reading's fresh weather was asked for: nil when it has none, or only stored weather
    /// served stale because the service failed (the scheduler then asks again sooner).
    static func freshWeatherPoint(_ reading: Reading) -> Coordinate? {
        guard let weather = reading.weather, !weather.stale else { return nil }
        return weather.coordinate
    }

    private static func rank(_ effect: AgentEffect) -> Int {
        switch effect {
        case .dropGathered: return 0
        case .readGPS: return 1
        case .connectGPS, .dropUnansweredGPS: return 2
        case .takeReading, .positionResolved: return 3
        case .checkAlerts: return 4
        case .announceAlerts, .rememberAlertsSeen: return 5
        case .printReading: return 6
        case .sayOutputFailed: return 7
        case .sayNoPosition: return 8
        case .sayReadingAbandoned: return 9
        case .recordTrackPoint: return 10
        case .saveLastKnown: return 11
        case .writeTrack: return 12
        case .saveRejectedFixes: return 13
        case .announceHealth: return 14
        case .useJSONLines: return 15
        case .redraw: return 16
        case .exit: return 17
        }
    }
}
