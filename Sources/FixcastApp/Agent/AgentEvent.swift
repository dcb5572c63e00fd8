import FoundationEssentials
import FixcastCore
import FixcastAdapters

/// Everything that can wake the agent. All of it arrives on one stream and is handled by one loop,
/// so the agent's state has a single owner and needs no locks.
enum AgentEvent: Sendable {
    /// What gpsd brought in one read: often one event, up to a second of fixes (see
    /// `GPSDClient.follow`), so the agent wakes about once a second however fast the receiver is.
    case gps([GPSEvent])
    /// Once a second: periodic refresh, the startup fix timeout, the suspend check, the "N min ago" text.
    case tick
    /// SIGUSR1 or the `r` key: a forced reading.
    case manualRefresh
    /// SIGINT, SIGTERM or the `q` key.
    case quit
    case readingFinished(Reading)
    /// A reading the scheduler asked for outside the event loop (the fixed position at start).
    case takeReading(ReadingScheduler.Request)
    /// The terminal was resized.
    case redraw
}
