import FoundationEssentials

/// A value known at some moments, read at any moment by linear interpolation in time.
///
/// Readings come every few minutes to half an hour; the track has a point every few seconds.
/// Between two readings the temperature is taken to change evenly; before the first and after
/// the last it is held (extrapolating a trend past the data would invent weather).
public struct TemperatureTimeline: Sendable, Hashable {
    public struct Sample: Sendable, Hashable {
        public var time: Date
        public var value: Double
        public init(time: Date, value: Double) {
            self.time = time
            self.value = value
        }
    }

    public let samples: [Sample]

    /// Non-finite values are dropped; samples are sorted by time.
    public init(_ samples: [Sample]) {
        self.samples = samples.filter { $0.value.isFinite }.sorted { $0.time < $1.time }
    }

    public var isEmpty: Bool { samples.isEmpty }

    /// The value at `time`, or nil when there are no samples.
    public func value(at time: Date) -> Double? {
        guard let first = samples.first, let last = samples.last else { return nil }
        if time <= first.time { return first.value }
        if time >= last.time { return last.value }
        var lo = 0
        var hi = samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].time <= time { lo = mid } else { hi = mid }
        }
        let a = samples[lo]
        let b = samples[hi]
        let span = b.time.timeIntervalSince(a.time)
        guard span > 0 else { return b.value }
        let f = time.timeIntervalSince(a.time) / span
        return a.value + (b.value - a.value) * f
    }
}
