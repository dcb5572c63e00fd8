import FoundationEssentials
import FixcastCore
import FixcastAdapters

/// The agent's state between events: the scheduler's decisions, the track thinning, and what the
/// screen shows. Owned by the agent's single loop.
struct AgentState {
    var scheduler: ReadingScheduler
    var thinner: TrackThinner
    var screen: LiveScreen.State
    /// The gps problem of the moment (gpsd down, waiting for a fix), for the status line.
    var gpsProblem: ReadingIssue?
    /// Problems of the last reading (network, API, disk), for the status line.
    var readingProblems: [ReadingIssue] = []
    var storageProblem: ReadingIssue?
    var lastKnownSavedAt: Date?

    /// The last-known position is written at most this often: enough to resume near where the
    /// receiver was, without a write per fix.
    static let lastKnownSaveInterval: Double = 10

    init(settings: Settings, now: Date, lastKnown: Position?, demo: Bool) {
        scheduler = ReadingScheduler(settings: settings, startedAt: now, lastKnown: lastKnown)
        thinner = TrackThinner(intervalS: settings.storage.trackIntervalS, distanceM: settings.storage.trackDistanceM)
        screen = LiveScreen.State(demo: demo)
    }

    mutating func handle(_ event: GPSEvent, now: Date) -> ReadingScheduler.Request? {
        switch event {
        case .connected, .device:
            gpsProblem = nil
            return nil
        case .fix(let fix):
            if gpsProblem != nil { gpsProblem = nil }
            let position = Position(fix: fix)
            screen.position = position
            let request = decide(scheduler.handle(.fix(position, at: now)))
            screen.fixLostSince = scheduler.fixLostSince
            return request
        case .noFix:
            let r = decide(scheduler.handle(.fixLost(at: now)))
            screen.fixLostSince = scheduler.fixLostSince
            return r
        case .satellites(let used, _):
            if let used { screen.position?.satellitesUsed = used }
            return nil
        case .disconnected(let error):
            gpsProblem = ReadingIssue(error)
            let r = decide(scheduler.handle(.fixLost(at: now)))
            screen.fixLostSince = scheduler.fixLostSince
            return r
        }
    }

    /// `--at` / `--place`: the one position the agent will ever have, given as its first fix.
    mutating func fixedPosition(_ position: Position, now: Date) -> ReadingScheduler.Request? {
        screen.position = position
        return decide(scheduler.handle(.fix(position, at: now)))
    }

    mutating func tick(now: Date, sleepOffsetS: Double?) -> ReadingScheduler.Request? {
        if let offset = sleepOffsetS, let r = decide(scheduler.handle(.resumeSample(sleepOffsetS: offset, at: now))) {
            return r
        }
        return decide(scheduler.handle(.tick(at: now)))
    }

    mutating func manualRefresh(now: Date) -> ReadingScheduler.Request? {
        decide(scheduler.handle(.manualRequest(at: now)))
    }

    mutating func readingStarted() {
        screen.updating = true
    }

    mutating func readingFinished(_ reading: Reading, now: Date) -> ReadingScheduler.Request? {
        screen.updating = false
        screen.reading = reading
        readingProblems = reading.errors
        // The movement trigger measures from where the weather is for (the asked point, or a cache
        // hit's own point), never from the API's grid cell.
        return decide(scheduler.handle(.readingFinished(weatherFetchedAt: reading.weather?.coordinate, at: now)))
    }

    /// Whether this fix goes into the thinned track.
    mutating func acceptTrackPoint(_ fix: Fix) -> Bool {
        thinner.accept(fix)
    }

    mutating func shouldSaveLastKnown(now: Date) -> Bool {
        if let last = lastKnownSavedAt, now.timeIntervalSince(last) < Self.lastKnownSaveInterval, now >= last { return false }
        lastKnownSavedAt = now
        return true
    }

    /// The status line's problems, most important first.
    var problems: [ReadingIssue] {
        [gpsProblem, storageProblem].compactMap { $0 } + readingProblems
    }

    private mutating func decide(_ decision: ReadingScheduler.Decision) -> ReadingScheduler.Request? {
        switch decision {
        case .none:
            return nil
        case .takeReading(let request):
            if request.position.source == .lastKnown, gpsProblem?.message.hasPrefix("gps: no fix yet") == true {
                gpsProblem = nil
            }
            return request
        case .retryFix(let attempt, let of):
            if gpsProblem == nil || gpsProblem?.message.hasPrefix("gps: no fix yet") == true {
                gpsProblem = ReadingIssue(
                    component: .gps,
                    message: "gps: no fix yet after \(Int(scheduler.configuration.fixTimeoutS)) s; waiting again (retry \(attempt) of \(of)).")
            }
            return nil
        case .noPosition:
            if gpsProblem == nil || gpsProblem?.message.hasPrefix("gps: no fix yet") == true {
                gpsProblem = ReadingIssue(
                    component: .gps,
                    message: "gps: no fix yet and no stored position; the first fix will bring a reading (check the receiver with cgps).")
            }
            return nil
        }
    }
}
