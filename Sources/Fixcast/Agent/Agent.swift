import Dispatch
import FoundationEssentials
import FixcastCore

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
        public init(json: Bool, offline: Bool, demoLabel: String?) {
            self.json = json
            self.offline = offline
            self.demoLabel = demoLabel
        }
    }

    let settings: Settings
    let options: Options
    let services: Services
    let gps: GPSDClient

    public init(settings: Settings, options: Options, services: Services) {
        self.settings = settings
        self.options = options
        self.services = services
        self.gps = GPSDClient(host: settings.gps.host, port: settings.gps.port, clock: services.clock)
    }

    /// Runs until SIGINT, SIGTERM or `q`; returns the exit code (0 after a clean shutdown).
    public func run() async -> Int32 {
        let (events, continuation) = AsyncStream.makeStream(of: AgentEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let yield: @Sendable (AgentEvent) -> Void = { continuation.yield($0) }
        let signals = SignalEvents(yield)
        let display: any ReadingDisplay =
            options.json
            ? JSONLinesDisplay(language: settings.display.lang)
            : LiveDisplay(settings: settings, demoLabel: options.demoLabel, onKey: yield)

        let gpsTask = Task { [gps] in
            for await e in gps.events() { yield(.gps(e)) }
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                yield(.tick)
            }
        }
        let recorder = services.store.map { TrackRecorder(store: $0) }
        var state = AgentState(settings: settings, now: services.clock.now(), sleepOffset: SuspendClock.sleepOffset())

        // The seed's launch screen with data: the last stored reading at once, marked with its age.
        if let store = services.store, let last = try? await store.lastReading() {
            display.showStored(last, now: services.clock.now())
        }
        if let issue = services.storeIssue { state.status.storage = issue.message }
        display.update(state.status, now: services.clock.now())

        var inFlight: Task<Void, Never>?
        func start(_ request: ReadingRequest) {
            state.readingStarted(request)
            let maker = services.readings
            let offline = options.offline
            let notes = request.notes
            inFlight = Task {
                let reading = await maker.reading(
                    at: request.position, trigger: request.trigger, force: request.trigger.isForced, offline: offline, notes: notes)
                yield(.readingFinished(reading))
            }
        }

        loop: for await event in events {
            let now = services.clock.now()
            var request: ReadingRequest?
            switch event {
            case .gps(let e):
                request = state.handle(e, now: now)
                if case .fix(let fix) = e, let recorder, state.acceptTrackPoint(fix) {
                    await recorder.append(fix)
                    if state.shouldSaveLastKnown(now: now) {
                        try? await services.store?.saveLastKnownPosition(Position(fix: fix))
                    }
                }
            case .tick:
                request = state.tick(now: now, sleepOffset: SuspendClock.sleepOffset())
            case .manualRefresh:
                request = state.manualRefresh(now: now)
            case .readingFinished(let reading):
                inFlight = nil
                request = state.readingFinished(reading, now: now)
                display.show(reading, now: now)
            case .redraw:
                break
            case .quit:
                break loop
            }
            if let request, inFlight == nil { start(request) }
            display.update(state.status, now: now)
        }

        // Shutdown: let a reading in flight finish briefly (its row commits), flush the track.
        if let inFlight {
            let waiter = Task { await inFlight.value }
            let timeout = Task { try? await Task.sleep(for: .seconds(3)); inFlight.cancel() }
            await waiter.value
            timeout.cancel()
        }
        gpsTask.cancel()
        ticker.cancel()
        gps.stop()
        signals.cancel()
        if let recorder { await recorder.flush() }
        display.close()
        continuation.finish()
        return ExitCode.success
    }
}
