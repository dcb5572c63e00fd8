import FoundationEssentials

/// What the agent was told (each carries its time on both clocks, `ClockReading`; the reducer never
/// reads a clock).
///
/// The loop turns everything that can wake it — gpsd, signals, keys, timers, finished readings —
/// into these, in the order they happened, and hands each to `AgentReducer.handle`.
///
/// The two cases that carry a `Reading` (many times wider than a fix) are `indirect`: boxed, so that
/// an event is the size of a fix, not of a reading, when the loop makes one for every report of gpsd
/// (a reading comes a few times an hour; `AgentMessageSizeTests`, bench/README.md 2026-12-02).
public enum AgentEvent: Sendable, Hashable {
    /// The loop is up: resume-gate baseline; with a fixed position (--at/--place) the startup reading.
    case started(at: ClockReading, sleepOffsetS: Double?)
    /// The last stored reading, shown at launch with its age (DESIGN.md §7); not a trigger.
    indirect case storedReadingLoaded(Reading)
    /// What gpsd said (connected/device/fix/noFix/satellites/disconnected), one event of a read or
    /// of a connection attempt (`.connectGPS`).
    case gps(GPSEvent, at: ClockReading)
    /// A read of gpsd's socket ended (after its `.gps` events; also a `.readGPS` that found nothing):
    /// `connected`, the connection is still open; `rejectedFixes`, the connection's running total of
    /// implausible fixes (`TPVFilter`).
    case gpsReadEnded(connected: Bool, rejectedFixes: RejectedFixCounts, at: ClockReading)
    /// The loop's poll timed out at `nextDeadline`.
    case deadline(at: ClockReading)
    /// CLOCK_BOOTTIME − CLOCK_MONOTONIC, sampled at every turn of the loop (see `ResumeGate`; the
    /// reducer passes on only what changed).
    case resumeSample(sleepOffsetS: Double, at: ClockReading)
    /// SIGUSR1.
    case manualRequest(at: ClockReading)
    /// A key on the live screen: r/R manual, q/Q (and Ctrl-D) quit, others ignored (`LiveCommand`).
    case key(UInt8, at: ClockReading)
    /// The reading asked for with `.takeReading` is done (stored and ready to show).
    indirect case readingFinished(Reading, at: ClockReading)
    /// Ids of the official alerts active at the position now (the answer to `.checkAlerts`).
    /// An alert check's answer: the active ids, or nil when it had none (the source failed and
    /// nothing stored stood in).
    case alertsChecked(activeIDs: [String]?, at: ClockReading)
    /// A track/last-known write failed (nil: writes work again).
    case storageProblem(ReadingIssue?)
    /// After `.exit`: the store's last write of the track and the last-known position is done, with
    /// one more try of what the disk refused before; nil when everything kept is in the store, else
    /// why not (it is lost with the process).
    case trackFinished(ReadingIssue?)
    /// The store's file was deleted or replaced while recording, and the store now writes to the file
    /// at `path` (made anew when missing).
    case storeReplaced(path: String)
    /// SIGINT / SIGTERM / SIGHUP.
    case stopRequested(at: ClockReading)
    /// The screen must be drawn whole again: the terminal was resized (SIGWINCH) or fixcast came back
    /// from a job-control stop (SIGCONT).
    case screenChanged(at: ClockReading)
    /// The live screen's terminal hung up (readable, yet nothing to read).
    case terminalHungUp(at: ClockReading)
    /// A reading could not be printed, for the reason `OutputLoss` gives.
    case outputLost(OutputLoss, at: ClockReading)
}
