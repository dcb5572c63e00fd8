import FixcastText
import FoundationEssentials

/// Checks ahead forecasts against what was met (CONTRACT.md "Weather ahead"): a sample said "at
/// this place at this time it will be so"; a reading taken later within 5 km of the place and 30 min
/// of the time says what it was. Each such (sample, reading) is a pair; a trip's pairs give how far
/// off the ETAs were, the temperature's mean absolute error and the rain's hits, misses and false
/// alarms. Pure: the forecasts and the readings come in, nothing is asked of the store or the clock.
public enum AheadCheck {
    /// A reading's place and weather, as a check needs them.
    public struct Met: Sendable, Hashable {
        public var time: Date
        public var coordinate: Coordinate
        public var temperatureC: Double?
        /// The reading's `precipitation_mm` (the provider's last hour or less), compared as mm/h.
        public var precipitationMmH: Double?

        public init(time: Date, coordinate: Coordinate, temperatureC: Double?, precipitationMmH: Double?) {
            self.time = time
            self.coordinate = coordinate
            self.temperatureC = temperatureC
            self.precipitationMmH = precipitationMmH
        }

        /// What `reading` met; nil without a position. Stale weather (the last good report kept after
        /// a failed fetch) was not met there and then, so its values are unknown.
        public init?(reading: Reading) {
            guard let position = reading.position else { return nil }
            let current = reading.weather.flatMap { $0.stale ? nil : $0.current }
            self.init(
                time: reading.time, coordinate: position.coordinate, temperatureC: current?.temperatureC,
                precipitationMmH: current?.precipitationMm)
        }
    }

    /// One sample and the reading that checks it.
    public struct Pair: Sendable, Hashable {
        public var madeAt: Date
        public var basis: AheadBasis
        public var sample: AheadForecast.Sample
        public var met: Met
        /// When the stored track came nearest the sample's place (`arrival`); nil without a track
        /// point within `arrivalWithinKm` in the pairing window.
        public var arrivedAt: Date?

        public init(
            madeAt: Date, basis: AheadBasis, sample: AheadForecast.Sample, met: Met, arrivedAt: Date? = nil
        ) {
            self.madeAt = madeAt
            self.basis = basis
            self.sample = sample
            self.met = met
            self.arrivedAt = arrivedAt
        }

        /// How far ahead the sample looked, in seconds.
        public var leadS: Double { sample.eta.timeIntervalSince(madeAt) }

        /// How late (positive) or early the traveller was against the ETA, in % of the lead: timed by
        /// the track's nearest pass (`arrivedAt`), else by the reading, which can be up to 5 km from
        /// the place (at 25 m/s, 200 s: 11 % of a 30-min lead). nil for a `stationary` forecast (its
        /// samples are here at later times: there is no arrival to time) and for a sample with no lead.
        public var etaErrorPct: Double? {
            guard basis != .stationary, leadS > 0 else { return nil }
            return (arrivedAt ?? met.time).timeIntervalSince(sample.eta) / leadS * 100
        }
    }

    /// A trip's checks (`trips --json` `ahead_checks`).
    public struct Summary: Sendable, Hashable {
        public var pairs: Int
        /// The median of |ETA error| in % of the lead; nil without a pair that has one.
        public var etaErrorPctMedian: Double?
        /// Mean |forecast − met| temperature over the pairs that know both; nil without one.
        public var temperatureMaeC: Double?
        /// Rain forecast and met / met but not forecast / forecast but not met, over the pairs that
        /// know both rates (rain: at or above `ahead.rain_mm_h`).
        public var rainHits: Int
        public var rainMisses: Int
        public var rainFalseAlarms: Int

        public init(
            pairs: Int, etaErrorPctMedian: Double?, temperatureMaeC: Double?, rainHits: Int, rainMisses: Int,
            rainFalseAlarms: Int
        ) {
            self.pairs = pairs
            self.etaErrorPctMedian = etaErrorPctMedian
            self.temperatureMaeC = temperatureMaeC
            self.rainHits = rainHits
            self.rainMisses = rainMisses
            self.rainFalseAlarms = rainFalseAlarms
        }

        public static let none = Summary(
            pairs: 0, etaErrorPctMedian: nil, temperatureMaeC: nil, rainHits: 0, rainMisses: 0, rainFalseAlarms: 0)

        /// CONTRACT.md: `{"pairs", "eta_error_pct_median", "temperature_mae_c", "rain_hits",
        /// "rain_misses", "rain_false_alarms"}`, to one decimal (% and °C).
        public var json: JSONValue {
            .object([
                ("pairs", .int(pairs)),
                ("eta_error_pct_median", .number(etaErrorPctMedian.map { DecimalRounding.rounded($0, places: 1) })),
                ("temperature_mae_c", .number(temperatureMaeC.map { DecimalRounding.rounded($0, places: 1) })),
                ("rain_hits", .int(rainHits)),
                ("rain_misses", .int(rainMisses)),
                ("rain_false_alarms", .int(rainFalseAlarms)),
            ])
        }
    }

    /// A reading checks a sample within this distance of its place (CONTRACT.md: 5 km, about a
    /// forecast model's cell and a half: the weather there is the weather the sample was asked for).
    public static let withinKm = 5.0
    /// … and within this long of its ETA (CONTRACT.md: 30 min, half an hourly step).
    public static let withinS = 30.0 * 60
    /// The reading that carried a forecast is taken the moment it was made and checks nothing: a
    /// reading checks a forecast from this long after it was made.
    public static let laterByS = 60.0

