import FixcastCore
import FoundationEssentials
import Testing

@Suite struct GPSStatusTests {
    @Test func quietStatesSayNothing() {
        #expect(GPSStatus.starting.issue == nil)
        #expect(GPSStatus.fixing.issue == nil)
        #expect(GPSStatus.lost(since: PolicyFixture.t0).issue == nil)
    }

    @Test func theWaitAndNoPositionTexts() {
        #expect(
            GPSStatus.waitingForFix(retry: 2, of: 3, timeoutS: 12).issue
                == ReadingIssue(component: .gps, message: "gps: no fix yet after 12 s; waiting again (retry 2 of 3)."))
        #expect(
            GPSStatus.noPosition.issue
                == ReadingIssue(
                    component: .gps,
                    message:
                        "gps: no fix yet and no stored position; the first fix will bring a reading (check the receiver with cgps)."
                ))
    }

    @Test func aProblemIsTheErrorsOwnSentence() {
        let e = GPSError.watchRefused(address: "h:1")
        #expect(GPSStatus.problem(e).issue == ReadingIssue(component: .gps, message: e.message))
    }
}
