import FixcastCore
import Foundation
import Testing

/// Where trips begin and end: a gap of `trip_gap_min` without points, or a stop as long with the
/// receiver still logging (`run` keeps a point every 45 s standing still).
@Suite struct TripSplitterTests {
    let t0 = 1_800_000_000.0
    let home = Coordinate(lat: 52.5, lon: 13.4)!

    /// A point `seconds` after t0, `northM` metres north of `home`.
    func point(_ seconds: Double, northM: Double = 0, eastM: Double = 0) -> TripTrackPoint {
        let north = SphereNavigation.destination(from: home, bearingDeg: 0, distanceM: northM).coordinate
        let at = SphereNavigation.destination(from: north, bearingDeg: 90, distanceM: eastM).coordinate
        return TripTrackPoint(time: Date(timeIntervalSince1970: t0 + seconds), coordinate: at)
    }

    /// A drive north at 25 m/s, a point every 10 s, from `start` s for `minutes`, from `fromM` metres
    /// (1.5 km a minute): each point is beyond the stop radius from the one before.
    func drive(from start: Double, minutes: Int, fromM: Double) -> [TripTrackPoint] {
        (0...(minutes * 6)).map { k in point(start + Double(k) * 10, northM: fromM + Double(k) * 250) }
    }

    /// Parked for `minutes` from `start` s at `atM` metres north: a point every 45 s, wandering ±15 m.
    func parked(from start: Double, minutes: Int, atM: Double) -> [TripTrackPoint] {
        (1...(minutes * 60 / 45)).map { (k: Int) -> TripTrackPoint in
            let north: Double = k % 2 == 0 ? 15 : -15
            let east: Double = k % 3 == 0 ? 12 : -8
            return point(start + Double(k) * 45, northM: atM + north, eastM: east)
        }
    }

    @Test func aGapOfTheThresholdOrMoreStartsANewTrip() {
        let trips = TripSplitter.split(
            [0, 10, 20, 1820, 1830, 3629, 8629].enumerated().map { k, s in point(s, northM: Double(k) * 1000) },
            gapMinutes: 30)
        #expect(trips.map(\.pointCount) == [3, 3, 1])
        #expect(trips.map(\.start) == [0, 1820, 8629].map { Date(timeIntervalSince1970: t0 + $0) })
        #expect(trips[0].end == Date(timeIntervalSince1970: t0 + 20))
        #expect(trips[2].durationS == 0 && trips[2].distanceKm == 0)
        #expect(abs(trips[0].distanceKm - 2) < 0.01, "\(trips[0].distanceKm)")
    }

    @Test func aSinglePointIsATripAndNothingIsNone() {
        #expect(
            TripSplitter.split([point(0)]) == [
                TripSpan(start: Date(timeIntervalSince1970: t0), end: Date(timeIntervalSince1970: t0), pointCount: 1)
            ])
        #expect(TripSplitter.split([]).isEmpty)
    }

    @Test func streamedSplittingIsTheArraySplit() {
        let points =
            drive(from: 0, minutes: 10, fromM: 0) + parked(from: 600, minutes: 90, atM: 15_000)
            + drive(from: 6_045, minutes: 5, fromM: 15_000) + drive(from: 20_000, minutes: 3, fromM: 30_000)
        var splitting = TripSplitter.Splitting(gapMinutes: 30)
        let begins = points.enumerated().filter { splitting.add($1.time.timeIntervalSince1970, at: $1.coordinate) }
            .map(\.offset)
        let spans = splitting.finish()
        #expect(spans.count == 3)
        #expect(begins.count == 3 && begins.first == 0)
        #expect(spans.map(\.start) == begins.map { points[$0].time })
        #expect(TripSplitter.split(points, gapMinutes: 30) == spans)
    }

    /// An always-on receiver: a drive, a night parked with a fix every 45 s, the drive back. Two trips;
    /// the first ends on arrival, the night is in neither, the second begins on leaving; the lengths
    /// are the drives', not the parked wander.
    @Test func aLongStopWithTheReceiverLoggingEndsTheTrip() {
        let out = drive(from: 0, minutes: 20, fromM: 0)  // 30 km north, arriving at 1,200 s
        let night = parked(from: 1_200, minutes: 12 * 60, atM: 30_000)
        let back = drive(from: 1_200 + 12 * 3600 + 45, minutes: 20, fromM: 30_000)
        let trips = TripSplitter.split(out + night + back)
        #expect(trips.count == 2)
        #expect(trips[0].start == out[0].time && trips[0].end == out.last?.time)
        #expect(trips[0].pointCount == out.count)
        #expect(abs(trips[0].distanceKm - 30) < 0.05, "\(trips[0].distanceKm)")
        #expect(trips[1].start == back[1].time && trips[1].end == back.last?.time, "\(trips[1])")
        #expect(abs(trips[1].distanceKm - 29.75) < 0.05, "\(trips[1].distanceKm)")
        // Before, the night's 45-s points left no gap: one trip of 12 h 40 min, wander in its length.
    }

    /// A fuel stop or a queue shorter than the gap stays in the trip, its points and time included.
    @Test func aStopShorterThanTheGapStaysInTheTrip() {
        let points =
            drive(from: 0, minutes: 10, fromM: 0) + parked(from: 600, minutes: 25, atM: 15_000)
            + drive(from: 600 + 25 * 60 + 45, minutes: 10, fromM: 15_000)
        let trips = TripSplitter.split(points)
        #expect(trips.count == 1)
        #expect(trips[0].pointCount == points.count)
        #expect(trips[0].durationS == points.last!.time.timeIntervalSince(points[0].time))
    }

    /// A service that starts parked records no trip until the car leaves: the parked start is no trip
    /// of its own, and the receiver off overnight in the same place does not start one either.
    @Test func aTripThatWasOnlyAStopIsNone() {
        let morning = parked(from: 0, minutes: 120, atM: 0)
        let overnightOff = parked(from: 20 * 3600, minutes: 60, atM: 0)
        let leave = drive(from: 20 * 3600 + 3645, minutes: 10, fromM: 0)
        let trips = TripSplitter.split(morning + overnightOff + leave)
        #expect(trips.count == 1, "\(trips)")
        #expect(trips.first?.start == leave[1].time)
        #expect(TripSplitter.split(morning).isEmpty)
    }

    /// The stop is timed from where it began: a point beyond the radius (a jump of the fix) starts it
    /// again, so 40 minutes broken by one 300 m jump at minute 20 are two short stops, not a long one.
    @Test func aPointBeyondTheRadiusStartsTheStopAgain() {
        let arrive = drive(from: 0, minutes: 5, fromM: 0)
        var stay = parked(from: 300, minutes: 40, atM: 7_500)
        stay[26] = point(stay[26].time.timeIntervalSince1970 - t0, northM: 7_800)
        let leave = drive(from: 300 + 40 * 60 + 45, minutes: 5, fromM: 7_500)
        #expect(TripSplitter.split(arrive + stay + leave).count == 1)
        #expect(TripSplitter.split(arrive + parked(from: 300, minutes: 40, atM: 7_500) + leave).count == 2)
    }
}
