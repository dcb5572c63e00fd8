import Foundation
import Testing

@testable import FixcastCore

/// `AheadCheck` in virtual time: which reading checks which sample, and what a trip's pairs add up to.
struct AheadCheckTests {
    typealias F = AheadFixture

    static func sample(
        _ minutes: Int, made: Double = 0, at c: Coordinate, t: Double? = 2.0, rain: Double? = 0
    ) -> AheadForecast.Sample {
        AheadForecast.Sample(
            minutes: minutes, eta: F.at(made + Double(minutes) * 60), distanceKm: Double(minutes),
            coordinate: c, conditions: AheadConditions(temperatureC: t, precipitationMmH: rain))
    }

    static func forecast(
        made: Double = 0, basis: AheadBasis = .course, _ samples: [AheadForecast.Sample], stale: Bool = false
    ) -> AheadForecast {
        AheadForecast(
            basis: basis, madeAt: F.at(made), from: AheadForecast.Origin(coordinate: F.c(0, 0), fixTime: nil),
            speedMps: 20, speedSource: .gps, samples: samples, stale: stale)
    }

    static func met(_ s: Double, _ c: Coordinate, t: Double? = 3.0, rain: Double? = 0) -> AheadCheck.Met {
        AheadCheck.Met(time: F.at(s), coordinate: c, temperatureC: t, precipitationMmH: rain)
    }

    @Test func aReadingWithin5KmAnd30MinChecksTheSample() {
        let place = F.east(60_000)
        let f = Self.forecast([Self.sample(60, at: place)])
        let m = Self.met(3_900, F.east(63_000))  // 5 min late, 3 km off
        let pairs = AheadCheck.pairs(forecasts: [f], met: [m])
        #expect(pairs == [AheadCheck.Pair(madeAt: F.t0, basis: .course, sample: f.samples[0], met: m)])
        #expect(abs(pairs[0].etaErrorPct! - 300.0 / 3600 * 100) < 1e-9)
    }

    /// The arrival is timed by the track's nearest pass, not by the reading 3 km on: the traveller
    /// passed the place at 62 min (2 min late: 3.3 % of the lead), the reading came at 65 min.
    @Test func theTracksNearestPassTimesTheArrival() {
        let place = F.east(60_000)
        let f = Self.forecast([Self.sample(60, at: place)])
        let m = Self.met(3_900, F.east(63_000))
        // 20 m/s east, a point every 10 s, from 55 to 70 min: at the place at 3,720 s.
        let track = stride(from: 3_300.0, through: 4_200, by: 10).map {
            TrackSample(time: F.at($0), coordinate: F.east(60_000 + ($0 - 3_720) * 20, north: 30))
        }
        let pairs = AheadCheck.pairs(forecasts: [f], met: [m], track: track)
        #expect(pairs.count == 1 && pairs[0].met == m)
        #expect(pairs[0].arrivedAt == F.at(3_720))
        #expect(abs(pairs[0].etaErrorPct! - 120.0 / 3600 * 100) < 1e-9)
        // A track that never came within 1 km of the place (a parallel road 1.2 km north) times
        // nothing: the reading's time stands.
        let apart = track.map {
            TrackSample(
                time: $0.time, coordinate: F.east(($0.time.timeIntervalSince(F.t0) - 3_720) * 20 + 60_000, north: 1_200)
            )
        }
        let byReading = AheadCheck.pairs(forecasts: [f], met: [m], track: apart)
        #expect(byReading[0].arrivedAt == nil)
        #expect(abs(byReading[0].etaErrorPct! - 300.0 / 3600 * 100) < 1e-9)
        // A pass outside the window (40 min early, on a way out before this one) does not count.
        let early = [TrackSample(time: F.at(1_199), coordinate: place)] + apart
        #expect(AheadCheck.pairs(forecasts: [f], met: [m], track: early)[0].arrivedAt == nil)
        let inWindow = [TrackSample(time: F.at(1_801), coordinate: place)] + apart
        #expect(AheadCheck.pairs(forecasts: [f], met: [m], track: inWindow)[0].arrivedAt == F.at(1_801))
    }

