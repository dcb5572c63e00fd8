import FixcastCore
import Foundation
import Testing

@Suite struct AheadTrajectoryTests {
    typealias F = AheadFixture

    func fix(_ s: Double, at c: Coordinate, mps: Double?, track: Double?) -> Fix {
        Fix(time: F.at(s), receivedAt: F.at(s), coordinate: c, mode: .threeD, speedMps: mps, trackDeg: track)
    }

    @Test func aMovingFixFollowsItsCourseAndAStopBecomesStationary() {
        var t = AheadTrajectory(route: nil, routeID: nil, offRouteM: 500)
        for k in 0...6 { t.observe(fix(Double(k) * 10, at: F.east(Double(k) * 250), mps: 25, track: 90)) }
        let speed = TravelSpeed(mps: 25, source: .gps)
        let moving = t.plan(from: F.east(1500), speed: speed, now: F.at(60))
        #expect(moving?.basis == .course && moving?.route == nil)
        if case .course(_, let deg)? = moving?.path { #expect(abs(deg - 90) < 1e-6) } else { Issue.record("no course") }
        // Slow for 2 minutes: stationary, whatever the course was.
        for k in 0...13 { t.observe(fix(70 + Double(k) * 10, at: F.east(1500), mps: 0.2, track: 300)) }
        #expect(t.plan(from: F.east(1500), speed: nil, now: F.at(200))?.basis == .stationary)
    }

    @Test func noSpeedAndNoCourseIsNoPlan() {
        var t = AheadTrajectory(route: nil, routeID: nil, offRouteM: 500)
        t.observe(fix(0, at: F.east(0), mps: nil, track: nil))
        #expect(t.plan(from: F.east(0), speed: nil, now: F.at(0)) == nil)
    }

    @Test func onTheRouteTheSamplesFollowWhatRemainsAndLeavingItIsSaidOnce() {
        let route = F.geometry([F.east(0), F.east(50_000)], name: "East")
        var t = AheadTrajectory(route: route, routeID: "east.gpx", offRouteM: 500)
        t.observe(fix(0, at: F.east(10_000), mps: 20, track: 90))
        let on = t.plan(from: F.east(10_000), speed: TravelSpeed(mps: 20, source: .gps), now: F.at(0))
        #expect(on?.basis == .route && on?.offRoute == false)
        #expect(abs((on?.route?.remainingKm ?? 0) - 40) < 0.01)
        #expect(on?.refreshBasis == AheadRefreshPolicy.Basis(basis: .route, routeID: "east.gpx", offRoute: false))
        // 2 km north of the route for more than 60 s: off it, following the course, said once.
        for k in 1...8 { t.observe(fix(Double(k) * 10, at: F.east(10_000, north: 2_000), mps: 20, track: 0)) }
        let off = t.plan(from: F.east(10_000, north: 2_000), speed: TravelSpeed(mps: 20, source: .gps), now: F.at(80))
        #expect(off?.basis == .course && off?.offRoute == true && off?.route?.name == "East")
        #expect(t.takeChange() == .leftRoute)
        #expect(t.takeChange() == nil)
        t.observe(fix(90, at: F.east(12_000), mps: 20, track: 90))
        #expect(t.takeChange() == .rejoinedRoute)
    }

    @Test func aFixNotAfterTheLastObservedChangesNothing() {
        var t = AheadTrajectory(route: nil, routeID: nil, offRouteM: 500)
        t.observe(fix(10, at: F.east(0), mps: 25, track: 90))
        t.observe(fix(5, at: F.east(0), mps: 25, track: 270))
        t.observe(fix(10, at: F.east(0), mps: 25, track: 270))
        #expect(t.lastObservedAt == F.at(10))
        if case .course(_, let deg)? = t.plan(
            from: F.east(0), speed: TravelSpeed(mps: 25, source: .gps), now: F.at(10))?.path
        {
            #expect(abs(deg - 90) < 1e-6)
        } else {
            Issue.record("no course")
        }
    }

    /// The receiver's time and a system clock stepped by `stepS` at the third fix (receivedAt).
    func stepped(_ s: Double, at c: Coordinate, stepS: Double, mps: Double?, track: Double?) -> Fix {
        Fix(
            time: F.at(s), receivedAt: F.at(s + stepS), coordinate: c, mode: .threeD, speedMps: mps, trackDeg: track)
    }

    @Test func aSystemClockSteppedForwardDoesNotThrowTheProjectionToTheRoutesEnd() {
        // A round trip, out north and back from the east, ending 6 m from where it starts: parked at the
        // start, the Pi's clock is stepped two days forward by NTP.
        let lap = F.geometry([
            F.east(0), F.east(0, north: 10_000), F.east(10_000, north: 10_000), F.east(10_000), F.east(6),
        ])
        var t = AheadTrajectory(route: lap, routeID: "lap.gpx", offRouteM: 500)
        t.observe(stepped(0, at: F.east(0), stepS: 0, mps: 0, track: nil))
        t.observe(stepped(1, at: F.east(5), stepS: 0, mps: 0, track: nil))
        t.observe(stepped(2, at: F.east(5), stepS: 172_800, mps: 0, track: nil))
        #expect((t.progress?.alongM ?? .infinity) < 50)
        for k in 1...200 {
            t.observe(stepped(2 + Double(k), at: F.east(0, north: Double(k) * 20), stepS: 172_800, mps: 20, track: 0))
        }
        #expect(abs((t.progress?.alongM ?? 0) - 4_000) < 50)
        #expect(t.progress?.isOffRoute == false)
    }

    @Test func aSystemClockSetBackDoesNotFreezeTheProjection() {
        let straight = F.geometry([F.east(0), F.east(22_000)])
        var t = AheadTrajectory(route: straight, routeID: "s.gpx", offRouteM: 500)
        for k in 0...300 {
            // At 20 m/s; at 150 s the system clock is set back 2 h.
            let step = k < 150 ? 0.0 : -7_200
            t.observe(stepped(Double(k), at: F.east(Double(k) * 20), stepS: step, mps: 20, track: 90))
        }
        #expect(abs((t.progress?.alongM ?? 0) - 6_000) < 50)
    }

    @Test func aLostFixStillAgesSoAStopBecomesStationary() {
        var t = AheadTrajectory(route: nil, routeID: nil, offRouteM: 500)
        for k in 0...5 { t.observe(fix(Double(k) * 10, at: F.east(Double(k) * 250), mps: 25, track: 90)) }
        t.observe(fix(60, at: F.east(1_250), mps: 0.2, track: nil))
        // No fix since (a garage): the position's age carries `now` on the receiver's time line.
        let last = Position(
            coordinate: F.east(1_250), speedMps: 0.2, fixTime: F.at(60), obtainedAt: F.at(60 + 3_600), source: .gps)
        let now = t.timeLineNow(for: last, wallNow: F.at(60 + 3_600 + 600))
        #expect(now == F.at(660))
        #expect(t.plan(from: F.east(1_250), speed: nil, now: now)?.basis == .stationary)
        // A time stamp ahead of the clock ages by nothing.
        #expect(t.timeLineNow(for: last, wallNow: F.at(0)) == F.at(60))
        // Without a fix time: the arrival clock moved onto the receiver's (here they agree).
        #expect(t.timeLineNow(for: Position.manual(F.east(0), at: F.at(5)), wallNow: F.at(7)) == F.at(7))
    }

    /// The receiver's first fixes have no date yet, and the Pi's clock reads 5 h ahead: those go by
    /// the arrival clock; the first dated fix starts the time line again on the receiver's (before, each
    /// dated fix read as 5 h before the last and was skipped, freezing the projection for 5 h), and an
    /// undated fix after it goes by the offset the dated ones showed.
    @Test func fixesWithoutATimeDoNotMixTheClocks() {
        let straight = F.geometry([F.east(0), F.east(22_000)])
        var t = AheadTrajectory(route: straight, routeID: "s.gpx", offRouteM: 500)
        let ahead = 5 * 3_600.0
        for k in 0..<5 {
            t.observe(
                Fix(
                    time: nil, receivedAt: F.at(Double(k) + ahead), coordinate: F.east(Double(k) * 20), mode: .threeD,
                    speedMps: 20, trackDeg: 90))
        }
        for k in 5..<200 {
            let dated = k % 10 != 0
            t.observe(
                Fix(
                    time: dated ? F.at(Double(k)) : nil, receivedAt: F.at(Double(k) + ahead),
                    coordinate: F.east(Double(k) * 20), mode: .threeD, speedMps: 20, trackDeg: 90))
        }
        #expect(abs((t.progress?.alongM ?? 0) - 199 * 20) < 50)
        #expect(t.receiverOffsetS == -ahead)
        #expect(t.lastObservedAt == F.at(199))
        let undated = Position(coordinate: F.east(3_980), obtainedAt: F.at(199 + ahead), source: .gps)
        #expect(t.timeLineNow(for: undated, wallNow: F.at(200 + ahead)) == F.at(200))
    }

}

@Suite struct AheadForecastAssemblyTests {
    typealias F = AheadFixture

