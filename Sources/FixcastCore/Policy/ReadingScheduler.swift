import FoundationEssentials

/// The agent's single decision point: given what just happened, take a reading now or not, and why.
///
/// It combines the seeds' rules (DESIGN.md §1–6) over the clocks passed in with each event
/// (`ClockReading`: every deadline on the monotonic clock, the wall clock only for what is shown):
///
/// - **startup**: the first fix gives exactly one reading, even if a resume sample or a timer tick
///   arrives at the same moment (the seed loaded twice at launch, 3 s apart).
/// - **no fix at startup**: `FixWaitPolicy` decides (the same rule as `fixcast now`): wait
///   `fixTimeoutS` (8 s); on timeout, wait again up to `fixRetries` (2) times, `retryDelayS` apart;
///   then take the startup reading at the last known position, if there is one, marked `last-known`.
///   The seed's refresh "silently died for good" here because only a 5 km move re-asked.
/// - **moved**: more than `moveKm` from where weather was last fetched (see `MovementTrigger`).
/// - **periodic**: `periodicMin` after the last reading of any kind; it keeps working at the last
///   known position when the fix is lost (the reading's position is then marked `last-known`). Sooner
///   (1, 2, 5, then every 10 min) while the readings get no fresh weather (`PeriodicRefresh`).
/// - **resume** (forced): the machine came back from a suspend of at least `resumeMinAwayS`. The fix
///   held is from before the suspend (the machine may have been carried 100 km meanwhile): it stops
///   being live, and the resume reading waits up to `fixTimeoutS` for the first fix after the wake-up,
///   then is taken at the last known position, marked so (`resumeFixWaitUntil`).
/// - **manual** (forced): SIGUSR1 or the `r` key.
/// - **alert**: an official alert not seen before at this position (ordinary, not forced).
///
/// One reading is in flight at a time: the agent reports its end with `.readingFinished`. While one
/// is in flight, ordinary triggers join it (the reading under way answers them). A forced request
/// joins a forced one, but during an ordinary one it is remembered and becomes a forced reading the
/// moment the ordinary one finishes — the seed's `joinThenForce`: its pull-to-refresh merged into the
/// launch refresh, was served from cache, and "did precisely nothing". A forced request before the
/// first reading makes the startup reading forced instead of adding a second load. A forced request
/// within `forcedJoinWindowS` of a forced reading's start joins it even when it is already done (a
/// burst of SIGUSR1 is one request, not one reading each).
public struct ReadingScheduler: Sendable {
    /// The thresholds, from `Settings` (CONTRACT.md `[gps]`, `[trigger]`).
    public struct Configuration: Sendable, Hashable {
        public var moveKm: Double
        public var periodicMin: Double
        public var resumeMinAwayS: Double
        public var fixTimeoutS: Double
        public var fixRetries: Int
        /// Pause between a fix timeout and the next wait (`FixWaitPolicy.retryDelayS`).
        public var retryDelayS: Double
        /// gpsd not answering the first connection ends the startup wait at once (`now`, which one
        /// person waits for); `run` (false) waits the attempts out, since gpsd may come up after it.
        public var givesUpWhenUnreachable = false
        /// The waits while the weather is missing (`PeriodicRefresh.weatherRetryDelaysS`; empty with
        /// `--offline`, where no reading can get fresh weather).
        public var weatherRetryDelaysS = PeriodicRefresh.weatherRetryDelaysS

        public init(
            moveKm: Double = 5, periodicMin: Double = 30, resumeMinAwayS: Double = 30, fixTimeoutS: Double = 8,
            fixRetries: Int = 2, retryDelayS: Double = FixWaitPolicy.retryDelayS
        ) {
            self.moveKm = moveKm
            self.periodicMin = periodicMin
            self.resumeMinAwayS = resumeMinAwayS
            self.fixTimeoutS = fixTimeoutS
            self.fixRetries = max(0, fixRetries)
            self.retryDelayS = max(0, retryDelayS)
        }

        public init(settings: Settings, retryDelayS: Double = FixWaitPolicy.retryDelayS) {
            self.init(
                moveKm: settings.trigger.moveKm, periodicMin: settings.trigger.periodicMin,
                resumeMinAwayS: settings.trigger.resumeMinAwayS, fixTimeoutS: settings.gps.fixTimeoutS,
                fixRetries: settings.gps.fixRetries, retryDelayS: retryDelayS)
        }

        /// The startup wait's limits, for `FixWaitPolicy`.
        public var fixWaitLimits: FixWaitPolicy.Limits {
            FixWaitPolicy.Limits(timeoutS: fixTimeoutS, retries: fixRetries, retryDelayS: retryDelayS)
        }
    }

