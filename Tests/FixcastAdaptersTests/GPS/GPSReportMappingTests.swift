import CGPS
import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// The shim's flat report becomes a `TPVReport` without losing or inventing anything.
@Suite("cgps_report to TPVReport", .scratch)
struct GPSReportMappingTests {
    func report() -> cgps_report {
        var r = cgps_report()
        r.got = Int32(CGPS_GOT_TPV)
        r.mode = 3
        r.lat = -27.2109
        r.lon = 153.0522
        r.alt = 3
        r.speed = .nan
        r.track = 133.96
        r.eph = .nan
        r.epx = 12
        r.epy = 30
        r.epv = .nan
        return r
    }

    @Test func timeComesFromSecondsAndNanoseconds() {
        var r = report()
        r.time_valid = 1
        r.time_sec = 1_800_000_000
        r.time_nsec = 500_000_000
        let t = GPSDConnection.tpv(from: r, satellitesUsed: 7)
        #expect(t.time == Date(timeIntervalSince1970: 1_800_000_000.5))
        #expect(t.satellitesUsed == 7)
        #expect(t.mode == 3)
        #expect(t.lat == -27.2109 && t.lon == 153.0522)
        #expect(t.trackDeg == 133.96)
        #expect(t.speedMps.isNaN)
    }

    @Test func noTimeWithoutTheFlagEvenIfSecondsAreThere() {
        var r = report()
        r.time_valid = 0
        r.time_sec = 2_051_222_400  // the bogus 2035 of a cold receiver
        #expect(GPSDConnection.tpv(from: r, satellitesUsed: nil).time == nil)
    }

    @Test func horizontalErrorIsEphOrElseTheLargerAxis() {
        var r = report()
        #expect(GPSDConnection.tpv(from: r, satellitesUsed: nil).horizontalErrorM == 30)
        r.eph = 8
        #expect(GPSDConnection.tpv(from: r, satellitesUsed: nil).horizontalErrorM == 8)
        r.eph = .nan
        r.epx = .nan
        r.epy = .nan
        #expect(GPSDConnection.tpv(from: r, satellitesUsed: nil).horizontalErrorM.isNaN)
    }

    @Test func theShimWasBuiltAgainstTheInstalledAPI() {
        #expect(cgps_api_major() >= 11)
        #expect(String(cString: cgps_errstr(-6)).isEmpty == false)
    }
}
