/// A sample with its forecast (nil when the forecast did not cover its ETA).
public struct AheadSampleForecast: Sendable, Equatable {
    public var point: AheadSamplePoint
    public var conditions: AheadConditions?

    public init(point: AheadSamplePoint, conditions: AheadConditions?) {
        self.point = point
        self.conditions = conditions
    }
}

/// "Rain ahead" and the worst over the window (CONTRACT.md `rain`, `worst`).
public enum AheadSummary {
    /// The first sample where the forecast rain reaches `ahead.rain_mm_h` (CONTRACT.md `rain`).
    public struct Rain: Sendable, Equatable {
        public var minutes: Int
        public var distanceM: Double
        public var mmH: Double
        /// Index into the samples (for the sample's place name).
        public var sampleIndex: Int

        public init(minutes: Int, distanceM: Double, mmH: Double, sampleIndex: Int) {
            self.minutes = minutes
            self.distanceM = distanceM
            self.mmH = mmH
            self.sampleIndex = sampleIndex
        }
    }

    /// The extremes over every sample of the window (CONTRACT.md `worst`).
    public struct Worst: Sendable, Equatable, Hashable {
        public var minTemperatureC: Double?
        public var maxGustMps: Double?
        public var maxPrecipitationMmH: Double?

        public init(minTemperatureC: Double?, maxGustMps: Double?, maxPrecipitationMmH: Double?) {
            self.minTemperatureC = minTemperatureC
            self.maxGustMps = maxGustMps
            self.maxPrecipitationMmH = maxPrecipitationMmH
        }
    }

    /// The first sample at or above `ahead.rain_mm_h`; nil when none reaches it.
    public static func rain(_ samples: [AheadSampleForecast], thresholdMmH: Double) -> Rain? {
        for (i, s) in samples.enumerated() {
            if let mm = s.conditions?.precipitationMmH, mm >= thresholdMmH {
                return Rain(minutes: s.point.minutes, distanceM: s.point.distanceM, mmH: mm, sampleIndex: i)
            }
        }
        return nil
    }

    /// The lowest temperature, highest gust and highest precipitation among the samples (each nil
    /// when no sample has it).
    public static func worst(_ samples: [AheadSampleForecast]) -> Worst {
        let c = samples.compactMap(\.conditions)
        return Worst(
            minTemperatureC: c.compactMap(\.temperatureC).min(),
            maxGustMps: c.compactMap(\.windGustMps).max(),
            maxPrecipitationMmH: c.compactMap(\.precipitationMmH).max())
    }
}
