import FoundationEssentials

extension AgentReducer {
    /// The agent's thresholds, from `Settings` (CONTRACT.md `[gps]`, `[trigger]`, `[storage]`, `[alerts]`):
    /// the reading triggers' own (`ReadingScheduler.Configuration`, kept whole, not repeated) and what
    /// the reducer adds: the track's thinning, the last-known position's saving, the alert checks.
    public struct Configuration: Sendable, Hashable {
        /// The reading triggers' part: movement, period, resume, the startup fix wait.
        public var scheduler: ReadingScheduler.Configuration
        public var trackIntervalS: Double
        public var trackDistanceM: Double
        /// How often a point is kept standing still (`TrackThinner.stillIntervalS`); nil: as moving.
        /// Settings give `TrackThinner.standingStillIntervalS`.
        public var trackStillIntervalS: Double? = nil
        /// `LastKnownSaveGate.defaultIntervalS` (10 s).
        public var lastKnownSaveIntervalS: Double
        /// `alerts.check_min`; nil: alerts off (disabled, or no source covers this machine's use).
        public var alertCheckMin: Double?
        /// The alert ids active at the last answered check of an earlier run (kept in the store:
        /// `AgentEffect.rememberAlertsSeen`), so a restart does not announce them again.
        public var alertsSeen: Set<String> = []
        /// The live screen shows the agent (false: `run --json`, no terminal): it is drawn, its clock
        /// turns each minute, fixes are read as they come; headless, health changes go to stderr.
        public var liveScreen = false
        /// `fixcast now`: one reading, then leave. The startup wait gives up at once when gpsd does not
        /// answer (`ReadingScheduler.Configuration.givesUpWhenUnreachable`), a reading at the last known
        /// position says why (`ReadingRequest.lastKnownNote`), no position at all is one sentence and exit 1,
        /// no track is kept (the live fix is still saved as the last known position), and the exit
        /// status says whether the reading had weather and was stored and printed.
        public var stopsAfterFirstReading = false
        /// `forecast`, `alerts` and `ahead`: a one-reading run (`stopsAfterFirstReading`, which this
        /// implies) that ends where its reading would start: the position and its notes are handed
        /// back (`.positionResolved`), the live fix still saved as the last known position. The
        /// store's own problem is the command's to say, so it is not among the notes.
        public var stopsAtPosition = false {
            didSet { if stopsAtPosition { stopsAfterFirstReading = true } }
        }
        /// `now --force`: the one reading bypasses the weather cache (its 1-minute floor stays).
        public var forcesTheReading = false
        /// stdout is a pipe (JSON lines to another program): its reader going away is watched for
        /// (`AgentReducer.watchesOutputReader`).
        public var printsToAPipe = false
        /// gpsd's address as shown in the sentences of a one-reading run (`GPSDAddress.description`).
        public var gpsdAddress = GPSDAddress.local.description

        public init(settings: Settings, alertCheckMin: Double?) {
            self.init(
                scheduler: ReadingScheduler.Configuration(settings: settings),
                trackIntervalS: settings.storage.trackIntervalS, trackDistanceM: settings.storage.trackDistanceM,
                alertCheckMin: alertCheckMin)
            trackStillIntervalS = TrackThinner.standingStillIntervalS
        }

        public init(
            scheduler: ReadingScheduler.Configuration, trackIntervalS: Double = 10, trackDistanceM: Double = 50,
            lastKnownSaveIntervalS: Double = LastKnownSaveGate.defaultIntervalS, alertCheckMin: Double? = nil
        ) {
            self.scheduler = scheduler
            self.trackIntervalS = trackIntervalS
            self.trackDistanceM = trackDistanceM
            self.lastKnownSaveIntervalS = lastKnownSaveIntervalS
            self.alertCheckMin = alertCheckMin
        }

        /// Every value spelled out (tests); the defaults are CONTRACT.md's.
        public init(
            moveKm: Double = 5, periodicMin: Double = 30, resumeMinAwayS: Double = 30, fixTimeoutS: Double = 8,
            fixRetries: Int = 2, retryDelayS: Double = FixWaitPolicy.retryDelayS, trackIntervalS: Double = 10,
            trackDistanceM: Double = 50, lastKnownSaveIntervalS: Double = LastKnownSaveGate.defaultIntervalS,
            alertCheckMin: Double? = nil, liveScreen: Bool = false
        ) {
            self.init(
                scheduler: ReadingScheduler.Configuration(
                    moveKm: moveKm, periodicMin: periodicMin, resumeMinAwayS: resumeMinAwayS, fixTimeoutS: fixTimeoutS,
                    fixRetries: fixRetries, retryDelayS: retryDelayS),
                trackIntervalS: trackIntervalS, trackDistanceM: trackDistanceM,
                lastKnownSaveIntervalS: lastKnownSaveIntervalS, alertCheckMin: alertCheckMin)
            self.liveScreen = liveScreen
        }
    }
}