    @Test(arguments: [
        (3_600.0, 66_000.0),  // 6 km off at the ETA
        (5_401.0, 60_000.0),  // at the place 30 min 1 s late
        (1_799.0, 60_000.0),  // 30 min 1 s early
    ])
    func aReadingTooFarInPlaceOrTimeChecksNothing(time: Double, eastM: Double) {
        let f = Self.forecast([Self.sample(60, at: F.east(60_000))])
        let m = Self.met(time, F.east(eastM))
        #expect(AheadCheck.pairs(forecasts: [f], met: [m]).isEmpty)
    }

    @Test func theReadingThatCarriedTheForecastChecksNothing() {
        let here = F.east(0)
        let f = Self.forecast(basis: .stationary, [Self.sample(15, at: here)])
        #expect(AheadCheck.pairs(forecasts: [f], met: [Self.met(0, here), Self.met(59, here)]).isEmpty)
        #expect(AheadCheck.pairs(forecasts: [f], met: [Self.met(61, here)]).count == 1)
    }

    @Test func theNearestInPlaceAndTimeTogetherWinsAndTheEarlierOnATie() {
        let place = F.east(60_000)
        let f = Self.forecast([Self.sample(60, at: place)])
        let far = Self.met(3_600, F.east(64_000))  // on time, 4 km: 0.8
        let late = Self.met(4_200, F.east(60_500))  // 10 min late, 0.5 km: 0.333 + 0.1
        let early = Self.met(3_000, F.east(60_500))  // 10 min early at the same spot: the same score, earlier
        let pairs = AheadCheck.pairs(forecasts: [f], met: [late, far, early])
        #expect(pairs.map(\.met) == [early])
    }

    @Test func aForecastCarriedByManyReadingsCountsOnceAndItsSamplesInOrder() {
        let a = F.east(20_000)
        let b = F.east(40_000)
        let f = Self.forecast([Self.sample(15, at: a), Self.sample(30, at: b)])
        var kept = f
        kept.stale = true
        let pairs = AheadCheck.pairs(forecasts: [f, kept, f], met: [Self.met(1_800, b), Self.met(900, a)])
        #expect(pairs.map(\.sample.minutes) == [15, 30])
    }

    @Test func aStationaryForecastHasNoETAErrorAndASampleWithoutLeadNeither() {
        let here = F.east(0)
        let still = AheadCheck.Pair(
            madeAt: F.t0, basis: .stationary, sample: Self.sample(30, at: here), met: Self.met(1_900, here))
        #expect(still.etaErrorPct == nil)
        let none = AheadCheck.Pair(
            madeAt: F.t0, basis: .route, sample: Self.sample(0, at: here), met: Self.met(60, here))
        #expect(none.etaErrorPct == nil)
        let late = AheadCheck.Pair(
            madeAt: F.t0, basis: .route, sample: Self.sample(30, at: here), met: Self.met(1_800 + 180, here))
        #expect(late.etaErrorPct == 10)
        let early = AheadCheck.Pair(
            madeAt: F.t0, basis: .route, sample: Self.sample(30, at: here), met: Self.met(1_800 - 360, here))
        #expect(early.etaErrorPct == -20)
    }