    /// Something the agent saw. Each carries its own time: the scheduler never reads a clock.
    public enum Event: Sendable, Hashable {
        /// A live fix from gpsd.
        case fix(Position, at: ClockReading)
        /// The agent's timer fired (see `nextTickAt`).
        case tick(at: ClockReading)
        /// A sample of CLOCK_BOOTTIME − CLOCK_MONOTONIC (`SuspendClock`); take one at start and then
        /// on every wake-up of the agent.
        case resumeSample(sleepOffsetS: Double, at: ClockReading)
        /// SIGUSR1 or the `r` key.
        case manualRequest(at: ClockReading)
        /// gpsd reported no fix (mode 1), the device went away, or gpsd itself did.
        case fixLost(at: ClockReading)
        /// gpsd's connection, for the startup wait (`.connected`, `.unreachable`, `.connectionLost`):
        /// why no fix came, and (`givesUpWhenUnreachable`) whether to wait at all.
        case gpsConnection(FixWaitPolicy.Event, at: ClockReading)
        /// The reading this scheduler asked for is done; `weatherFetchedAt` is the coordinate the
        /// weather was ASKED for (`WeatherReport.coordinate`: the request's position, or a cache hit's
        /// own point — not a grid cell the API snapped to), nil when no fresh weather could be had (none,
        /// or stored weather served stale).
        case readingFinished(weatherFetchedAt: Coordinate?, at: ClockReading)
        /// An official alert not seen before at this position is active: an ordinary `.alert` reading.
        case newAlerts(at: ClockReading)
    }

    /// A reading to take now (the scheduler leaves its `notes` empty; `AgentReducer` adds them).
    public typealias Request = ReadingRequest

    public enum Decision: Sendable, Hashable {
        /// Nothing to do now.
        case none
        /// Take a reading; report its end with `.readingFinished`.
        case takeReading(Request)
        /// No fix within the timeout; waiting again (`attempt` of `of` retries). For the status line.
        case retryFix(attempt: Int, of: Int)
        /// No fix after every retry and no last known position: say so; the first fix will still
        /// give the startup reading.
        case noPosition
    }

    public let configuration: Configuration
    public let startedAt: MonotonicInstant
    public private(set) var movement: MovementTrigger
    public private(set) var periodic: PeriodicRefresh
    public private(set) var resumeGate: ResumeGate
    /// The latest live fix, or the stored last-known position before the first fix.
    public private(set) var lastPosition: Position?
    /// When the fix was lost, on the wall clock: shown, never a deadline (nil while there is a live fix
    /// or none was ever had).
    public private(set) var fixLostSince: Date?
    /// The reading asked for and not yet reported finished.
    public private(set) var inFlight: Request?
    /// A forced request waiting for the reading in flight (or for the first position) to end.
    public private(set) var pendingForced: Trigger?
    /// Whether the startup reading was asked for.
    public private(set) var startupTaken = false
    /// After a resume, the forced reading waits until then for a fix newer than the suspend (nil: not
    /// waiting). As long as the startup wait's first timeout: a receiver that kept power (USB, on a
    /// laptop) reports again within a second or two, and one that lost it needs a warm start.
    public private(set) var resumeFixWaitUntil: MonotonicInstant?
    /// When the last forced reading was asked for (see `forcedJoinWindowS`).
    public private(set) var lastForcedStartAt: MonotonicInstant?
    /// A forced request this soon after a forced reading was asked for joins it, even when that one
    /// is already done: a double press of `r`, or a script's burst of `kill -USR1` (1,000 in a second
    /// stored 975 readings, every one served the same weather from the cache's 1-minute floor), is one
    /// request. Longer than a reading takes from the cache, short enough that a person who asks again
    /// a few seconds later gets a new reading.
    public static let forcedJoinWindowS = 2.0

    /// Whether the latest position is a live fix (false before the first and while the fix is lost).
    public private(set) var hasLiveFix = false
    /// The startup wait for a first fix (DESIGN.md §1); consulted only until the startup reading.
    public private(set) var fixWait: FixWaitPolicy
    private var announcedRetries = 0
    private var stoppedWaiting = false
    /// Why the startup wait ended without a fix (nil: it has not, or a fix came).
    public private(set) var fixWaitFailure: FixWaitFailure?

    /// - Parameters:
    ///   - startedAt: when the agent started (the fix timeout counts from here).
    ///   - lastKnown: the last fix stored on disk, the fallback when no fix comes in time.
    public init(configuration: Configuration = Configuration(), startedAt: MonotonicInstant, lastKnown: Position? = nil)
    {
        self.configuration = configuration
        self.startedAt = startedAt
        movement = MovementTrigger(thresholdKm: configuration.moveKm)
        periodic = PeriodicRefresh(
            intervalMin: configuration.periodicMin, retryDelaysS: configuration.weatherRetryDelaysS)
        resumeGate = ResumeGate(minAwayS: configuration.resumeMinAwayS)
        // `run` waits the attempts out even when gpsd is not answering: it may come up after us.
        fixWait = FixWaitPolicy(
            limits: configuration.fixWaitLimits, givesUpWhenUnreachable: configuration.givesUpWhenUnreachable)
        _ = fixWait.start(now: startedAt)
        if var lastKnown {
            lastKnown.source = lastKnown.source == .gps ? .lastKnown : lastKnown.source
            lastPosition = lastKnown
        }
    }

