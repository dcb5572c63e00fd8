import FoundationEssentials
import Testing

@testable import FixcastCore

@Suite("TPVFilter")
struct TPVFilterTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func tpv(
        mode: Int = 3, lat: Double = 52.5, lon: Double = 13.4, time: Date? = Date(timeIntervalSince1970: 1_799_999_999)
    )
        -> TPVReport
    {
        TPVReport(
            mode: mode, time: time, lat: lat, lon: lon, altitudeM: 34, speedMps: .nan, trackDeg: 90,
            horizontalErrorM: 4.5)
    }

    @Test func aGoodReportIsAFixWithNaNsAsNil() {
        guard case .fix(let f) = TPVFilter.validate(tpv(), receivedAt: now) else {
            Issue.record("not a fix")
            return
        }
        #expect(f.coordinate == Coordinate(lat: 52.5, lon: 13.4))
        #expect(f.mode == .threeD)
        #expect(f.altitudeM == 34)
        #expect(f.speedMps == nil)
        #expect(f.trackDeg == 90)
        #expect(f.horizontalErrorM == 4.5)
        #expect(f.verticalErrorM == nil)
        #expect(f.receivedAt == now)
        #expect(f.time == Date(timeIntervalSince1970: 1_799_999_999))
    }

    @Test func twoDIsAFix() {
        guard case .fix(let f) = TPVFilter.validate(tpv(mode: 2), receivedAt: now) else {
            Issue.record("not a fix")
            return
        }
        #expect(f.mode == .twoD)
    }

    @Test(arguments: [0, 1, -1, 4])
    func otherModesAreNoFix(mode: Int) {
        #expect(TPVFilter.validate(tpv(mode: mode), receivedAt: now) == .noFix)
    }

    @Test(arguments: [(Double.nan, 1.0), (1.0, Double.nan), (90.1, 1.0), (1.0, -180.1)])
    func badCoordinatesAreInvalid(lat: Double, lon: Double) {
        #expect(TPVFilter.validate(tpv(lat: lat, lon: lon), receivedAt: now) == .invalidPosition)
    }

    @Test func sameTimeIsADuplicate() {
        var f = TPVFilter()
        #expect(f.classify(tpv(), receivedAt: now) != .duplicate)
        #expect(f.classify(tpv(lat: 52.6), receivedAt: now) == .duplicate)
        let later = tpv(time: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(f.classify(later, receivedAt: now) != .duplicate)
    }

    @Test func aNoFixBetweenDoesNotHideADuplicate() {
        var f = TPVFilter()
        _ = f.classify(tpv(), receivedAt: now)
        #expect(f.classify(tpv(mode: 1), receivedAt: now) == .noFix)
        #expect(f.classify(tpv(), receivedAt: now) == .duplicate)
    }

    @Test func timelessFixesAreKeptUnlessTheyRepeatThePosition() {
        var f = TPVFilter()
        guard case .fix(let first) = f.classify(tpv(time: nil), receivedAt: now) else {
            Issue.record("a time-less fix must be kept")
            return
        }
        #expect(first.time == nil)
        #expect(f.classify(tpv(time: nil), receivedAt: now) == .duplicate)
        #expect(f.classify(tpv(lat: 52.51, time: nil), receivedAt: now) != .duplicate)
    }

    @Test func resetForgetsTheLastFix() {
        var f = TPVFilter()
        _ = f.classify(tpv(), receivedAt: now)
        f.reset()
        #expect(f.classify(tpv(), receivedAt: now) != .duplicate)
    }
}

@Suite("TPVFilter plausibility")
struct TPVFilterPlausibilityTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func tpv(lat: Double, lon: Double, at s: Double) -> TPVReport {
        TPVReport(mode: 3, time: now.addingTimeInterval(s), lat: lat, lon: lon)
    }

    @Test func nullIslandIsImplausible() {
        var f = TPVFilter()
        guard case .fix = f.classify(tpv(lat: 52.5, lon: 13.4, at: 0), receivedAt: now) else {
            Issue.record("Berlin must be a fix")
            return
        }
        #expect(
            f.classify(tpv(lat: 0, lon: 0, at: 1), receivedAt: now.addingTimeInterval(1)) == .implausible(.nullIsland))
    }

    @Test func oneEpochSentTwiceCountsOnceTowardsAJump() {
        var f = TPVFilter()
        _ = f.classify(tpv(lat: 52.5, lon: 13.4, at: 0), receivedAt: now)
        #expect(f.classify(tpv(lat: 48.1, lon: 11.6, at: 1), receivedAt: now) == .implausible(.jump))
        #expect(f.classify(tpv(lat: 48.1, lon: 11.6, at: 1), receivedAt: now) == .duplicate)
        #expect(f.classify(tpv(lat: 48.1, lon: 11.6, at: 2), receivedAt: now) == .implausible(.jump))
        guard case .fix(let accepted) = f.classify(tpv(lat: 48.1, lon: 11.6, at: 3), receivedAt: now) else {
            Issue.record("the third agreeing fix must be accepted")
            return
        }
        #expect(accepted.coordinate.lat == 48.1)
    }

    @Test func theSpeedLimitReachesThePlausibilityCheck() {
        var f = TPVFilter(maxSpeedMps: 10)
        _ = f.classify(tpv(lat: 52.5, lon: 13.4, at: 0), receivedAt: now)
        // 0.001° of latitude is 111 m: over 10 m/s in one second.
        #expect(f.classify(tpv(lat: 52.501, lon: 13.4, at: 1), receivedAt: now) == .implausible(.jump))
    }
}