    @Test func theSummaryCountsMedianMAEAndRainEachWay() {
        let here = F.east(0)
        func pair(_ minutes: Int, late: Double, ft: Double?, mt: Double?, fr: Double?, mr: Double?) -> AheadCheck.Pair {
            AheadCheck.Pair(
                madeAt: F.t0, basis: .course, sample: Self.sample(minutes, at: here, t: ft, rain: fr),
                met: Self.met(Double(minutes) * 60 + late, here, t: mt, rain: mr))
        }
        let pairs = [
            pair(60, late: 360, ft: 2, mt: 3, fr: 1.0, mr: 0.5),  // +10 %, 1 °C, hit
            pair(30, late: -180, ft: 5, mt: 2, fr: 0, mr: 0.4),  // -10 % (|10|), 3 °C, miss
            pair(60, late: 1_080, ft: nil, mt: 3, fr: 0.3, mr: 0),  // +30 %, no temperature, false alarm
            pair(30, late: 0, ft: 4, mt: nil, fr: nil, mr: 1),  // 0 %, neither known
            pair(60, late: 0, ft: 1, mt: 1, fr: 0, mr: 0),  // 0 %, 0 °C, dry and dry
            pair(60, late: 0, ft: 1, mt: 1, fr: 0.2, mr: 0.19),  // at the threshold forecast, under it met
        ]
        let s = AheadCheck.summary(pairs, rainMmH: 0.2)
        #expect(s.pairs == 6)
        #expect(s.etaErrorPctMedian == 5)  // |errors| 0, 0, 0, 10, 10, 30: (0 + 10) / 2
        #expect(s.temperatureMaeC == 1)  // (1 + 3 + 0 + 0) / 4
        #expect((s.rainHits, s.rainMisses, s.rainFalseAlarms) == (1, 1, 2))
        #expect(
            s.json.serialized()
                == #"{"pairs":6,"eta_error_pct_median":5.0,"temperature_mae_c":1.0,"rain_hits":1,"rain_misses":1,"rain_false_alarms":2}"#
        )
    }

    @Test func noPairsIsAnEmptySummaryWithUnknownsNotZeros() {
        let s = AheadCheck.summary([], rainMmH: 0.2)
        #expect(s == .none)
        #expect(s.etaErrorPctMedian == nil && s.temperatureMaeC == nil)
        #expect(s.json["eta_error_pct_median"]?.isNull == true)
    }

    @Test func anOddCountHasTheMiddleAsMedianAndDecimalsAreRounded() {
        #expect(AheadCheck.median([3, 1, 2]) == 2)
        #expect(AheadCheck.median([]) == nil)
        let s = AheadCheck.Summary(
            pairs: 1, etaErrorPctMedian: 12.345, temperatureMaeC: 0.06, rainHits: 0, rainMisses: 0, rainFalseAlarms: 0)
        #expect(s.json["eta_error_pct_median"]?.doubleValue == 12.3)
        #expect(s.json["temperature_mae_c"]?.doubleValue == 0.1)
    }

    @Test func metFromAReadingNeedsAPositionAndFreshWeather() {
        let position = Position(
            coordinate: F.c(52, 13), altitudeM: nil, speedMps: nil, trackDeg: nil, mode: .threeD, fixTime: nil,
            obtainedAt: F.t0, source: .gps)
        var weather = WeatherReport(
            provider: .openMeteo, fetchedAt: F.t0, coordinate: F.c(52, 13), cached: false, stale: false,
            current: CurrentConditions(temperatureC: 4, precipitationMm: 0.6))
        #expect(AheadCheck.Met(reading: Reading(time: F.t0, trigger: .moved, position: nil)) == nil)
        let fresh = AheadCheck.Met(reading: Reading(time: F.t0, trigger: .moved, position: position, weather: weather))
        #expect(fresh == AheadCheck.Met(time: F.t0, coordinate: F.c(52, 13), temperatureC: 4, precipitationMmH: 0.6))
        weather.stale = true
        let stale = AheadCheck.Met(reading: Reading(time: F.t0, trigger: .moved, position: position, weather: weather))
        #expect(stale?.temperatureC == nil && stale?.precipitationMmH == nil)
    }

    @Test func theHourBeforeIsTheLeadNearestAnHourBetween30And90Min() {
        let here = F.east(0)
        let m = Self.met(7_200, here)
        func pair(made: Double) -> AheadCheck.Pair {
            AheadCheck.Pair(
                madeAt: F.at(made), basis: .stationary,
                sample: Self.sample(Int((7_200 - made) / 60), made: made, at: here), met: m)
        }
        let other = Self.met(9_000, here)
        let laterPair = AheadCheck.Pair(
            madeAt: F.at(5_000), basis: .stationary, sample: Self.sample(65, made: 5_000, at: here), met: other)
        let picked = AheadCheck.hourBefore([
            pair(made: 0), pair(made: 4_500), pair(made: 3_000), pair(made: 6_000), laterPair,
        ])
        // 2 h (too long), 45 min, 70 min (nearest an hour), 20 min (too short); the other reading's 65 min.
        #expect(picked.map(\.madeAt) == [F.at(3_000), F.at(5_000)])
        #expect(AheadCheck.hourBefore([pair(made: 0), pair(made: 6_000)]).isEmpty)
    }
}
