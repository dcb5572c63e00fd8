import FoundationEssentials

extension AgentReducer {
    /// The agent's thresholds, from `Settings` (CONTRACT.md `[gps]`, `[trigger]`, `[storage]`, `[alerts]`).
    public struct Configuration: Sendable, Hashable {
        public var moveKm: Double
        public var periodicMin: Double
        public var resumeMinAwayS: Double
        public var fixTimeoutS: Double
        public var fixRetries: Int
        /// `FixWaitPolicy.retryDelayS`; other values only in tests.
        public var retryDelayS: Double
        public var trackIntervalS: Double
        public var trackDistanceM: Double
        /// `LastKnownSaveGate.defaultIntervalS` (10 s).
        public var lastKnownSaveIntervalS: Double
        /// `alerts.check_min`; nil: alerts off (disabled, or no source covers this machine's use).
        public var alertCheckMin: Double?

        public init(settings: Settings, alertCheckMin: Double?) {
            self.init(
                moveKm: settings.trigger.moveKm, periodicMin: settings.trigger.periodicMin,
                resumeMinAwayS: settings.trigger.resumeMinAwayS, fixTimeoutS: settings.gps.fixTimeoutS,
                fixRetries: settings.gps.fixRetries, trackIntervalS: settings.storage.trackIntervalS,
                trackDistanceM: settings.storage.trackDistanceM, alertCheckMin: alertCheckMin)
        }

        /// Every value spelled out (tests); the defaults are CONTRACT.md's.
        public init(
            moveKm: Double = 5, periodicMin: Double = 30, resumeMinAwayS: Double = 30, fixTimeoutS: Double = 8,
            fixRetries: Int = 2, retryDelayS: Double = FixWaitPolicy.retryDelayS, trackIntervalS: Double = 10,
            trackDistanceM: Double = 50, lastKnownSaveIntervalS: Double = LastKnownSaveGate.defaultIntervalS,
            alertCheckMin: Double? = nil
        ) {
            self.moveKm = moveKm
            self.periodicMin = periodicMin
            self.resumeMinAwayS = resumeMinAwayS
            self.fixTimeoutS = fixTimeoutS
            self.fixRetries = max(0, fixRetries)
            self.retryDelayS = max(0, retryDelayS)
            self.trackIntervalS = trackIntervalS
            self.trackDistanceM = trackDistanceM
            self.lastKnownSaveIntervalS = lastKnownSaveIntervalS
            self.alertCheckMin = alertCheckMin
        }

        /// The reading triggers' part.
        public var scheduler: ReadingScheduler.Configuration {
            ReadingScheduler.Configuration(
                moveKm: moveKm, periodicMin: periodicMin, resumeMinAwayS: resumeMinAwayS, fixTimeoutS: fixTimeoutS,
                fixRetries: fixRetries, retryDelayS: retryDelayS)
        }
    }
}
