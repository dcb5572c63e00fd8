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
}
