import FixcastCore
import FoundationEssentials

/// Turns a position into a reading: names the place and gets the weather at the same time, stores
/// the reading, and keeps every failure as an entry of `errors` instead of losing the reading.
///
/// Shared by `fixcast now`, `forecast` and the agent, so a reading is made one way everywhere.
public struct ReadingMaker: Sendable {
    public let weather: WeatherService
    public let places: PlaceService
    public let store: (any ReadingStore)?
    public let clock: any WallClock
    /// nil: readings carry no `alerts` object (alerts disabled, or a caller that does not want them).
    public let alerts: AlertService?
    /// nil: readings carry `ahead: null` (ahead off, or a one-shot command: only `run` sets it, so
    /// `now` asks for nothing more than it did). Refreshed at most every `ahead.refresh_min`.
    public var ahead: AheadService?

    /// The device id readings' `id`s are made with, and whether they wait in the MQTT outbox;
    /// nil: stored without an id (tests that need neither).
    public var storePlan: ReadingStorePlan?
    /// Called after a reading was stored (and queued): how the MQTT publisher learns of it.
    public var onStored: (@Sendable () -> Void)?

    public init(
        weather: WeatherService, places: PlaceService, store: (any ReadingStore)?, clock: any WallClock,
        alerts: AlertService? = nil, storePlan: ReadingStorePlan? = nil,
        onStored: (@Sendable () -> Void)? = nil
    ) {
        self.weather = weather
        self.places = places
        self.store = store
        self.clock = clock
        self.alerts = alerts
        self.storePlan = storePlan
        self.onStored = onStored
    }

    /// - Parameters:
    ///   - knownPlace: the place already named by a `--place` search (then no reverse lookup is made).
    ///   - notes: issues from getting the position (e.g. "no fix, using the last known position").
    public func reading(
        at position: Position, trigger: Trigger, force: Bool, offline: Bool, knownPlace: Place? = nil,
        notes: [ReadingIssue] = []
    ) async -> Reading {
        await storedReading(
            at: position, trigger: trigger, force: force, offline: offline, knownPlace: knownPlace, notes: notes
        ).reading
    }

    /// As `reading(...)`, and whether the reading was stored: false when there is no store (it could
    /// not be opened) or the insert failed. `now` exits 1 then, so a script can tell the reading was lost.
    public func storedReading(
        at position: Position, trigger: Trigger, force: Bool, offline: Bool, knownPlace: Place? = nil,
        notes: [ReadingIssue] = []
    ) async -> (reading: Reading, stored: Bool) {
        async let placeOutcome = resolvePlace(position.coordinate, knownPlace: knownPlace, offline: offline)
        async let weatherOutcome = weather.weather(at: position.coordinate, force: force, offline: offline)
        async let alertOutcome = alertsOutcome(position.coordinate, offline: offline)
        async let aheadOutcome = aheadOutcome(position, force: force, offline: offline)
        let (place, placeIssue) = await placeOutcome
        let w = await weatherOutcome
        let a = await alertOutcome
        let ahead = await aheadOutcome
        var errors = notes
        if let placeIssue { errors.append(placeIssue) }
        if let e = w.error { errors.append(ReadingIssue(e)) }
        // Values the provider sent that were dropped as unbelievable: the reading says which.
        errors += (w.report?.valueProblems ?? []).map { ReadingIssue($0) }
        if let issue = a.issue { errors.append(issue) }
        // A region ahead of the same source failing as here says the same sentence: once.
        if let issue = ahead.issue, !errors.contains(issue) { errors.append(issue) }
        var reading = Reading(
            time: clock.now(), trigger: trigger, position: position, place: place, weather: w.report, alerts: a.report,
            ahead: ahead.forecast, errors: errors)
        var stored = false
        if let store {
            do {
                if let storePlan {
                    reading = try await store.storeReading(reading, plan: storePlan)
                } else {
                    _ = try await store.insertReading(reading)
                }
                stored = true
                onStored?()
            } catch {
                // Once: an earlier write of this reading's (the last-known position) may have failed alike.
                let issue = ReadingIssue(error)
                if !reading.errors.contains(issue) { reading.errors.append(issue) }
            }
        }
        return (reading, stored)
    }

    /// The alerts here; the service answers from its last check when it is younger than `check_min`.
    private func alertsOutcome(_ c: Coordinate, offline: Bool) async -> AlertOutcome {
        guard let alerts else { return AlertOutcome(report: nil, error: nil) }
        return await alerts.alerts(at: c, offline: offline)
    }

    /// The weather ahead, refreshed when due (`AheadService.refreshed`); nothing without the service.
    private func aheadOutcome(_ position: Position, force: Bool, offline: Bool) async -> AheadOutcome {
        guard let ahead else { return AheadOutcome(forecast: nil, issue: nil) }
        return await ahead.refreshed(from: position, force: force, offline: offline)
    }

    private func resolvePlace(_ c: Coordinate, knownPlace: Place?, offline: Bool) async -> (Place?, ReadingIssue?) {
        if let knownPlace { return (knownPlace, nil) }
        let outcome = await places.place(at: c, offline: offline)
        return (outcome.place, outcome.issue)
    }
}