    @Test func valuesAtEachETARainAheadAndTheWorstComeFromTheSamplesOwnLocation() {
        let hours = (0..<4).map { F.at(Double($0) * 3600) }
        func series(rain: Double, temp: Double) -> AheadHourlySeries {
            AheadHourlySeries(
                times: hours, temperatureC: [temp, temp, temp, temp], precipitationMmH: [0, rain, rain, rain],
                precipitationProbabilityPct: [0, 50, 50, 50], weatherCode: [3, 61, 61, 61],
                windSpeedMps: [5, 5, 5, 5], windGustMps: [9, 12, 9, 9], windDirDeg: [270, 270, 270, 270])
        }
        let points = [30.0, 60, 90].map { m in
            AheadSamplePoint(
                minutes: Int(m), eta: F.at(m * 60), distanceM: m * 1000, coordinate: F.east(m * 1000),
                travelBearingDeg: 90)
        }
        let plan = AheadTrajectory.Plan(
            basis: .course, offRoute: false, path: .course(from: F.east(0), courseDeg: 90), route: nil,
            refreshBasis: AheadRefreshPolicy.Basis(basis: .course, routeID: nil, offRoute: false))
        let f = AheadForecastAssembly.forecast(
            plan: plan, speed: TravelSpeed(mps: 16.7, source: .history),
            from: AheadForecast.Origin(coordinate: F.east(0), fixTime: F.at(0)), madeAt: F.at(0), points: points,
            locationOfSample: [0, 0, 1], series: [series(rain: 0.1, temp: 10), series(rain: 1.5, temp: 4)],
            places: ["A", "B", "C"], rainMmH: 0.2)
        // The first two samples are in the dry location; the third in the wet, colder one.
        #expect(f.samples.map(\.temperatureC) == [10, 10, 4])
        #expect(f.rain == AheadForecast.Rain(inMin: 90, atKm: 90, place: "C", mmH: 1.5))
        #expect(f.worst.minTemperatureC == 4 && f.worst.maxPrecipitationMmH == 1.5)
        // A west wind (from 270°) behind a traveller going east: a tailwind, negative headwind.
        #expect(f.samples.allSatisfy { ($0.headwindMps ?? 0) < -4.9 })
        #expect(f.speedSource == .history && f.stale == false)
    }

    @Test func aSampleWithoutASeriesKeepsItsPlaceAndTimeWithUnknownValues() {
        let point = AheadSamplePoint(
            minutes: 15, eta: F.at(900), distanceM: 5_000, coordinate: F.east(5_000), travelBearingDeg: 90)
        let plan = AheadTrajectory.Plan(
            basis: .course, offRoute: false, path: .course(from: F.east(0), courseDeg: 90), route: nil,
            refreshBasis: AheadRefreshPolicy.Basis(basis: .course, routeID: nil, offRoute: false))
        let f = AheadForecastAssembly.forecast(
            plan: plan, speed: nil, from: AheadForecast.Origin(coordinate: F.east(0), fixTime: nil), madeAt: F.at(0),
            points: [point], locationOfSample: [3], series: [], places: [nil], rainMmH: 0.2)
        #expect(f.samples.count == 1 && f.samples[0].temperatureC == nil && f.samples[0].minutes == 15)
        #expect(f.rain == nil && f.worst.minTemperatureC == nil)
    }
}
