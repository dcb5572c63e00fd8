import FixcastCore
import Testing

@Suite("SphereNavigation")
struct SphereNavigationTests {
    @Test func dueNorthAcross89NGoesOverThePoleAndComesDownTheOtherSide() {
        let start = AheadFixture.c(89, 10)
        let twoDegrees = 2 * AheadFixture.mPerDegLat
        let (end, bearing) = SphereNavigation.destination(from: start, bearingDeg: 0, distanceM: twoDegrees)
        #expect(abs(end.lat - 89) < 1e-6)
        #expect(abs(end.lon - (-170)) < 1e-6)
        #expect(abs(bearing - 180) < 1e-6)
        // Half a degree: still going north, still on the same meridian.
        let (near, nearBearing) = SphereNavigation.destination(from: start, bearingDeg: 0, distanceM: twoDegrees / 4)
        #expect(abs(near.lat - 89.5) < 1e-6)
        #expect(abs(near.lon - 10) < 1e-6)
        #expect(abs(nearBearing) < 1e-6 || abs(nearBearing - 360) < 1e-6)
    }

    @Test func eastAcrossTheAntimeridianWrapsTheLongitude() {
        let (end, bearing) = SphereNavigation.destination(
            from: AheadFixture.c(0, 179.5), bearingDeg: 90, distanceM: AheadFixture.mPerDegLat)
        #expect(abs(end.lat) < 1e-9)
        #expect(abs(end.lon - (-179.5)) < 1e-6)
        #expect(abs(bearing - 90) < 1e-6)
        let back = SphereNavigation.bearingDeg(from: AheadFixture.c(0, -179.5), to: AheadFixture.c(0, 179.5))
        #expect(abs(back - 270) < 1e-6)
    }

    @Test func bearingsAndIntermediatePoints() {
        #expect(abs(SphereNavigation.bearingDeg(from: AheadFixture.c(0, 0), to: AheadFixture.c(1, 0))) < 1e-9)
        #expect(abs(SphereNavigation.bearingDeg(from: AheadFixture.c(0, 0), to: AheadFixture.c(0, -1)) - 270) < 1e-9)
        let mid = SphereNavigation.intermediate(AheadFixture.c(0, 0), AheadFixture.c(0, 2), fraction: 0.5)
        #expect(abs(mid.lon - 1) < 1e-9)
    }

    /// From a pole every direction is south (north); a bearing is taken against the pole's own meridian,
    /// as `bearingDeg` gives it, so the way to a point goes down that point's meridian. (The general
    /// formula met 0 / 0 there and sent every bearing down the meridian 90° off.)
    @Test func fromAPoleTheBearingChoosesTheMeridian() {
        let pole = AheadFixture.c(90, 0)
        let target = AheadFixture.c(80, 30)
        let bearing = SphereNavigation.bearingDeg(from: pole, to: target)
        #expect(abs(bearing - 150) < 1e-6)
        let (end, arrival) = SphereNavigation.destination(from: pole, bearingDeg: bearing, distanceM: 100_000)
        #expect(abs(end.lon - 30) < 1e-6, "\(end)")
        #expect(abs(end.lat - (90 - 100_000 / AheadFixture.mPerDegLat)) < 1e-6)
        #expect(abs(arrival - 180) < 1e-6)
        let whole = SphereNavigation.intermediate(pole, target, fraction: 1)
        #expect(abs(whole.lat - 80) < 1e-6 && abs(whole.lon - 30) < 1e-6)
        let south = SphereNavigation.destination(
            from: AheadFixture.c(-90, 10), bearingDeg: 40, distanceM: AheadFixture.mPerDegLat
        ).coordinate
        #expect(abs(south.lat - (-89)) < 1e-6 && abs(south.lon - 50) < 1e-6, "\(south)")
        #expect(abs(SphereNavigation.bearingDeg(from: AheadFixture.c(-90, 10), to: south) - 40) < 1e-6)
    }
}