    /// With the thresholds of `settings` (`[gps]`, `[trigger]`).
    public init(settings: Settings, startedAt: MonotonicInstant, lastKnown: Position? = nil) {
        self.init(configuration: Configuration(settings: settings), startedAt: startedAt, lastKnown: lastKnown)
    }

    /// A tag test, not `inFlight != nil`: comparing an optional of a large struct with nil copied the
    /// whole scheduler, and the agent asks at every event (see `nextTickAt`).
    public var isReadingInFlight: Bool {
        if case .none = inFlight { return false }
        return true
    }

    /// The position a reading taken now would be for: the live fix, or the last one marked
    /// `last-known` when the fix is lost or has not come yet.
    public var readingPosition: Position? {
        guard var p = lastPosition else { return nil }
        if !hasLiveFix, p.source == .gps { p.source = .lastKnown }
        return p
    }

    /// Whether a reading waits on the next fix: the startup wait, or a resume reading's wait for the
    /// first fix after the wake-up (gpsd's reports are then read as they come).
    public var isWaitingForFix: Bool {
        if isInStartupWait { return true }
        if case .some = resumeFixWaitUntil { return true }
        return false
    }

    /// Before the startup reading, while its wait for a first fix has not ended.
    private var isInStartupWait: Bool { !startupTaken && !stoppedWaiting }

    /// When the agent should send the next `.tick`: the fix wait's next step before the first
    /// reading, then the periodic due time — except while a reading is in flight, which answers a
    /// periodic tick and whose end is an event of its own (a past due time would only spin the loop).
    /// nil: nothing timed is pending (wait for events).
    public var nextTickAt: MonotonicInstant? {
        if isInStartupWait { return fixWait.deadline }
        if isReadingInFlight { return nil }
        // While the resume reading waits for a fix, its wait's end is the only timed step: a periodic
        // due time inside it is answered by that reading (a tick for it would find nothing to do, and
        // a due time left in the past would spin the loop).
        if let resumeDue = resumeFixWaitUntil { return resumeDue }
        return periodic.dueAt
    }

    /// Feeds one event; returns what to do now.
    public mutating func handle(_ event: Event) -> Decision {
        switch event {
        case .fix(let position, let now):
            return fixArrived(position, now: now)
        case .tick(let now):
            return startupTaken ? periodicTick(now: now) : waitForFirstFix(now: now)
        case .resumeSample(let offset, let now):
            // Before the first reading a resume changes nothing: the startup reading is still to come.
            guard let away = resumeGate.resume(sleepOffsetS: offset), startupTaken else { return .none }
            return resumed(afterSleepingS: away, now: now)
        case .manualRequest(let now):
            return forcedRequest(.manual, now: now)
        case .fixLost(let now):
            if hasLiveFix {
                hasLiveFix = false
                fixLostSince = now.wall
            }
            return .none
        case .gpsConnection(let connection, let now):
            guard !startupTaken, !stoppedWaiting else { return .none }
            if case .fallBack(let failure) = fixWait.handle(connection, now: now.monotonic) {
                return waitEnded(failure, now: now)
            }
            return .none
        case .readingFinished(let coordinate, let now):
            return readingFinished(weatherFetchedAt: coordinate, now: now)
        case .newAlerts(let now):
            // Joined like any ordinary trigger: the reading in flight, or the resume reading to come,
            // answers it.
            guard startupTaken, !isReadingInFlight, resumeFixWaitUntil == nil, let position = readingPosition else {
                return .none
            }
            return start(.alert, at: position, forced: false, now: now)
        }
    }

    // MARK: - Rules

    private mutating func fixArrived(_ position: Position, now: ClockReading) -> Decision {
        lastPosition = position
        hasLiveFix = true
        fixLostSince = nil
        if !startupTaken {
            return start(.startup, at: position, forced: pendingForced != nil, now: now)
        }
        if resumeFixWaitUntil != nil {
            // The first fix since the wake-up: the resume reading is for it (or, with one in flight,
            // follows that one's end).
            resumeFixWaitUntil = nil
            if !isReadingInFlight, let trigger = pendingForced {
                return start(trigger, at: position, forced: true, now: now)
            }
        }
        // A reading in flight answers for this position; its end checks the distance again.
        guard !isReadingInFlight else { return .none }
        return movement.hasMoved(to: position.coordinate) ? start(.moved, at: position, forced: false, now: now) : .none
    }

