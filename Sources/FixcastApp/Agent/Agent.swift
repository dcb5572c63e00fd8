import Dispatch
import FoundationEssentials
import FixcastCore
import FixcastAdapters

/// `fixcast run`: follows gpsd, keeps the local weather current, shows it and logs it.
///
/// One loop owns all state and reacts to one stream of events (fixes, ticks, signals, keys, finished
/// readings); every "take a reading now?" question goes to the pure `ReadingScheduler`, so the seeds'
/// rules (no double load at cold start, forced refreshes never swallowed, periodic readings at the
/// last position when the fix is lost) are decided in one tested place. Nothing here ends the
/// process except SIGINT, SIGTERM or `q`: gpsd restarts, a lost fix, a dead network, API back-off
/// and a full disk all become status lines and `errors` entries.
public final class Agent: Sendable {
    public struct Options: Sendable {
        public var json: Bool
        public var offline: Bool
        public var demoLabel: String?
        /// `--at` / `--place`: a fixed position instead of gpsd (a desk or a machine without GPS), with
        /// the place a `--place` search named. Readings come at start, periodically, on resume and on demand.
        public var fixedPosition: Position?
        public var fixedPlace: Place?
        public init(json: Bool, offline: Bool, demoLabel: String?, fixedPosition: Position? = nil, fixedPlace: Place? = nil) {
            self.json = json
            self.offline = offline
            self.demoLabel = demoLabel
            self.fixedPosition = fixedPosition
            self.fixedPlace = fixedPlace
        }
    }

    let settings: Settings
    let options: Options
    let services: Services

    public init(settings: Settings, options: Options, services: Services) {
        self.settings = settings
        self.options = options
        self.services = services
    }

    /// Runs until SIGINT, SIGTERM or `q`; returns the exit code (0 after a clean shutdown).
    public func run() async -> Int32 {
        let (events, continuation) = AsyncStream.makeStream(of: AgentEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let yield: @Sendable (AgentEvent) -> Void = { continuation.yield($0) }
        let signals = SignalEvents(yield)
        let displayOptions = DisplayOptions(settings: settings, utcOffsetS: LocalTimeOffset.current())
        var display: any ReadingDisplay = JSONLinesDisplay(language: settings.display.lang)
        if !options.json {
            if let live = LiveDisplay(options: displayOptions, onKey: yield) {
                display = live
            } else {
                Console.err("fixcast run: the terminal cannot show the live screen; printing JSON lines instead.\n")
            }
        }

        let clock = services.clock
        let store = services.store
        let lastKnown = try? await store?.lastKnownPosition()
        var state = AgentState(settings: settings, now: clock.now(), lastKnown: lastKnown ?? nil, demo: options.demoLabel != nil)
        state.storageProblem = services.storeIssue
        _ = state.tick(now: clock.now(), sleepOffsetS: SuspendClock.sleepOffsetS())  // the resume gate's baseline

        // The seed's launch screen with data: the last stored reading at once, marked with its age.
        if let last = try? await store?.lastReading() {
            display.showStored(last, state: &state.screen, now: clock.now())
        }
        state.screen.problems = state.problems
        display.redraw(state.screen, now: clock.now())

        var gps: GPSDClient?
        if let fixed = options.fixedPosition {
            if let r = state.fixedPosition(fixed, now: clock.now()) { yield(.takeReading(r)) }
        } else {
            // Batches go straight into the agent's stream from the reader thread.
            let address = (try? GPSDAddress(host: settings.gps.host, port: settings.gps.port)) ?? .local
            gps = GPSDClient(address: address, clock: clock, deliver: { yield(.gps($0)) })
            gps?.start()
        }
        let ticker = SecondTicker { yield(.tick) }
        let recorder = store.map { TrackRecorder(store: $0) }

        var inFlight: Task<Void, Never>?
        // Thinned track points of one GPS batch (up to a second of fixes), committed together in one
        // call: one actor call and one transaction per batch, not per fix (each call is a task switch,
        // costlier than the fix itself).
        var trackBuffer: [Fix] = []
        let maker = services.readings
        let offline = options.offline
        let fixedPlace = options.fixedPlace

        loop: for await event in events {
            let now = clock.now()
            var request: ReadingScheduler.Request?
            switch event {
            case .gps(let batch):
                for e in batch {
                    // At most one request per batch: the scheduler keeps one reading in flight.
                    if let r = state.handle(e, now: now) { request = r }
                    if case .fix(let fix) = e, state.acceptTrackPoint(fix) {
                        trackBuffer.append(fix)
                        if state.shouldSaveLastKnown(now: now) {
                            await saveLastKnown(fix, store: store, state: &state)
                        }
                    }
                }
                if let recorder, !trackBuffer.isEmpty {
                    // Committed as it arrives, about once a second: a kill -9 loses at most the last second.
                    do {
                        try await recorder.commit(trackBuffer)
                        state.storageProblem = nil
                    } catch {
                        state.storageProblem = ReadingIssue(error)
                    }
                    trackBuffer.removeAll(keepingCapacity: true)
                }
            case .tick:
                request = state.tick(now: now, sleepOffsetS: SuspendClock.sleepOffsetS())
            case .manualRefresh:
                request = state.manualRefresh(now: now)
            case .readingFinished(let reading):
                inFlight = nil
                display.show(reading, now: now)
                request = state.readingFinished(reading, now: now)
            case .takeReading(let r):
                request = r
            case .redraw:
                break
            case .quit:
                break loop
            }
            if let request {
                state.readingStarted()
                let notes = Self.notes(for: request, state: state, now: now)
                inFlight = Task {
                    let reading = await maker.reading(
                        at: request.position, trigger: request.trigger, force: request.forced, offline: offline,
                        knownPlace: fixedPlace, notes: notes)
                    yield(.readingFinished(reading))
                }
            }
            state.screen.problems = state.problems
            display.redraw(state.screen, now: now)
        }

        // Shutdown: a reading in flight may finish briefly (its row commits); then flush the track.
        if let inFlight {
            let timeout = Task { try? await Task.sleep(for: .seconds(3)); inFlight.cancel() }
            await inFlight.value
            timeout.cancel()
        }
        ticker.cancel()
        gps?.stop()
        signals.cancel()
        try? await recorder?.commit(trackBuffer)
        display.close()
        continuation.finish()
        return ExitCode.success
    }

    /// Keeps the fix as the last-known position (now and then: see `AgentState.shouldSaveLastKnown`).
    private func saveLastKnown(_ fix: Fix, store: SQLiteStore?, state: inout AgentState) async {
        guard let store else { return }
        do {
            try await store.saveLastKnownPosition(Position(fix: fix))
        } catch {
            state.storageProblem = ReadingIssue(error)
        }
    }

    /// What the reading should say about its position when it is not a live fix.
    static func notes(for request: ReadingScheduler.Request, state: AgentState, now: Date) -> [ReadingIssue] {
        guard request.position.source == .lastKnown else { return [] }
        let age = request.position.ageSeconds(at: now)
        if let lost = state.scheduler.fixLostSince {
            return [ReadingIssue(component: .gps, message: "gps: no fix since \(UTCTime.format(lost)); the reading is for the last known position (\(age) s old).")]
        }
        return [ReadingIssue(component: .gps, message: "gps: no fix yet; the reading is for the last known position (\(age) s old).")]
    }
}
