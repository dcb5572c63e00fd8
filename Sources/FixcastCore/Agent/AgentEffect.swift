/// What the loop must do. Only these leave the reducer; within one answer they come in this
/// order: `takeReading`, `checkAlerts`, `announceAlerts`, `recordTrackPoint`, `saveLastKnown`, `announceHealth`, `redraw` (or `exit` alone).
public enum AgentEffect: Sendable, Hashable {
    /// Take a reading; report its end with `.readingFinished`. At most one is in flight.
    case takeReading(ReadingRequest)
    /// Store this fix in the track; already thinned (`TrackThinner`: storage.track_interval_s / _distance_m).
    case recordTrackPoint(Fix)
    /// Keep this as the last-known position; at most every 10 s (`LastKnownSaveGate`).
    case saveLastKnown(Position)
    /// Ask the alert source what is active here; answer with `.alertsChecked`.
    case checkAlerts(Position)
    /// These alert ids are news at this position: run `alerts.command` once for each.
    case announceAlerts([String])
    /// Components that started failing or work again (`ComponentHealth`): headless, one stderr line
    /// each (the journal's); the live screen's status line shows the same already.
    case announceHealth([HealthNotice])
    /// What the screen shows changed (`AgentReducer.status`).
    case redraw
    /// Leave: close the screen, let a reading in flight finish briefly, flush, exit with `code` (1 when
    /// a reading could not be stored or the store still refuses writes).
    case exit(code: Int32)
}
