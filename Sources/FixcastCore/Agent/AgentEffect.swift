/// What the loop must do. Only these leave the reducer; within one answer they come in the order
/// of the cases below (or `exit` last).
///
/// `printReading` (a `Reading`, many times wider than a fix) and `takeReading` (a position with its
/// notes and trigger) are `indirect`, boxed: every array of effects the reducer answers with, at every
/// fix, would otherwise be as wide per element as the widest case (`AgentMessageSizeTests`).
public enum AgentEffect: Sendable, Hashable {
    /// Drop what waits unread in gpsd's socket (a gather window across a suspend); a connection
    /// found lost meanwhile is reported as `.gps(.disconnected)`.
    case dropGathered
    /// Read what waits in gpsd's socket now (a gather window's end, or a person's request during
    /// one); report it as `.gps` events and `.gpsReadEnded`, also when nothing waited.
    case readGPS
    /// Connect to gpsd (at the start, and after a back-off when it went away); report a failure as a
    /// `.gps(.disconnected)` event, and gpsd's answer, when its first report is read, as `.gps(.connected)`.
    case connectGPS
    /// Close the connection to gpsd: it took the connection but has not answered as gpsd
    /// (`GPSDLink.answerTimeoutS`). Comes back as `.gps(.disconnected)`.
    case dropUnansweredGPS
    /// Take a reading; report its end with `.readingFinished`. At most one is in flight.
    indirect case takeReading(ReadingRequest)
    /// A run that stops at its position (`stopsAtPosition`: `forecast`, `alerts`, `ahead`): hand this
    /// position and its notes back instead of taking the reading (the exit follows).
    indirect case positionResolved(ReadingRequest)
    /// Ask the alert source what is active here; answer with `.alertsChecked`.
    case checkAlerts(Position)
    /// These alert ids are news at this position: run `alerts.command` once for each.
    case announceAlerts([String])
    /// Keep the ids active at the last answered check, and those lapsed within the grace, in the store
    /// (`AlertWatch.remembered`), so a restart does not announce them again.
    case rememberAlertsSeen([String])
    /// Show a finished reading (JSON lines print it; the live screen shows it at the next redraw);
    /// report a failure to print with `.outputLost`.
    indirect case printReading(Reading)
    /// Say, once, why readings could not be printed (a loss: `readerStalled` or `refused`): the
    /// readings are stored, not printed.
    case sayOutputFailed(OutputLoss)
    /// A one-reading run (`stopsAfterFirstReading`) ends without any position: say this, once, on
    /// stderr (the exit that follows is 1).
    case sayNoPosition(GPSError)
    /// Leaving while a reading is still being taken (`AgentReducer.shutdownReadingWaitS` ran out):
    /// say, once, after the screen is closed, that it was not finished and not printed.
    case sayReadingAbandoned
    /// Keep this fix for the track; already thinned (`TrackThinner`: storage.track_interval_s / _distance_m).
    case recordTrackPoint(Fix)
    /// Keep this as the last-known position; at most every 10 s (`LastKnownSaveGate`).
    case saveLastKnown(Position)
    /// Hand the kept track points and last-known position to the store now, together
    /// (`TrackWriteBatch`).
    case writeTrack
    /// Add these implausible-fix counts to the store's totals (`RejectedFixSaveGate`).
    case saveRejectedFixes(RejectedFixCounts)
    /// Components that started failing or work again (`ComponentHealth`): headless only, one
    /// stderr line each (the journal's); the live screen's status line shows the same already.
    case announceHealth([HealthNotice])
    /// The live screen's terminal is gone: print JSON lines from now on.
    case useJSONLines
    /// What the screen shows changed (`AgentReducer.status`), or its clock turned a minute: draw it.
    case redraw
    /// Leave: close gpsd and the screen, let the store finish its writes, exit with `code` (1 when
    /// a reading could not be stored or printed, or the store still refuses writes).
    case exit(code: Int32)
}