    /// The track passing within this of a sample's place got there (`arrival`): a road's width and a
    /// thinned track's spacing (`storage.track_distance_m`, 50 m) many times over, and still a
    /// minute or less of travel at road speeds.
    public static let arrivalWithinKm = 1.0

    /// Every pair: for each sample of each forecast (a forecast carried by several readings counts
    /// once), the later reading nearest to it in place and time together (distance in 5 km and time
    /// in 30 min, summed; the earlier wins a tie), and when `track` (by time; the times the readings
    /// and ETAs are on) came nearest the sample in the same window. Pairs come out by forecast, then
    /// sample, in order.
    public static func pairs(forecasts: [AheadForecast], met: [Met], track: [TrackSample] = []) -> [Pair] {
        let byTime = met.sorted { $0.time < $1.time }
        let trackByTime = track.sorted { $0.time < $1.time }
        var seen = Set<AheadForecast>()
        var out: [Pair] = []
        for forecast in forecasts {
            var key = forecast
            key.stale = false
            guard seen.insert(key).inserted else { continue }
            for sample in forecast.samples {
                if let m = nearest(to: sample, after: forecast.madeAt, in: byTime) {
                    out.append(
                        Pair(
                            madeAt: forecast.madeAt, basis: forecast.basis, sample: sample, met: m,
                            arrivedAt: arrival(at: sample, after: forecast.madeAt, in: trackByTime)))
                }
            }
        }
        return out
    }

    /// The times a sample made at `madeAt` is checked in: 30 min either side of its ETA, from a minute
    /// after the forecast was made.
    static func window(_ sample: AheadForecast.Sample, after madeAt: Date) -> ClosedRange<Date> {
        let earliest = max(sample.eta.addingTimeInterval(-withinS), madeAt.addingTimeInterval(laterByS))
        return earliest...max(earliest, sample.eta.addingTimeInterval(withinS))
    }

    static func nearest(to sample: AheadForecast.Sample, after madeAt: Date, in byTime: [Met]) -> Met? {
        let times = window(sample, after: madeAt)
        let latest = times.upperBound
        var i = firstIndex(atOrAfter: times.lowerBound, in: byTime, time: \.time)
        var best: (score: Double, met: Met)?
        while i < byTime.count, byTime[i].time <= latest {
            let m = byTime[i]
            i += 1
            let km = GreatCircle.distanceKm(m.coordinate, sample.coordinate)
            guard km <= withinKm else { continue }
            let score = km / withinKm + abs(m.time.timeIntervalSince(sample.eta)) / withinS
            if score < (best?.score ?? .infinity) { best = (score, m) }
        }
        return best?.met
    }

    /// When the track came nearest `sample`'s place in its window (the earlier point on a tie); nil
    /// when no point of it came within `arrivalWithinKm`.
    static func arrival(at sample: AheadForecast.Sample, after madeAt: Date, in track: [TrackSample]) -> Date? {
        let times = window(sample, after: madeAt)
        var i = firstIndex(atOrAfter: times.lowerBound, in: track, time: \.time)
        var best: (km: Double, time: Date)?
        while i < track.count, track[i].time <= times.upperBound {
            let km = GreatCircle.distanceKm(track[i].coordinate, sample.coordinate)
            if km <= arrivalWithinKm, km < (best?.km ?? .infinity) { best = (km, track[i].time) }
            i += 1
        }
        return best?.time
    }

    /// The first index whose time is at or after `t` (binary search over rows by time).
    static func firstIndex<Row>(atOrAfter t: Date, in byTime: [Row], time: (Row) -> Date) -> Int {
        var lo = 0
        var hi = byTime.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if time(byTime[mid]) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The trip's checks from its pairs; `rainMmH` is `ahead.rain_mm_h`.
    public static func summary(_ pairs: [Pair], rainMmH: Double) -> Summary {
        var s = Summary.none
        s.pairs = pairs.count
        s.etaErrorPctMedian = median(pairs.compactMap { $0.etaErrorPct.map(abs) })
        let errors = pairs.compactMap { p -> Double? in
            guard let f = p.sample.temperatureC, let m = p.met.temperatureC else { return nil }
            return abs(f - m)
        }
        s.temperatureMaeC = errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count)
        for p in pairs {
            guard let f = p.sample.precipitationMmH, let m = p.met.precipitationMmH else { continue }
            switch (f >= rainMmH, m >= rainMmH) {
            case (true, true): s.rainHits += 1
            case (false, true): s.rainMisses += 1
            case (true, false): s.rainFalseAlarms += 1
            case (false, false): break
            }
        }
        return s
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let v = values.sorted()
        let mid = v.count / 2
        return v.count % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2
    }

    /// What `report` draws: for each reading that checks a forecast, the pair whose forecast was made
    /// closest to an hour before the sample's ETA, among leads of 30 to 90 min ("about an hour"), by
    /// the reading's time.
    public static func hourBefore(_ pairs: [Pair]) -> [Pair] {
        var best: [Met: Pair] = [:]
        for p in pairs where hourBeforeLeadS.contains(p.leadS) {
            if let b = best[p.met], abs(b.leadS - 3600) <= abs(p.leadS - 3600) { continue }
            best[p.met] = p
        }
        return best.values.sorted { $0.met.time < $1.met.time }
    }

    /// "About an hour before": from 30 to 90 min.
    public static let hourBeforeLeadS = (30.0 * 60)...(90.0 * 60)
}