    private mutating func periodicTick(now: ClockReading) -> Decision {
        if let until = resumeFixWaitUntil {
            // No fix since the wake-up: the resume reading at the last known position, marked so.
            guard now.monotonic >= until else { return .none }
            resumeFixWaitUntil = nil
            guard !isReadingInFlight, let trigger = pendingForced, let position = readingPosition else { return .none }
            return start(trigger, at: position, forced: true, now: now)
        }
        guard !isReadingInFlight, periodic.isDue(at: now.monotonic), let position = readingPosition else {
            return .none
        }
        return start(.periodic, at: position, forced: false, now: now)
    }

    /// The machine slept `away` seconds. A fixed position (`--at`, `--place`) or no live fix: the
    /// resume reading now. A live fix: it is the one held before the suspend, no longer live; the
    /// reading waits for the next (`resumeFixWaitUntil`).
    private mutating func resumed(afterSleepingS away: Double, now: ClockReading) -> Decision {
        guard hasLiveFix, lastPosition?.source == .gps else { return forcedRequest(.resume, now: now) }
        hasLiveFix = false
        fixLostSince = now.wall.addingTimeInterval(-away)
        pendingForced = pendingForced ?? .resume
        resumeFixWaitUntil = now.monotonic.advanced(by: configuration.fixTimeoutS)
        return .none
    }

    private mutating func waitForFirstFix(now: ClockReading) -> Decision {
        guard !stoppedWaiting else { return .none }
        switch fixWait.handle(.tick, now: now.monotonic) {
        case .waitUntil:
            // A late tick may skip past several timeouts: announce the latest retry once.
            guard let retry = fixWait.retry, retry > announcedRetries else { return .none }
            announcedRetries = retry
            return .retryFix(attempt: retry, of: configuration.fixRetries)
        case .fallBack(let failure):
            return waitEnded(failure, now: now)
        case .deliver, .finished:
            return waitEnded(.unreachable, now: now)
        }
    }

    /// No fix came in time: the startup reading at the last known position, or none.
    private mutating func waitEnded(_ failure: FixWaitFailure, now: ClockReading) -> Decision {
        stoppedWaiting = true
        fixWaitFailure = failure
        guard let fallback = readingPosition else { return .noPosition }
        return start(.startup, at: fallback, forced: pendingForced != nil, now: now)
    }

    /// `start` / `join` / `joinThenForce` for a forced request: the seed's coalescer, whose rule is
    /// `RequestCoalescer`'s (the weather service merges its requests by the same one).
    private mutating func forcedRequest(_ trigger: Trigger, now: ClockReading) -> Decision {
        guard startupTaken, resumeFixWaitUntil == nil, let position = readingPosition else {
            // Folded into the startup reading, or the resume reading waiting for a fix: one load, forced.
            pendingForced = trigger
            return .none
        }
        switch RequestCoalescer.decide(incomingForce: true, inFlightForce: inFlight.map(\.forced)) {
        case .start:
            if let last = lastForcedStartAt, now.monotonic.seconds(since: last) < Self.forcedJoinWindowS,
                now.monotonic >= last
            {
                return .none  // the forced reading just taken answers it
            }
            return start(trigger, at: position, forced: true, now: now)
        case .joinThenForce:
            pendingForced = trigger  // a forced reading the moment the ordinary one finishes
            return .none
        case .join:
            return .none  // the forced reading under way answers it
        }
    }

    private mutating func readingFinished(weatherFetchedAt coordinate: Coordinate?, now: ClockReading) -> Decision {
        if let coordinate { movement.weatherFetched(at: coordinate) }
        guard isReadingInFlight else { return .none }
        periodic.readingEnded(withFreshWeather: coordinate != nil)
        inFlight = nil
        if let trigger = pendingForced, resumeFixWaitUntil == nil, let position = readingPosition {
            return start(trigger, at: position, forced: true, now: now)
        }
        if hasLiveFix, let position = lastPosition, movement.hasMoved(to: position.coordinate) {
            return start(.moved, at: position, forced: false, now: now)
        }
        return .none
    }

    private mutating func start(_ trigger: Trigger, at position: Position, forced: Bool, now: ClockReading) -> Decision
    {
        let request = Request(trigger: trigger, position: position, forced: forced || trigger.isForced)
        if request.forced {
            pendingForced = nil
            lastForcedStartAt = now.monotonic
        }
        inFlight = request
        startupTaken = true
        periodic.readingTaken(at: now.monotonic)
        // Measured from the attempt at once, so fixes during the fetch and a failed fetch (no
        // weather) do not each re-trigger; `.readingFinished` moves it to the weather's own point.
        movement.weatherFetched(at: position.coordinate)
        return .takeReading(request)
    }
}
